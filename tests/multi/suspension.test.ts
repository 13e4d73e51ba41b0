import { describe, expect, it } from "vitest";
import { db, newUser, on, USER_CACHE_TTL_MS, userIdOf } from "./helpers";

// Each instance keeps a signed-in fan's row id and full-suspension end for USER_CACHE_TTL_MS (1 s in this tier). The
// console's suspension forgets the entry in the instance that ran it; every other instance must refuse the fan within
// the TTL, never later. Suspended here in the database, so no instance is told: the case that leans on the TTL alone.

/** Slack for one answer in flight on a loaded 2-core machine; staleness itself is bounded by the TTL alone (below). */
const MARGIN_MS = 3_000;
const POLL_MS = 50;

describe("a full suspension across instances", () => {
  it("another instance refuses the fan within USER_CACHE_TTL_MS, and never serves them past it", async () => {
    const fan = newUser();
    // Instance B (1) resolves the fan: its cache entry is made before `loadedB`, so it expires by loadedB + TTL.
    const warm = await on(1).api("GET", "/api/user", { headers: fan.auth });
    const loadedB = Date.now();
    expect(warm.status, warm.text).toBe(200);

    const userId = await userIdOf(fan.sub);
    await db().$executeRaw`UPDATE users SET suspended_until = now() + interval '1 hour' WHERE id = ${userId}::uuid`;

    // Instance A (0) never resolved the fan: it refuses at once.
    const onA = await on(0).api("GET", "/api/user", { headers: fan.auth });
    expect(onA.status).toBe(403);
    expect(onA.body.error.code).toBe("ACCOUNT_SUSPENDED");

    // Instance B until its 403: every answer that still let the fan in was asked for before loadedB + TTL.
    let refusedAt = 0;
    for (;;) {
      const sent = Date.now();
      const res = await on(1).api("GET", "/api/user", { headers: fan.auth });
      if (res.status === 403) {
        expect(res.body.error.code).toBe("ACCOUNT_SUSPENDED");
        refusedAt = Date.now();
        break;
      }
      expect(res.status).toBe(200);
      expect(sent, "instance B let a suspended fan in past its cache TTL").toBeLessThan(loadedB + USER_CACHE_TTL_MS);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    expect(refusedAt - loadedB).toBeLessThan(USER_CACHE_TTL_MS + MARGIN_MS);
  });
});
