import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openEventStream } from "../helpers";
import { db, errorOf, newUser, on } from "./helpers";

// A live leaderboard held on one instance hears a change made through the other: the change feed lives in Redis.
// The streams a caller may hold are counted in Redis too, so the cap holds across instances.

describe("leaderboard stream across instances", () => {
  it("a fan joining a team and earning Rep through instance A shows on a stream held on instance B", async () => {
    const suffix = randomBytes(4).toString("hex");
    const team = await db().team.create({ data: { id: `tm_multi_lb_${suffix}`, slug: `multi-lb-${suffix}`, name: `Multi board ${suffix}` } });
    const stream = await openEventStream(`/api/leaderboard/stream?board=team:${team.id}`, { base: on(1).base });
    try {
      expect((await stream.next((e) => e.event === "snapshot")).data.entries).toEqual([]);
      const fan = newUser();
      expect((await on(0).api("POST", `/api/teams/${team.id}/join`, { headers: fan.auth })).status).toBe(200);
      const joined = await stream.next((e) => e.event === "score");
      expect(joined.data).toMatchObject({ points: 0, rank: 1 });
      const earned = await on(0).api("POST", "/api/v1/engage/rep/earn", {
        headers: fan.auth,
        json: { earnKind: "daily_visit", idempotencyKey: `multi-${suffix}` },
      });
      expect(earned.status).toBeLessThan(300);
      const scored = await stream.next((e) => e.event === "score" && e.data.points > 0);
      expect(scored.data).toMatchObject({ fan: { id: joined.data.fan.id }, points: 5, rank: 1 });
    } finally {
      stream.close();
      await db().team.update({ where: { id: team.id }, data: { archivedAt: new Date() } });
    }
  });

  it("one user's streams are capped across instances: 3 asked on each, exactly 5 open", async () => {
    const fan = newUser();
    expect((await on(0).api("GET", "/api/user/settings", { headers: fan.auth })).status).toBe(200);
    const streams = await Promise.all(
      Array.from({ length: 6 }, (_, i) => openEventStream("/api/leaderboard/stream?board=global", { base: on(i % 2).base, headers: fan.auth })),
    );
    try {
      expect(streams.map((s) => s.res.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
      expect(Number(streams.find((s) => s.res.status === 429)!.res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      for (const instance of [0, 1]) {
        const refused = await on(instance).api("GET", "/api/leaderboard/stream?board=global", { headers: fan.auth });
        expect(refused.status).toBe(429);
        expect(errorOf(refused).code).toBe("TOO_MANY_STREAMS");
      }
    } finally {
      streams.forEach((s) => s.close());
    }
  });
});
