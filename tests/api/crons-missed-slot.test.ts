import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { api, db, fan, poster } from "../helpers";

// Vercel Cron may skip a slot (docs/decisions/0074-crons-on-vercel-scheduler.md): the state is arranged as if the
// previous runs never happened (backdated), then one run does the missed work too. The queue crons work from their
// rows' state (due since whenever); the slot-based ones (rollups, season peaks, the reconciliation's window) reach
// back to what the last run left (the reconciliation's case is in tests/api/payments-reconciliation.test.ts, where no
// other file's run can land between its steps). Streak freezes over several missed days: tests/api/streaks.test.ts; a season
// rollover whose run never came: tests/api/leaderboard.test.ts.

const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = (name: string) => api("GET", `/api/cron/${name}`, { headers: { authorization: `Bearer ${cronSecret()}` } });
const DAY = 86_400_000;
const dayAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);

describe("after a skipped slot, one run does the missed work", () => {
  it("console-rollups: every day since the last one computed after it ended is recomputed", async () => {
    expect((await cron("console-rollups?days=7")).status).toBe(200); // days 6 ago … yesterday are final
    // As if the runs of the last five days stopped an hour into each day: their values are stale.
    await db().$executeRaw`
      UPDATE console_daily_metrics SET computed_at = day::timestamp AT TIME ZONE 'UTC' + interval '1 hour',
        value = CASE WHEN metric IN ('fans.signups', 'rep.issued') THEN -1 ELSE value END
      WHERE day >= ${dayAgo(5)}::date AND day < ${dayAgo(0)}::date`;
    const res = await cron("console-rollups");
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ from: dayAgo(5), to: dayAgo(0) });
    const stale = await db().$queryRaw<{ n: bigint }[]>`
      SELECT count(*)::int8 AS n FROM console_daily_metrics WHERE day >= ${dayAgo(5)}::date AND value = -1`;
    expect(Number(stale[0]!.n)).toBe(0);
    // Nothing missed: the next run goes back to yesterday only.
    expect((await cron("console-rollups")).body.data).toMatchObject({ from: dayAgo(1) });
  });

  it("badges: Rep earned in the last hours of the previous season counts for its tier badge, though no run came before it ended", async () => {
    const f = await fan();
    const startOfMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
    const lastHour = new Date(startOfMonth.getTime() - 3_600_000);
    await db().repEntry.create({
      data: { userId: f.id, source: "serviceDirect", amount: 2_000, reason: "test", earnKind: "test", grantKey: `test:${randomUUID()}`, createdAt: lastHour },
    });
    expect((await cron("badges")).status).toBe(200);
    const season = lastHour.toISOString().slice(0, 7);
    expect(await db().userSeasonPeak.findUnique({ where: { userId_season: { userId: f.id, season } } })).toMatchObject({ peakEarned: 2_000n });
    expect(await db().badgeGrant.count({ where: { userId: f.id, badge: { slug: "tier-gold" } } })).toBe(1);
  });

  it("locker-room-publish: a post due for hours (slots missed) is announced by the next run", async () => {
    const a = await poster();
    const id = randomUUID();
    await db().post.create({ data: { id, authorId: a.id, content: "due for hours", publishAt: new Date(Date.now() - 6 * 3_600_000), scheduled: true } });
    expect((await cron("locker-room-publish")).status).toBe(200);
    expect(await db().notification.count({ where: { userId: a.id, type: "POST_PUBLISHED" } })).toBe(1);
  });

  it("account-erasure: a deletion due for days is erased by the next run", async () => {
    const a = await fan();
    expect((await api("POST", "/api/v1/me/deletion", { headers: a.auth, json: { confirm: true } })).status).toBe(202);
    await db().$executeRaw`UPDATE account_deletions SET requested_at = now() - interval '20 days', due_at = now() - interval '12 days',
                   not_before = now() - interval '12 days' WHERE user_id = ${a.id}::uuid`;
    expect((await cron("account-erasure")).status).toBe(200);
    expect((await db().accountDeletion.findUniqueOrThrow({ where: { userId: a.id } })).state).toBe("erased");
  });
});
