import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseUrls, concurrently, db, errorOf, newUser, on, userIdOf } from "./helpers";

// Caps and one-time rules are enforced by PostgreSQL (row locks, unique claims), not by anything an instance holds:
// racers split over both instances (separate processes, separate pools) still see one rule.

const STARS = "/api/me/starred-teams";
const star = (teamId: string) => `${STARS}/${encodeURIComponent(teamId)}`;
const CAP = 50;
const EARN = "/api/v1/engage/rep/earn";
const LEDGER = "/api/v1/engage/rep/ledger";
const key = () => `k-${randomUUID()}`;

/** A new user whose row exists (created through the second instance, so both have seen requests from them). */
async function signedUp() {
  const user = newUser();
  expect((await on(1).api("GET", STARS, { headers: user.auth })).status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

describe("the starred-teams cap across instances", () => {
  it("100 concurrent PUTs of distinct ids, half on each instance: exactly 50 starred, 50 refused", async () => {
    const { auth, userId } = await signedUp();
    const results = await concurrently(100, (i) => ({ method: "PUT", path: star(`multi_${i}`), headers: auth, json: { name: `Multi ${i}` } }));
    expect(results.filter((r) => r.instance === 0)).toHaveLength(50);
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(CAP);
    expect(refused).toHaveLength(100 - CAP);
    for (const r of refused) expect(errorOf(r).code).toBe("STARRED_TEAMS_LIMIT");
    const starred = await db().starredTeam.findMany({ where: { userId }, select: { teamId: true } });
    expect(starred.map((s) => s.teamId).sort()).toEqual(ok.map((r) => r.body.team.id).sort());
    // Both instances list the same 50.
    for (let i = 0; i < baseUrls.length; i++) {
      const list = await on(i).api("GET", STARS, { headers: auth });
      expect(list.body.data.teams).toHaveLength(CAP);
    }
  });

  it("merges on one instance racing PUTs on the other never pass the cap", async () => {
    const { auth, userId } = await signedUp();
    const [merges, puts] = await Promise.all([
      Promise.all(
        Array.from({ length: 2 }, (_, k) =>
          on(0).api("POST", STARS, { headers: auth, json: { teams: Array.from({ length: 20 }, (_, i) => ({ id: `merge${k}_${i}` })) } }),
        ),
      ),
      Promise.all(Array.from({ length: 30 }, (_, i) => on(1).api("PUT", star(`put_${i}`), { headers: auth }))),
    ]);
    for (const m of merges) expect(m.status).toBe(200);
    const added = merges.reduce((n, m) => n + m.body.added, 0);
    const putOk = puts.filter((r) => r.status === 200).length;
    expect(puts.filter((r) => r.status === 409 && errorOf(r).code === "STARRED_TEAMS_LIMIT")).toHaveLength(30 - putOk);
    expect(added + putOk).toBe(CAP);
    expect(await db().starredTeam.count({ where: { userId } })).toBe(CAP);
  });
});

describe("an idempotent earn across instances", () => {
  const balanceOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);

  it("50 concurrent earns with one Idempotency key, half on each instance: one ledger entry, one balance increase", async () => {
    const { auth, userId } = await signedUp();
    const before = await balanceOf(userId);
    const idempotencyKey = key();
    const results = await concurrently(50, () => ({ method: "POST", path: EARN, headers: auth, json: { earnKind: "daily_visit", idempotencyKey } }));
    for (const r of results) expect(r.status, `instance ${r.instance}`).toBe(200);
    expect(new Set(results.map((r) => r.body.data.entry.id)).size).toBe(1);
    expect(results.filter((r) => r.body.data.replayed === false)).toHaveLength(1);
    expect(results.filter((r) => r.body.data.replayed === true)).toHaveLength(49);
    const amount = results[0]!.body.data.entry.amount as number;
    expect(amount).toBeGreaterThan(0);
    for (const r of results) expect(r.body.data.balance).toBe(before + amount);
    expect(await balanceOf(userId)).toBe(before + amount);
    expect(await db().repEntry.count({ where: { userId } })).toBe(1);
    // Either instance's ledger shows the one entry.
    for (let i = 0; i < baseUrls.length; i++) {
      const ledger = await on(i).api("GET", LEDGER, { headers: auth });
      expect(ledger.body.entries.map((e: { id: string }) => e.id)).toEqual([results[0]!.body.data.entry.id]);
    }
    // The key replayed later on either instance answers the same entry and writes nothing.
    for (let i = 0; i < baseUrls.length; i++) {
      const again = await on(i).api("POST", EARN, { headers: auth, json: { earnKind: "daily_visit", idempotencyKey } });
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject({ replayed: true, entry: { id: results[0]!.body.data.entry.id } });
    }
    expect(await db().repEntry.count({ where: { userId } })).toBe(1);
  });

  it("a brand-new user's first requests racing on both instances create one user and grant once", async () => {
    const { auth, sub } = newUser();
    const idempotencyKey = key();
    const results = await concurrently(20, () => ({ method: "POST", path: EARN, headers: auth, json: { earnKind: "daily_visit", idempotencyKey } }));
    for (const r of results) expect(r.status, `instance ${r.instance}`).toBe(200);
    expect(new Set(results.map((r) => r.body.data.entry.id)).size).toBe(1);
    expect(results.filter((r) => r.body.data.replayed === false)).toHaveLength(1);
    expect(await db().user.count({ where: { externalId: sub } })).toBe(1);
    expect(await db().repEntry.count({ where: { userId: await userIdOf(sub) } })).toBe(1);
  });

  it("concurrent earns of a daily kind with distinct keys on both instances grant once", async () => {
    const { auth, userId } = await signedUp();
    const results = await concurrently(20, () => ({ method: "POST", path: EARN, headers: auth, json: { earnKind: "daily_visit", idempotencyKey: key() } }));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(errorOf(r).code).toBe("ALREADY_EARNED");
    expect(await db().repEntry.count({ where: { userId } })).toBe(1);
  });
});
