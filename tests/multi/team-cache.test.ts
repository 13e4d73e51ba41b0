import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db, on, TEAM_CACHE_TTL_MS, type Res } from "./helpers";

// Each instance keeps a team's public detail for TEAM_CACHE_TTL_MS (1 s in this tier) and nothing tells the other
// instances when a team changes: an archive must disappear from every instance's detail within the TTL, no later.
// Archiving through the console also clears the cache of the instance that ran it (forgetTeamDetails), so an
// archive made elsewhere (here: in the database) is the case that leans on the TTL alone.

const detail = (id: string) => `/api/teams/${encodeURIComponent(id)}`;
/** Slack for one answer in flight on a loaded 2-core machine; staleness itself is bounded by the TTL alone (below). */
const MARGIN_MS = 3_000;
const POLL_MS = 50;

/** A fresh live team in a seeded league, which no instance has read yet. */
async function newTeam() {
  const like = await db().team.findUniqueOrThrow({ where: { id: "tm_hch" } });
  const suffix = randomBytes(4).toString("hex");
  return db().team.create({
    data: { id: `tm_multi_${suffix}`, slug: `multi-${suffix}`, name: `Multi ${suffix}`, sport: like.sport, leagueId: like.leagueId, source: "manual" },
  });
}

describe("team detail cache across instances", () => {
  it("an archived team disappears from the other instance's detail within TEAM_CACHE_TTL_MS, not served stale past it", async () => {
    const team = await newTeam();

    // Instance B (1) reads the team: its cache entry is loaded after `sentB` and before `loadedB`, so it expires
    // somewhere in [sentB + TTL, loadedB + TTL].
    const sentB = Date.now();
    const warm = await on(1).api("GET", detail(team.id));
    const loadedB = Date.now();
    expect(warm.status).toBe(200);
    expect(warm.body.team).toMatchObject({ id: team.id, slug: team.slug });

    await db().team.update({ where: { id: team.id }, data: { archivedAt: new Date() } });

    // Instance A (0) never cached the team: it sees the archive at once (asked while B is polled, so B's first poll
    // comes as early as it can).
    const onA = on(0).api("GET", detail(team.id));

    // Instance B until its 404. Its cached answer can only be served before the entry expires, so every 200 after
    // the archive must have been asked for before loadedB + TTL: that bound needs no slack, however loaded the
    // machine. The 404 then comes with the next poll: one answer in flight plus POLL_MS, hence MARGIN_MS.
    const answers: { sent: number; received: number; status: number }[] = [];
    for (;;) {
      const sent = Date.now();
      const res = await on(1).api("GET", detail(team.id));
      const received = Date.now();
      answers.push({ sent, received, status: res.status });
      if (res.status === 404) {
        expect(res.body.error.code).toBe("NOT_FOUND");
        break;
      }
      expect(res.status).toBe(200);
      expect(sent, "instance B served the archived team past its cache TTL").toBeLessThan(loadedB + TEAM_CACHE_TTL_MS);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    expect((await onA).status).toBe(404);
    const gone = answers.at(-1)!;
    expect(gone.sent - loadedB, "instance B's 404 came late").toBeLessThanOrEqual(TEAM_CACHE_TTL_MS + MARGIN_MS);
    // The cache is real (this test would prove nothing with TTL 0): an answer B gave before the entry could have
    // expired was the stale 200.
    const early = answers.filter((a) => a.received < sentB + TEAM_CACHE_TTL_MS);
    for (const a of early) expect(a.status, "instance B did not serve from its cache within the TTL").toBe(200);

    // And it stays gone on both instances, by id and by slug.
    for (const i of [0, 1]) {
      expect((await on(i).api("GET", detail(team.id))).status).toBe(404);
      expect((await on(i).api("GET", detail(team.slug))).status).toBe(404);
    }
  });

  it("a restored team comes back on the other instance within the TTL", async () => {
    const team = await newTeam();
    await db().team.update({ where: { id: team.id }, data: { archivedAt: new Date() } });
    // B caches the 404 (a missing team is cached like a found one).
    expect((await on(1).api("GET", detail(team.id))).status).toBe(404);
    const loadedB = Date.now();
    await db().team.update({ where: { id: team.id }, data: { archivedAt: null } });
    expect((await on(0).api("GET", detail(team.id))).status).toBe(200);
    // B may answer its cached 404 until the entry expires; a request asked for after that must see the team.
    let res: Res;
    let sent: number;
    do {
      await new Promise((r) => setTimeout(r, POLL_MS));
      sent = Date.now();
      res = await on(1).api("GET", detail(team.id));
    } while (res.status === 404 && sent < loadedB + TEAM_CACHE_TTL_MS);
    expect(res.status, "instance B still hid the restored team past its cache TTL").toBe(200);
    expect(res.body.team.id).toBe(team.id);
  });
});
