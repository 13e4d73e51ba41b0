import { db } from "../helpers";

// What the leagues tests share (leagues.test.ts, leagues-standings.test.ts): the leagues they add and an invalid token.
//
// Seeded facts (dev/seed/data.ts): lg_nfl football (2 conferences × 2 divisions, tm_dvs archived), lg_nba
// basketball (2 conferences), lg_nhl hockey (2 conferences × 2 divisions), lg_psl soccer (no structure; tm_cwt has
// sport ""). All games are season "2026".
//
// These tests add leagues only (no teams, no games, season "2026" or none): other files count teams, records and the
// current season, and run at the same time. Both files add the same leagues before their tests, under fixed ids (a
// run has a database of its own): the second adds nothing, so every list holds each of them once.

export const extra = {
  archived: { id: "lg_t_arch", slug: "t-arch", name: "Archived test league" },
  blank: { id: "lg_t_blank", slug: "t-blank", name: "Blank test league" },
  curling: { id: "lg_t_curl", slug: "t-curl", name: "Curling test league" },
  empty: { id: "lg_t_empty", slug: "t-empty", name: "Empty test league" },
  messy: { id: "lg_t_messy", slug: "t-messy", name: "Messy test league" },
};

export async function addExtraLeagues() {
  await db().league.createMany({
    data: [
      { ...extra.archived, sport: "soccer", season: "2026", displayOrder: 0, archivedAt: new Date() },
      { ...extra.blank, sport: "", season: null, displayOrder: 101 },
      { ...extra.curling, sport: "Curling", season: "2026", displayOrder: 102, shortName: "CUR" },
      { ...extra.empty, sport: "soccer", season: "2026", displayOrder: 103 },
      { ...extra.messy, sport: "  HOCKEY ", season: "2026", displayOrder: 104 },
    ],
    skipDuplicates: true,
  });
}

export const invalid = { authorization: "Bearer not-a-valid-token" };
