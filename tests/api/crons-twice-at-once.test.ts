import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, db, fan, newUser, poster, testCard, userIdOf } from "../helpers";

// Vercel Cron may fire one schedule twice at once (docs/decisions/0074-crons-on-vercel-scheduler.md): each cron here
// is run twice at once (Promise.all of two calls) over work of this file's own, and the work is done exactly once,
// with both answers 200. The crons whose exact-once-at-once test lives with their domain are named in the decision's
// table (drops, contests, predictions, marketplace, exports, push, the notification producers, streaks, badges,
// rollups, leaderboard seasons).

const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = (name: string) => api("GET", `/api/cron/${name}`, { headers: { authorization: `Bearer ${cronSecret()}` } });
const twice = async (name: string) => {
  const runs = await Promise.all([cron(name), cron(name)]);
  for (const r of runs) expect(r.status, r.text).toBe(200);
  return runs.map((r) => r.body.data);
};
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000);

describe("twice at once, the work done once", () => {
  it("account-erasure: one erasure, one forfeiture row", async () => {
    const a = await fan(1_000);
    expect((await api("POST", "/api/v1/me/deletion", { headers: a.auth, json: { confirm: true } })).status).toBe(202);
    await db().$executeRaw`UPDATE account_deletions SET requested_at = now() - interval '8 days', due_at = now() - interval '1 second',
                   not_before = now() - interval '1 second' WHERE user_id = ${a.id}::uuid`;
    await twice("account-erasure");
    expect((await db().accountDeletion.findUniqueOrThrow({ where: { userId: a.id } })).state).toBe("erased");
    expect(await db().walletTransaction.count({ where: { userId: a.id, referenceType: "account_deletion" } })).toBe(1);
  });

  it("nft-mints: a due mint is handed to the provider once (one attempt), minted", async () => {
    const f = await fan();
    const wallet = `0x${randomUUID().replace(/-/g, "")}00000000`.slice(0, 42);
    expect((await api("PUT", "/api/v1/nfts/wallet", { headers: f.auth, json: { address: wallet } })).status).toBe(200);
    const item = await testCard("Twice card", "rare", 1_000).give(f.id);
    const queued = await api("POST", "/api/v1/nfts/mints", { headers: f.auth, json: { collectibleId: item } });
    expect(queued.status, queued.text).toBeLessThan(300);
    const id = queued.body.data.mint.id as string;
    await twice("nft-mints");
    expect(await db().nftMint.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "minted", attempts: 1 });
  });

  it("locker-room-publish: a scheduled post past its time is announced once", async () => {
    const a = await poster();
    const id = randomUUID();
    await db().post.create({ data: { id, authorId: a.id, content: "scheduled long ago", publishAt: daysAgo(1), scheduled: true } });
    const runs = await twice("locker-room-publish");
    const announced = await db().notification.count({ where: { userId: a.id, type: "POST_PUBLISHED" } });
    expect(announced).toBe(1);
    expect((await db().post.findUniqueOrThrow({ where: { id } })).announcedAt).not.toBeNull();
    expect(runs).toHaveLength(2);
  });

  it("mobile-tokens: spent tokens deleted once, counted once", async () => {
    const { sub } = newUser();
    const user = await db().user.create({ data: { externalId: sub } });
    const rows = Array.from({ length: 30 }, (_, i) => ({
      tokenHash: createHash("sha256").update(`${sub}:${i}`).digest("hex"),
      userId: user.id,
      redirectUri: "fanapp://auth",
      expiresAt: daysAgo(1),
    }));
    await db().mobileSessionToken.createMany({ data: rows });
    const before = await db().mobileSessionToken.count();
    const runs = await twice("mobile-tokens");
    expect(await db().mobileSessionToken.count({ where: { userId: user.id } })).toBe(0);
    const deleted = runs.reduce((n, r) => n + (r.deleted as number), 0);
    expect(deleted).toBeGreaterThanOrEqual(rows.length);
    expect(deleted).toBeLessThanOrEqual(before); // never a row counted by both runs
  });

  it("signals-retention: expired signals deleted once, counted once", async () => {
    const f = await fan();
    const rows = Array.from({ length: 40 }, () => ({ id: randomUUID(), userId: f.id, receivedAt: daysAgo(400), eventCount: 3, events: [] }));
    await db().feedSignalBatch.createMany({ data: rows });
    const before = await db().$queryRaw<{ n: bigint }[]>`SELECT coalesce(sum(event_count), 0)::int8 AS n FROM feed_signal_batches`;
    const runs = await twice("signals-retention");
    expect(await db().feedSignalBatch.count({ where: { userId: f.id } })).toBe(0);
    const deleted = runs.reduce((n, r) => n + (r.deleted as number), 0);
    expect(deleted).toBeGreaterThanOrEqual(rows.length * 3);
    expect(deleted).toBeLessThanOrEqual(Number(before[0]!.n));
  });

  it("uploads-sweep: replaced images and expired direct uploads each deleted and counted once", async () => {
    const f = await fan();
    const dir = inject("fixtures").uploads!.uploadDir!;
    const images = Array.from({ length: 60 }, () => {
      const key = `profile/${f.id}/${randomUUID()}.webp`;
      mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
      writeFileSync(path.join(dir, key), "x");
      return {
        userId: f.id,
        kind: "profile",
        key,
        url: `/uploads/${key}`,
        contentType: "image/webp",
        bytes: 1,
        width: 1,
        height: 1,
        thumbhash: "",
        createdAt: daysAgo(3),
      };
    });
    await db().mediaUpload.createMany({ data: images });
    const directs = Array.from({ length: 60 }, () => ({
      userId: f.id,
      kind: "profile",
      pathname: `direct/${f.id}/${randomUUID()}`,
      maxBytes: 1,
      expiresAt: daysAgo(3),
    }));
    await db().directUpload.createMany({ data: directs });
    // Every row either table holds now: a run may also sweep other files' rows, never one it did not find here.
    const snapshot = new Set(
      [...(await db().mediaUpload.findMany({ select: { id: true } })), ...(await db().directUpload.findMany({ select: { id: true } }))].map((r) => r.id),
    );
    const runs = await twice("uploads-sweep");
    expect(await db().mediaUpload.count({ where: { userId: f.id } })).toBe(0);
    expect(await db().directUpload.count({ where: { userId: f.id } })).toBe(0);
    const left = new Set(
      [...(await db().mediaUpload.findMany({ select: { id: true } })), ...(await db().directUpload.findMany({ select: { id: true } }))].map((r) => r.id),
    );
    const gone = [...snapshot].filter((id) => !left.has(id)).length;
    // Never a row counted by both runs (other files' sweeps and deletes may take some of the rest meanwhile).
    const deleted = runs.reduce((n, r) => n + (r.deleted as number), 0);
    expect(deleted).toBeGreaterThanOrEqual(images.length + directs.length);
    expect(deleted).toBeLessThanOrEqual(gone);
  });

  it("referrals-settle: a referee qualified unseen is rewarded once on both sides", async () => {
    const r = newUser();
    expect((await api("GET", "/api/invites/me", { headers: r.auth })).status).toBe(200);
    const code = (await api("POST", "/api/invites/me", { headers: r.auth })).body.data.code as string;
    const e = newUser();
    expect((await api("GET", "/api/invites/me", { headers: e.auth })).status).toBe(200);
    expect((await api("POST", `/api/invites/${code}/redeem`, { headers: e.auth })).status).toBe(200);
    const [referrerId, refereeId] = [await userIdOf(r.sub), await userIdOf(e.sub)];
    await db().$executeRaw`UPDATE users SET onboarded_at = now() WHERE id = ${refereeId}::uuid`;
    await db().$executeRaw`
      INSERT INTO quest_progress (user_id, quest_id, period_key, started_at, completed_at, rep_awarded)
      VALUES (${refereeId}::uuid, 'q_daily_checkin', '2000-01-01', now(), now(), 0)`;
    const runs = await twice("referrals-settle");
    expect(await db().referralReward.count({ where: { refereeId } })).toBe(1);
    expect(await db().repEntry.count({ where: { userId: refereeId, grantKey: "referral:referee" } })).toBe(1);
    expect(await db().repEntry.count({ where: { userId: referrerId, grantKey: `referral:${refereeId}` } })).toBe(1);
    // (Other suites' referees may be settled by these runs too: the counts above are this referee's rule.)
    expect(runs.reduce((n, x) => n + (x.settled as number), 0)).toBeGreaterThanOrEqual(1);
  });

  it("leagues-sync: both runs succeed (serialised), rows not duplicated", async () => {
    const runs = await twice("leagues-sync");
    expect(runs.map((r) => r.status)).toEqual(["succeeded", "succeeded"]);
    const dupes = await db().$queryRaw<{ n: bigint }[]>`
      SELECT count(*)::int8 AS n FROM (SELECT source, provider_id FROM teams WHERE provider_id IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1) d`;
    expect(Number(dupes[0]!.n)).toBe(0);
  });
});
