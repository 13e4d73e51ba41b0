import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { api, db, errorOf, fan, matchday } from "../helpers";
import { award, debit } from "../../lib/core/rep/grants";

// Tiers from Rep earned in a season (spending never demotes, a reversal only at the season's end) and badges:
// the catalogue, grants once (concurrently), repeatable counts, the backfill run twice concurrently, revocation on a
// reversal, featured badges, privacy.

type Fan = Awaited<ReturnType<typeof fan>>;
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const badgesCron = () => api("GET", "/api/cron/badges", { headers: { authorization: `Bearer ${cronSecret()}` } });
const myTier = (f: Fan) => api("GET", "/api/v1/me/tier", { headers: f.auth });
const badgesOf = (f: Fan, viewer?: Fan) => api("GET", `/api/v1/users/${f.id}/badges`, { headers: viewer?.auth ?? {} });

const credit = (userId: string, amount: number, earnKind = "test_grant") =>
  db().$transaction((tx) => award(tx, userId, { earnKind, amount, source: "club", reason: "Test credit", grantKey: `test:${randomUUID()}` }));
const reverse = (userId: string, entryId: string, amount: number) =>
  db().$transaction((tx) =>
    debit(tx, userId, { earnKind: "reversal", amount, source: "club", reason: "Reversed: test", grantKey: `reversal:${entryId}`, targetId: entryId }),
  );
const grantsOf = (userId: string, slug: string) => db().badgeGrant.count({ where: { userId, badge: { slug } } });
const slugsOf = (res: { body: { data: { badges: { badge: { slug: string } }[] } } }) => res.body.data.badges.map((b) => b.badge.slug).sort();

describe("tiers", () => {
  it("GET /api/v1/engage/tiers: the seeded thresholds, lowest first, with the season", async () => {
    const res = await api("GET", "/api/v1/engage/tiers");
    expect(res.status, res.text).toBe(200);
    const bySlug = Object.fromEntries(res.body.data.tiers.map((t: { slug: string; minRep: number }) => [t.slug, t.minRep]));
    expect(bySlug).toMatchObject({ bronze: 0, silver: 500, gold: 2000, platinum: 5000 });
    const mins = res.body.data.tiers.map((t: { minRep: number }) => t.minRep);
    expect(mins).toEqual([...mins].sort((a: number, b: number) => a - b));
    expect(res.body.data.season.id).toBe(new Date().toISOString().slice(0, 7));
  });

  it("the tier follows Rep earned this season: thresholds, spending never demotes, a reversal does not before the season ends", async () => {
    const f = await fan();
    expect((await myTier(f)).body.data).toMatchObject({ earned: 0, tier: { slug: "bronze" }, next: { slug: "silver" }, toNext: 500 });
    await credit(f.id, 499);
    expect((await myTier(f)).body.data).toMatchObject({ earned: 499, tier: { slug: "bronze" }, toNext: 1 });
    await credit(f.id, 101);
    expect((await myTier(f)).body.data).toMatchObject({ earned: 600, peakEarned: 600, tier: { slug: "silver" }, next: { slug: "gold" }, toNext: 1400 });

    // Spending (a streak freeze) leaves earned as it is.
    expect((await api("POST", "/api/v1/engage/streak/freezes", { headers: f.auth })).status).toBe(201);
    expect((await myTier(f)).body.data).toMatchObject({ earned: 600, tier: { slug: "silver" } });

    // A staff reversal lowers earned, not the tier.
    const big = await credit(f.id, 300);
    await reverse(f.id, big!.entry.id, 300);
    const after = (await myTier(f)).body.data;
    expect(after).toMatchObject({ earned: 600, peakEarned: 900, tier: { slug: "silver" } });
  });

  it("a reversal before any read still does not demote: the peak is recorded just before it", async () => {
    const f = await fan();
    const c = await credit(f.id, 2100);
    await reverse(f.id, c!.entry.id, 2100);
    expect((await myTier(f)).body.data).toMatchObject({ earned: 0, peakEarned: 2100, tier: { slug: "gold" }, next: { slug: "platinum" }, toNext: 5000 });
  });
});

describe("badges", () => {
  it("the catalogue holds the defined badges; 401/404 rules of the fan's list", async () => {
    const res = await api("GET", "/api/v1/badges");
    expect(res.status, res.text).toBe(200);
    const slugs = res.body.data.badges.map((b: { slug: string }) => b.slug);
    expect(slugs).toEqual(expect.arrayContaining(["first-quest", "streak-7", "first-check-in", "arena-regular", "first-rating", "tier-gold"]));
    expect((await api("GET", `/api/v1/users/${randomUUID()}/badges`)).status).toBe(404);
  });

  it("granted once under concurrent reads and backfills; a repeatable badge counts each credit", async () => {
    const f = await fan();
    await credit(f.id, 25, "arena_check_in");
    await credit(f.id, 25, "arena_check_in");
    const results = await Promise.all([badgesOf(f), badgesOf(f), badgesOf(f, f), badgesCron(), badgesCron()]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await grantsOf(f.id, "first-check-in")).toBe(1);
    expect(await grantsOf(f.id, "arena-regular")).toBe(2);
    const mine = await badgesOf(f);
    expect(slugsOf(mine)).toEqual(["arena-regular", "first-check-in"]);
    expect(mine.body.data.badges.find((b: { badge: { slug: string } }) => b.badge.slug === "arena-regular").count).toBe(2);
  });

  it("the backfill is idempotent: run twice concurrently, then again, it grants nothing twice", async () => {
    const f = await fan();
    await credit(f.id, 15, "game_rating");
    await db().$executeRaw`INSERT INTO user_streaks (user_id, current, longest, last_day, updated_at) VALUES (${f.id}::uuid, 7, 7, CURRENT_DATE, now())`;
    const [a, b] = await Promise.all([badgesCron(), badgesCron()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const count = () => db().badgeGrant.count({ where: { userId: f.id } });
    expect(await count()).toBe(2);
    expect((await badgesCron()).status).toBe(200);
    expect(await count()).toBe(2);
    expect(slugsOf(await badgesOf(f))).toEqual(["first-rating", "streak-7"]);
  });

  it("a tier badge once the season's peak reaches the tier", async () => {
    const f = await fan();
    await credit(f.id, 2000);
    expect((await badgesCron()).status).toBe(200);
    expect(await grantsOf(f.id, "tier-gold")).toBe(1);
  });

  it("a reversed credit takes its badge away (when the badge says so) and never grants it again", async () => {
    const f = await fan();
    const c = await credit(f.id, 25, "arena_check_in");
    expect(slugsOf(await badgesOf(f))).toEqual(["arena-regular", "first-check-in"]);
    await reverse(f.id, c!.entry.id, 25);
    expect(await grantsOf(f.id, "first-check-in")).toBe(0);
    expect(await grantsOf(f.id, "arena-regular")).toBe(0);
    expect((await badgesCron()).status).toBe(200);
    expect(slugsOf(await badgesOf(f))).toEqual([]);

    // A badge that does not revoke stays.
    const s = await fan();
    await db().$executeRaw`INSERT INTO user_streaks (user_id, current, longest, last_day, updated_at) VALUES (${s.id}::uuid, 7, 7, CURRENT_DATE, now())`;
    const q = await credit(s.id, 10, "test_grant");
    expect(slugsOf(await badgesOf(s))).toEqual(["streak-7"]);
    await reverse(s.id, q!.entry.id, 10);
    expect(slugsOf(await badgesOf(s))).toEqual(["streak-7"]);
  });

  it("PUT /api/v1/me/badges/featured: held badges only, in order, at most 3", async () => {
    const f = await fan();
    await credit(f.id, 25, "arena_check_in");
    await credit(f.id, 15, "game_rating");
    const held = await badgesOf(f);
    const id = (slug: string) => held.body.data.badges.find((b: { badge: { slug: string } }) => b.badge.slug === slug).badge.id as string;
    const order = [id("first-rating"), id("arena-regular"), id("first-check-in")];
    const put = await api("PUT", "/api/v1/me/badges/featured", { headers: f.auth, json: { badgeIds: order } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.data.featured.map((b: { badge: { id: string } }) => b.badge.id)).toEqual(order);
    expect((await badgesOf(f)).body.data.featured.map((b: { featuredPosition: number }) => b.featuredPosition)).toEqual([1, 2, 3]);

    const catalogue = (await api("GET", "/api/v1/badges")).body.data.badges as { id: string; slug: string }[];
    const notHeld = catalogue.find((b) => b.slug === "tier-gold")!.id;
    const refused = await api("PUT", "/api/v1/me/badges/featured", { headers: f.auth, json: { badgeIds: [order[0], notHeld] } });
    expect(refused.status).toBe(409);
    expect(errorOf(refused)).toMatchObject({ code: "BADGE_NOT_OWNED", details: [{ path: "body.badgeIds.1", message: "Not held" }] });
    const tooMany = await api("PUT", "/api/v1/me/badges/featured", { headers: f.auth, json: { badgeIds: [...order, notHeld] } });
    expect(tooMany.status).toBe(400);
    const twice = await api("PUT", "/api/v1/me/badges/featured", { headers: f.auth, json: { badgeIds: [order[0], order[0]] } });
    expect(twice.status).toBe(400);
    expect((await badgesOf(f)).body.data.featured).toHaveLength(3);
    const none = await api("PUT", "/api/v1/me/badges/featured", { headers: f.auth, json: { badgeIds: [] } });
    expect(none.body.data.featured).toEqual([]);
  });

  it("a private profile's badges only to its followers and itself; a block hides them", async () => {
    const owner = await fan();
    const stranger = await fan();
    await credit(owner.id, 25, "arena_check_in");
    expect((await api("PATCH", "/api/user/settings", { headers: owner.auth, json: { privateProfile: true } })).status).toBe(200);
    const hidden = await badgesOf(owner, stranger);
    expect(hidden.status).toBe(403);
    expect(errorOf(hidden).code).toBe("PROFILE_PRIVATE");
    expect((await badgesOf(owner)).status).toBe(403);
    expect((await badgesOf(owner, owner)).status).toBe(200);

    const open = await fan();
    expect((await badgesOf(open, stranger)).status).toBe(200);
    expect((await api("POST", "/api/user/blocks", { headers: open.auth, json: { blockedUserId: stranger.id } })).status).toBeLessThan(300);
    expect((await badgesOf(open, stranger)).status).toBe(404);
  });

  it('"I was there": a verified check-in at a game gets a keepsake numbered in arrival order, once under concurrent runs', async () => {
    const gameId = await matchday("tm_irf");
    const fans = [await fan(), await fan(), await fan()];
    const checkIn = (f: Fan, at: Date) =>
      db().$executeRaw`INSERT INTO arena_check_ins (id, user_id, team_id, game_id, day, created_at)
                       VALUES (${randomUUID()}::uuid, ${f.id}::uuid, 'tm_irf', ${gameId}, CURRENT_DATE, ${at})`;
    // They arrive in the order 2, 0, 1.
    const arrival = [fans[2]!, fans[0]!, fans[1]!];
    const t0 = Date.now() - 600_000;
    for (const [i, f] of arrival.entries()) await checkIn(f, new Date(t0 + i * 1000));

    const runs = await Promise.all([badgesCron(), badgesCron(), badgesOf(fans[0]!), badgesOf(fans[1]!), badgesOf(fans[2]!)]);
    expect(runs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const rows = await db().arenaKeepsake.findMany({ where: { gameId }, orderBy: { serial: "asc" } });
    expect(rows.map((k) => [k.userId, k.serial])).toEqual(arrival.map((f, i) => [f.id, i + 1]));

    const first = (await badgesOf(arrival[0]!)).body.data.keepsakes;
    expect(first).toEqual([expect.objectContaining({ gameId, serial: 1, title: expect.stringContaining("I was there") })]);

    // A later arrival is next; running again numbers nothing twice.
    const late = await fan();
    await checkIn(late, new Date());
    expect((await badgesOf(late)).body.data.keepsakes).toEqual([expect.objectContaining({ gameId, serial: 4 })]);
    expect((await badgesCron()).status).toBe(200);
    expect(await db().arenaKeepsake.count({ where: { gameId } })).toBe(4);

    // An erasure deletes the fan's check-ins, and with them their keepsakes: serial 4 is never given again.
    await db().$executeRaw`DELETE FROM arena_check_ins WHERE user_id = ${late.id}::uuid`;
    expect(await db().arenaKeepsake.count({ where: { gameId } })).toBe(3);
    const after = await fan();
    await checkIn(after, new Date());
    expect((await badgesOf(after)).body.data.keepsakes).toEqual([expect.objectContaining({ gameId, serial: 5 })]);
  });
});
