// Games

import { fnv, SEED_SEASON, type SeedGame } from "./types";
import { TEAMS } from "./teams";

/** [home key, away key, startsAt (UTC), homeScore, awayScore, overtime?] — scores null for scheduled games. */
type GameRow = [string, string, string, number | null, number | null, boolean?];

const VENUE_SUFFIX: Record<string, string> = {
  lg_nfl: "Stadium",
  lg_nba: "Arena",
  lg_nhl: "Ice Centre",
  lg_psl: "Park",
};

const LEAGUE_GAMES: ReadonlyArray<{ leagueId: string; code: string; rows: GameRow[] }> = [
  {
    leagueId: "lg_nfl",
    code: "nfl",
    rows: [
      // Finals (Sept–Nov 2026). hch–gfg meet three times (001, 005, 010) and again in 013.
      ["hch", "gfg", "2026-09-13T17:00:00.000Z", 27, 20],
      ["rmr", "sls", "2026-09-13T20:25:00.000Z", 24, 17],
      ["irf", "kpk", "2026-09-20T17:00:00.000Z", 13, 16],
      ["crl", "spf", "2026-09-20T20:25:00.000Z", 31, 28, true],
      ["gfg", "hch", "2026-09-27T17:00:00.000Z", 21, 24],
      ["bsb", "tbw", "2026-10-04T17:00:00.000Z", 10, 20],
      ["hch", "rmr", "2026-10-11T20:25:00.000Z", 17, 14],
      ["pap", "kpk", "2026-10-18T17:00:00.000Z", 20, 23],
      ["sls", "irf", "2026-10-25T17:00:00.000Z", 35, 21],
      ["hch", "gfg", "2026-11-08T18:00:00.000Z", 14, 17],
      ["tbw", "crl", "2026-11-15T21:05:00.000Z", 24, 21],
      ["spf", "bsb", "2026-11-22T18:00:00.000Z", 30, 27, true],
      // Upcoming (Jan–Feb 2027).
      ["gfg", "hch", "2027-01-10T21:30:00.000Z", null, null],
      ["rmr", "kpk", "2027-01-17T18:00:00.000Z", null, null],
      ["crl", "sls", "2027-01-24T21:30:00.000Z", null, null],
      ["hch", "irf", "2027-02-07T23:30:00.000Z", null, null],
    ],
  },
  {
    leagueId: "lg_nba",
    code: "nba",
    rows: [
      // lsl–rvr meet three times (001, 004, 009) and again in 012.
      ["lsl", "rvr", "2026-10-21T23:30:00.000Z", 112, 104],
      ["ccc", "pct", "2026-10-22T02:00:00.000Z", 98, 101],
      ["ngn", "bhb", "2026-10-24T23:00:00.000Z", 120, 95],
      ["rvr", "lsl", "2026-10-28T23:30:00.000Z", 109, 115, true],
      ["hdh", "smp", "2026-10-30T02:00:00.000Z", 99, 87],
      ["pct", "ccc", "2026-11-04T03:00:00.000Z", 117, 121],
      ["bhb", "lsl", "2026-11-07T23:00:00.000Z", 90, 102],
      ["ccc", "ngn", "2026-11-12T02:30:00.000Z", 108, 110],
      ["lsl", "rvr", "2026-11-18T00:30:00.000Z", 96, 103],
      ["smp", "pct", "2026-11-26T03:00:00.000Z", 84, 111],
      ["ccc", "lsl", "2027-01-08T03:00:00.000Z", null, null],
      ["ngn", "hdh", "2027-01-15T00:00:00.000Z", null, null],
      ["rvr", "lsl", "2027-02-03T00:30:00.000Z", null, null],
      ["pct", "bhb", "2027-02-12T03:30:00.000Z", null, null],
    ],
  },
  {
    leagueId: "lg_nhl",
    code: "nhl",
    rows: [
      // fpb–mhm meet three times (001, 004, 008; two in overtime) and again in 011.
      ["fpb", "mhm", "2026-10-09T23:00:00.000Z", 3, 2, true],
      ["stb", "ebi", "2026-10-10T23:00:00.000Z", 4, 1],
      ["pfb", "nww", "2026-10-11T00:00:00.000Z", 2, 5],
      ["mhm", "fpb", "2026-10-17T23:00:00.000Z", 4, 3, true],
      ["gbo", "crc", "2026-10-18T02:00:00.000Z", 6, 2],
      ["ebi", "stb", "2026-10-25T23:00:00.000Z", 2, 3, true],
      ["nww", "gbo", "2026-11-06T01:00:00.000Z", 1, 4],
      ["fpb", "mhm", "2026-11-14T00:00:00.000Z", 5, 1],
      ["crc", "pfb", "2026-11-20T03:00:00.000Z", 3, 4, true],
      ["stb", "fpb", "2026-11-28T00:00:00.000Z", 2, 3],
      ["mhm", "fpb", "2027-01-09T00:00:00.000Z", null, null],
      ["gbo", "nww", "2027-01-16T03:00:00.000Z", null, null],
      ["ebi", "crc", "2027-01-30T00:00:00.000Z", null, null],
      ["pfb", "stb", "2027-02-13T01:00:00.000Z", null, null],
    ],
  },
  {
    leagueId: "lg_psl",
    code: "psl",
    rows: [
      // whu–kbf meet three times (001, 005, 009; one draw) and again in 011. Draws: 001, 003, 007.
      ["whu", "kbf", "2026-09-12T14:00:00.000Z", 1, 1],
      ["rsa", "opr", "2026-09-12T14:00:00.000Z", 2, 0],
      ["nfd", "afa", "2026-09-19T16:30:00.000Z", 0, 0],
      ["mlw", "cwt", "2026-09-26T14:00:00.000Z", 3, 1],
      ["kbf", "whu", "2026-10-03T11:30:00.000Z", 0, 2],
      ["opr", "nfd", "2026-10-17T14:00:00.000Z", 1, 3],
      ["afa", "rsa", "2026-10-24T14:00:00.000Z", 2, 2],
      ["cwt", "mlw", "2026-10-31T15:00:00.000Z", 0, 1],
      ["whu", "kbf", "2026-11-07T17:30:00.000Z", 2, 3],
      ["nfd", "whu", "2026-11-21T15:00:00.000Z", 1, 2],
      ["kbf", "whu", "2027-01-16T12:30:00.000Z", null, null],
      ["rsa", "nfd", "2027-01-23T15:00:00.000Z", null, null],
      ["opr", "mlw", "2027-02-06T15:00:00.000Z", null, null],
      ["afa", "cwt", "2027-02-20T15:00:00.000Z", null, null],
    ],
  },
];

const TEAM_CITY: Record<string, string> = Object.fromEntries(TEAMS.map((t) => [t.id, t.city]));

/** A fictional venue's position, fixed by its name: somewhere in latitude 25..50, longitude -120..-70, to 4 decimals. */
function venuePosition(venue: string) {
  const h = fnv(venue);
  return { venueLatitude: 25 + (h % 250_000) / 10_000, venueLongitude: -70 - (Math.floor(h / 250_000) % 500_000) / 10_000 };
}

export const GAMES: readonly SeedGame[] = LEAGUE_GAMES.flatMap(({ leagueId, code, rows }) =>
  rows.map(([home, away, startsAt, homeScore, awayScore, overtime = false], i): SeedGame => {
    const homeTeamId = `tm_${home}`;
    return {
      id: `gm_${code}_${String(i + 1).padStart(3, "0")}`,
      leagueId,
      season: SEED_SEASON,
      homeTeamId,
      awayTeamId: `tm_${away}`,
      startsAt,
      status: homeScore === null ? "scheduled" : "final",
      homeScore,
      awayScore,
      overtime,
      venue: `${TEAM_CITY[homeTeamId]} ${VENUE_SUFFIX[leagueId]}`,
      ...venuePosition(`${TEAM_CITY[homeTeamId]} ${VENUE_SUFFIX[leagueId]}`),
    };
  }),
);
