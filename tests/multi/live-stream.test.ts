import { createHmac, randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { openEventStream } from "../helpers";
import { db, on } from "./helpers";

// A game's live stream held on one instance hears an event the provider posts through the other, and a client
// resuming on the other instance with Last-Event-ID gets what it missed: the live change feed lives in Redis.

const { webhookSecret } = inject("fixtures").live as { webhookSecret: string };

describe("live game stream across instances", () => {
  it("a goal posted to instance A reaches a stream on instance B; a resume on A replays it", async () => {
    const key = randomUUID().slice(0, 8);
    const archivedAt = new Date();
    const [leagueId, home, away, gameId] = [`lg_mlive_${key}`, `tm_mlh_${key}`, `tm_mla_${key}`, `gm_mlive_${key}`];
    await db().league.create({ data: { id: leagueId, slug: `mlive-${key}`, name: `Multi live ${key}`, sport: "football", archivedAt } });
    await db().team.createMany({
      data: [
        { id: home, slug: `mlh-${key}`, name: `Home ${key}`, leagueId, archivedAt },
        { id: away, slug: `mla-${key}`, name: `Away ${key}`, leagueId, archivedAt },
      ],
    });
    await db().game.create({ data: { id: gameId, leagueId, homeTeamId: home, awayTeamId: away, startsAt: new Date(), status: "live" } });

    const stream = await openEventStream(`/api/events/${gameId}/stream`, { base: on(1).base });
    let snapshotId: string;
    try {
      snapshotId = (await stream.next((e) => e.event === "snapshot")).id!;
      const body = JSON.stringify({ events: [{ id: `ev_mlive_${key}`, gameId, seq: 1, type: "goal", minute: 9, teamId: home }] });
      const t = Math.floor(Date.now() / 1000);
      const signature = `t=${t},v1=${createHmac("sha256", webhookSecret).update(`${t}.${body}`).digest("hex")}`;
      const posted = await on(0).api("POST", "/api/webhooks/live-events", { body, headers: { "content-type": "application/json", "x-signature": signature } });
      expect(posted.status).toBe(200);
      expect(posted.body.data.applied).toBe(1);
      const goal = await stream.next((e) => e.event === "timeline");
      expect(goal.data.event).toMatchObject({ id: `ev_mlive_${key}`, type: "goal", teamId: home });
      expect((await stream.next((e) => e.event === "score")).data.score).toEqual({ home: 1, away: 0 });
    } finally {
      stream.close();
    }
    const resumed = await openEventStream(`/api/events/${gameId}/stream`, { base: on(0).base, headers: { "last-event-id": snapshotId } });
    try {
      expect((await resumed.next((e) => e.event === "timeline")).data.event.id).toBe(`ev_mlive_${key}`);
    } finally {
      resumed.close();
    }
  });
});
