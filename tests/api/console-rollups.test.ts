import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { api, db, errorOf, fan } from "../helpers";

const DAY = 86_400_000;
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const rollups = (query = "", authorization: string | null = `Bearer ${cronSecret()}`) =>
  api("GET", `/api/cron/console-rollups${query}`, { headers: authorization === null ? {} : { authorization } });

// A past UTC day no other test writes to, far enough back that it is only computed by a backfill.
const dayAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
const D = dayAgo(37);
const at = (hour: number) => new Date(`${D}T${String(hour).padStart(2, "0")}:30:00.000Z`);

/** The rollup's rows of `day`, as { metric: value }. */
async function stored(day: string): Promise<Record<string, number>> {
  const rows = await db().$queryRaw<{ metric: string; value: bigint }[]>`SELECT metric, value FROM console_daily_metrics WHERE day = ${day}::date`;
  return Object.fromEntries(rows.map((r) => [r.metric, Number(r.value)]));
}

/** The same day's figures counted straight from the raw tables (written independently of the cron's statement). */
async function counted(day: string): Promise<Record<string, number>> {
  const [r] = await db().$queryRaw<Record<string, bigint>[]>`
    WITH bounds AS (SELECT ${day}::date AS d, (${day}::date)::timestamp AT TIME ZONE 'UTC' AS t0, (${day}::date + 1)::timestamp AT TIME ZONE 'UTC' AS t1)
    SELECT
      (SELECT count(*) FROM users, bounds WHERE created_at >= t0 AND created_at < t1) AS "fans.signups",
      (SELECT count(*) FROM (SELECT user_id FROM rep_entries, bounds WHERE created_at >= t0 AND created_at < t1
                             UNION SELECT user_id FROM feed_signal_batches, bounds WHERE received_at >= t0 AND received_at < t1) a) AS "fans.active",
      (SELECT coalesce(sum(amount), 0) FROM rep_entries, bounds WHERE amount > 0 AND created_at >= t0 AND created_at < t1) AS "rep.issued",
      (SELECT coalesce(sum(-amount), 0) FROM rep_entries, bounds WHERE amount < 0 AND created_at >= t0 AND created_at < t1) AS "rep.spent",
      (SELECT count(*) FROM arena_check_ins, bounds WHERE day = d) AS checkins,
      (SELECT count(*) FROM quiz_sessions, bounds WHERE day = d) AS "quiz.starts",
      (SELECT count(*) FROM quiz_sessions, bounds WHERE day = d AND status = 'completed') AS "quiz.completions",
      (SELECT count(*) FROM posts, bounds WHERE publish_at >= t0 AND publish_at < t1) AS posts,
      (SELECT count(*) FROM reports, bounds WHERE created_at >= t0 AND created_at < t1) AS reports,
      (SELECT count(*) FROM market_sales, bounds WHERE created_at >= t0 AND created_at < t1) AS "market.sales",
      (SELECT coalesce(sum(price), 0) FROM market_sales, bounds WHERE created_at >= t0 AND created_at < t1) AS "market.volume",
      (SELECT coalesce(sum(fee), 0) FROM market_sales, bounds WHERE created_at >= t0 AND created_at < t1) AS "market.fees",
      (SELECT count(*) FROM wallet_transactions, bounds WHERE reason = 'topup' AND created_at >= t0 AND created_at < t1) AS "payments.topups",
      (SELECT coalesce(sum(amount), 0) FROM wallet_transactions, bounds WHERE reason = 'topup' AND created_at >= t0 AND created_at < t1) AS "payments.topup_coins",
      (SELECT count(*) FROM wallet_transactions, bounds WHERE reason = 'clawback' AND created_at >= t0 AND created_at < t1) AS "payments.refunds",
      (SELECT coalesce(sum(-amount), 0) FROM wallet_transactions, bounds WHERE reason = 'clawback' AND created_at >= t0 AND created_at < t1) AS "payments.refund_coins"`;
  return Object.fromEntries(Object.entries(r!).map(([k, v]) => [k, Number(v)]));
}

/** Activity of two fans on day D: a sign-up, Rep earned and spent, an app batch, a check-in, a quiz, a post, a report, a top-up and a claw-back. */
async function plantDay() {
  const a = await fan();
  const b = await fan();
  const x = db();
  await x.user.update({ where: { id: a.id }, data: { createdAt: at(8) } });
  const rep = (userId: string, amount: number, hour: number) =>
    x.repEntry.create({
      data: { userId, source: "serviceDirect", amount, reason: "test", earnKind: "test", grantKey: `test:${randomUUID()}`, createdAt: at(hour) },
    });
  await rep(a.id, 40, 9);
  await rep(a.id, -15, 10);
  await rep(b.id, 7, 23);
  await x.feedSignalBatch.create({ data: { id: randomUUID(), userId: b.id, eventCount: 1, events: [], receivedAt: at(11) } });
  await x.arenaCheckIn.create({ data: { userId: a.id, teamId: "tm_hch", day: new Date(`${D}T00:00:00Z`), createdAt: at(12) } });
  await x.$executeRaw`INSERT INTO quiz_sessions (id, user_id, quest_id, day, status, question_ids, current_index, question_shown_at, started_at, ended_at)
    VALUES (${randomUUID()}::uuid, ${a.id}::uuid, 'q_quiz_hch', ${D}::date, 'completed', '{}', 0, ${at(13)}, ${at(13)}, ${at(13)})`;
  const post = await x.post.create({ data: { authorId: a.id, content: "rollup test", publishAt: at(14), createdAt: at(14) }, select: { id: true } });
  await x.report.create({ data: { reporterId: b.id, postId: post.id, reason: "SPAM", createdAt: at(15) } });
  // A top-up of 1,200 coins, 300 of them clawed back for a refund: the purchase, the wallet and its ledger agree (the
  // economy invariant the suite checks at teardown).
  const productId = `cp_rollups_${randomUUID().slice(0, 8)}`;
  await x.coinProduct.create({ data: { id: productId, name: productId, coins: 1200, prices: { usd: 999 } } });
  await x.coinPurchase.create({
    data: {
      userId: b.id,
      productId,
      provider: "stripe",
      providerTxnId: `pi_${randomUUID()}`,
      coins: 1200,
      amount: 999,
      currency: "usd",
      state: "refunded",
      refundedAmount: 250,
      clawedCoins: 300,
      creditedAt: at(16),
    },
  });
  await x.wallet.upsert({
    where: { userId_currency: { userId: b.id, currency: "COIN" } },
    create: { userId: b.id, currency: "COIN", balance: 900 },
    update: { balance: 900 },
  });
  const tx = (amount: number, balanceAfter: number, reason: "topup" | "clawback", hour: number) =>
    x.walletTransaction.create({
      data: { userId: b.id, currency: "COIN", amount, balanceAfter, reason, referenceType: "test", referenceId: randomUUID(), createdAt: at(hour) },
    });
  await tx(1200, 1200, "topup", 16);
  await tx(-300, 900, "clawback", 17);
}

describe("GET /api/cron/console-rollups", () => {
  it("writes each daily metric of a backfilled day equal to what the raw tables hold, zero where nothing happened", async () => {
    await plantDay();
    const res = await rollups("?days=40");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ from: dayAgo(39), to: dayAgo(0), rows: expect.any(Number) });
    const [rolled, raw] = [await stored(D), await counted(D)];
    expect(rolled).toEqual(raw);
    // The planted activity is in it (two fans active, 47 Rep issued, 15 spent, …).
    expect(rolled["fans.active"]).toBeGreaterThanOrEqual(2);
    expect(rolled["rep.spent"]).toBeGreaterThanOrEqual(15);
    expect(rolled["payments.refund_coins"]).toBeGreaterThanOrEqual(300);
    for (const metric of ["checkins", "quiz.completions", "posts", "reports", "payments.topups"]) expect(rolled[metric], metric).toBeGreaterThanOrEqual(1);
    // Today's snapshot of the moderation queue and the push outbox.
    expect(Object.keys(await stored(dayAgo(0)))).toEqual(
      expect.arrayContaining(["moderation.open_reports", "moderation.oldest_open_minutes", "push.pending", "push.failed"]),
    );
  });

  it("is idempotent: a second run writes the same values; a late write is counted by the next run", async () => {
    expect((await rollups("?days=40")).status).toBe(200);
    const before = await stored(D);
    expect((await rollups("?days=40")).status).toBe(200);
    expect(await stored(D)).toEqual(before);

    const late = await fan();
    await db().repEntry.create({
      data: { userId: late.id, source: "serviceDirect", amount: 11, reason: "test", earnKind: "test", grantKey: `test:${randomUUID()}`, createdAt: at(20) },
    });
    expect((await rollups("?days=40")).status).toBe(200);
    expect((await stored(D))["rep.issued"]).toBe(before["rep.issued"]! + 11);
    expect(await stored(D)).toEqual(await counted(D));
  });

  it("two concurrent runs give the same result as one", async () => {
    const [one, two] = await Promise.all([rollups("?days=40"), rollups("?days=40")]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(await stored(D)).toEqual(await counted(D));
    const days = await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM console_daily_metrics WHERE day = ${D}::date`;
    expect(Number(days[0]!.n)).toBe(16);
  });

  it.each([["0"], ["401"], ["abc"], ["1.5"], [""]])("refuses days=%s with 400", async (days) => {
    const res = await rollups(`?days=${days}`);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details).toEqual([expect.objectContaining({ path: "query.days" })]);
  });

  it("answers 401 without the cron secret, and records runs and failures per job", async () => {
    expect((await rollups("", null)).status).toBe(401);
    expect((await rollups("", "Bearer not-the-cron-secret-000")).status).toBe(401);
    const job = () => db().cronJobRun.findUnique({ where: { job: "/api/cron/console-rollups" } });
    expect((await rollups("?days=1")).status).toBe(200);
    const ok = (await job())!;
    expect(ok.lastStatus).toBe(200);
    expect((await rollups("?days=abc")).status).toBe(400);
    const failed = (await job())!;
    expect(failed.runs).toBeGreaterThanOrEqual(ok.runs + 1);
    expect(failed.failures).toBeGreaterThanOrEqual(ok.failures + 1);
    expect(failed.lastError).toMatch(/VALIDATION_ERROR/);
    const today = await stored(dayAgo(0));
    expect(today["cron.runs"]).toBeGreaterThanOrEqual(2);
    expect(today["cron.failures"]).toBeGreaterThanOrEqual(1);
  });

  it("is scheduled in vercel.json and documented in the internal document only", async () => {
    const { crons } = JSON.parse(readFileSync("vercel.json", "utf8")) as { crons: { path: string; schedule: string }[] };
    expect(crons).toContainEqual({ path: "/api/cron/console-rollups", schedule: "*/10 * * * *" });
    expect((await api("GET", "/api/openapi.json")).body.paths["/api/cron/console-rollups"]).toBeUndefined();
  });
});
