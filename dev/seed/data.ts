// Demo seed data: plain, typed, deterministic constants (no database access, no clocks, no randomness).
// Every row has a fixed id; dev/seed/seed.ts upserts on those ids, so re-running the seed changes nothing.
//
// Facts that tests may rely on:
// - 4 leagues: football (lg_nfl: 2 conferences × 2 divisions), basketball (lg_nba: 2 conferences, no divisions),
//   hockey (lg_nhl: 2 conferences × 2 divisions), soccer (lg_psl: no conferences or divisions).
// - 36 teams; tm_dvs ("dune-valley-scorpions") is the one archived team; tm_cwt ("clearwater-town") is the one
//   team whose sport is "" while its league (lg_psl) is "soccer"; tm_hch and tm_fpb are the two official teams;
//   tm_pap, tm_smp, tm_ebi and tm_cwt are source "manual" with no providerId.
// - tm_hch roster: 12 players; 11 active (8 available, pl_hch_09 injured, pl_hch_10 suspended,
//   pl_hch_11 unavailable) and 1 inactive (pl_hch_12).
// - Head-to-head: tm_hch vs tm_gfg met 3 times (final; tm_hch won 2, lost 1) and meet again on 2027-01-10.

import type {
  GameStatus,
  PassKind,
  PlayerAvailability,
  QuestCadence,
  QuestKind,
  QuestScope,
  QuestStepCondition,
  RepSource,
} from "../../lib/generated/prisma/enums";
import type { ConsoleProduct } from "../../lib/features/payments/console-queries";

/** createdAt/updatedAt of every seeded row, so re-runs are byte-identical. */
export const SEED_TIMESTAMP = "2026-08-01T00:00:00.000Z";
export const SEED_SEASON = "2026";

export interface SeedLeague {
  id: string;
  slug: string;
  name: string;
  shortName: string;
  sport: string;
  season: string;
  logo: string;
  primaryColor: string;
  secondaryColor: string;
  displayOrder: number;
  source: string;
  providerId: string | null;
}

export interface SeedConference {
  id: string;
  leagueId: string;
  name: string;
}

export interface SeedDivision {
  id: string;
  leagueId: string;
  conferenceId: string | null;
  name: string;
}

export interface SeedTeam {
  id: string;
  slug: string;
  name: string;
  shortName: string;
  abbreviation: string;
  city: string;
  sport: string;
  leagueId: string;
  conferenceId: string | null;
  divisionId: string | null;
  logo: string;
  primaryColor: string;
  secondaryColor: string;
  /** Calendar date, YYYY-MM-DD. */
  foundedDate: string;
  rank: number;
  fanCount: number;
  isOfficial: boolean;
  source: "provider" | "manual";
  providerId: string | null;
  /** ISO timestamp, or null when the team is live. */
  archivedAt: string | null;
}

export interface SeedPlayer {
  id: string;
  teamId: string;
  name: string;
  jersey: string;
  position: string;
  role: string;
  duty: string;
  photo: string | null;
  availability: PlayerAvailability;
  active: boolean;
}

export interface SeedGame {
  id: string;
  leagueId: string;
  season: string;
  homeTeamId: string;
  awayTeamId: string;
  /** ISO timestamp (UTC). */
  startsAt: string;
  status: GameStatus;
  homeScore: number | null;
  awayScore: number | null;
  overtime: boolean;
  venue: string;
  /** The venue's made-up position (the cities are fictional): arena check-ins there must be within its radius. */
  venueLatitude: number;
  venueLongitude: number;
}

export interface SeedQuest {
  id: string;
  slug: string;
  title: string;
  description: string;
  teamId: string | null;
  repReward: number;
  isDaily: boolean;
  active: boolean;
  kind: QuestKind;
  scope: QuestScope;
  cadence: QuestCadence;
  passId: string | null;
  quizLength: number | null;
  quizSeconds: number | null;
  repSource: RepSource;
  /** ISO timestamp, or null while the quest is offered. */
  retiredAt: string | null;
}

export interface SeedQuestStep {
  id: string;
  questId: string;
  position: number;
  title: string;
  condition: QuestStepCondition | null;
}

export interface SeedQuizQuestion {
  id: string;
  questId: string;
  prompt: string;
  choices: string[];
  answerIndex: number;
  active: boolean;
}

export interface SeedPass {
  id: string;
  slug: string;
  name: string;
  kind: PassKind;
  gameId: string | null;
}

export interface SeedReward {
  id: string;
  slug: string;
  title: string;
  description: string;
  costRep: number;
  /** null = unlimited. */
  stock: number | null;
  active: boolean;
  /** redeem: bought with Rep; milestone: claimed free, once, when the milestone is reached (costRep 0). */
  kind: "redeem" | "milestone";
  milestone: "rep_earned" | "quests_completed" | "streak_days" | null;
  milestoneValue: number | null;
  /** Redemptions per user; null = no limit. */
  perUserLimit: number | null;
}

const CDN = "https://cdn.example.com";

// ---------------------------------------------------------------------------------------------------------------
// Leagues, conferences, divisions

export const LEAGUES: readonly SeedLeague[] = [
  {
    id: "lg_nfl",
    slug: "nfl",
    name: "National Football League",
    shortName: "NFL",
    sport: "football",
    season: SEED_SEASON,
    logo: `${CDN}/leagues/nfl.png`,
    primaryColor: "#013369",
    secondaryColor: "#D50A0A",
    displayOrder: 1,
    source: "provider",
    providerId: "prov_lg_1",
  },
  {
    id: "lg_nba",
    slug: "nba",
    name: "National Basketball Association",
    shortName: "NBA",
    sport: "basketball",
    season: SEED_SEASON,
    logo: `${CDN}/leagues/nba.png`,
    primaryColor: "#1D428A",
    secondaryColor: "#C8102E",
    displayOrder: 2,
    source: "provider",
    providerId: "prov_lg_2",
  },
  {
    id: "lg_nhl",
    slug: "nhl",
    name: "National Hockey League",
    shortName: "NHL",
    sport: "hockey",
    season: SEED_SEASON,
    logo: `${CDN}/leagues/nhl.png`,
    primaryColor: "#000000",
    secondaryColor: "#A2AAAD",
    displayOrder: 3,
    source: "provider",
    providerId: "prov_lg_3",
  },
  {
    id: "lg_psl",
    slug: "psl",
    name: "Premier Soccer League",
    shortName: "PSL",
    sport: "soccer",
    season: SEED_SEASON,
    logo: `${CDN}/leagues/psl.png`,
    primaryColor: "#3D195B",
    secondaryColor: "#00FF85",
    displayOrder: 4,
    source: "provider",
    providerId: "prov_lg_4",
  },
];

export const CONFERENCES: readonly SeedConference[] = [
  { id: "conf_nfl_afc", leagueId: "lg_nfl", name: "American Football Conference" },
  { id: "conf_nfl_nfc", leagueId: "lg_nfl", name: "National Football Conference" },
  { id: "conf_nba_east", leagueId: "lg_nba", name: "Eastern Conference" },
  { id: "conf_nba_west", leagueId: "lg_nba", name: "Western Conference" },
  { id: "conf_nhl_east", leagueId: "lg_nhl", name: "Eastern Conference" },
  { id: "conf_nhl_west", leagueId: "lg_nhl", name: "Western Conference" },
];

export const DIVISIONS: readonly SeedDivision[] = [
  { id: "div_nfl_afc_east", leagueId: "lg_nfl", conferenceId: "conf_nfl_afc", name: "AFC East" },
  { id: "div_nfl_afc_west", leagueId: "lg_nfl", conferenceId: "conf_nfl_afc", name: "AFC West" },
  { id: "div_nfl_nfc_east", leagueId: "lg_nfl", conferenceId: "conf_nfl_nfc", name: "NFC East" },
  { id: "div_nfl_nfc_west", leagueId: "lg_nfl", conferenceId: "conf_nfl_nfc", name: "NFC West" },
  { id: "div_nhl_east_atlantic", leagueId: "lg_nhl", conferenceId: "conf_nhl_east", name: "Atlantic Division" },
  { id: "div_nhl_east_metro", leagueId: "lg_nhl", conferenceId: "conf_nhl_east", name: "Metropolitan Division" },
  { id: "div_nhl_west_central", leagueId: "lg_nhl", conferenceId: "conf_nhl_west", name: "Central Division" },
  { id: "div_nhl_west_pacific", leagueId: "lg_nhl", conferenceId: "conf_nhl_west", name: "Pacific Division" },
];

// ---------------------------------------------------------------------------------------------------------------
// Teams

/** Compact team row: key, city, mascot (name = `${city} ${mascot}` unless `name` is given), colours, founded, fans. */
interface TeamRow {
  key: string; // lower-case abbreviation; id = tm_<key>, player ids = pl_<key>_<nn>
  city: string;
  mascot: string;
  name?: string;
  conf: string | null;
  div: string | null;
  colors: [string, string];
  founded: string;
  fans: number;
  official?: boolean;
  manual?: boolean;
  archivedAt?: string;
  sport?: string; // overrides the league's sport (used once for the "" case)
}

const LEAGUE_TEAMS: ReadonlyArray<{ leagueId: string; prefix: number; rows: TeamRow[] }> = [
  {
    leagueId: "lg_nfl",
    prefix: 100,
    rows: [
      {
        key: "hch",
        city: "Harbor City",
        mascot: "Hawks",
        conf: "conf_nfl_afc",
        div: "div_nfl_afc_east",
        colors: ["#0B2265", "#A5ACAF"],
        founded: "1960-08-14",
        fans: 184_250,
        official: true,
      },
      {
        key: "gfg",
        city: "Granite Falls",
        mascot: "Grizzlies",
        conf: "conf_nfl_afc",
        div: "div_nfl_afc_east",
        colors: ["#4B3621", "#F2A900"],
        founded: "1961-05-02",
        fans: 142_880,
      },
      {
        key: "pap",
        city: "Port Avalon",
        mascot: "Pilots",
        conf: "conf_nfl_afc",
        div: "div_nfl_afc_east",
        colors: ["#00338D", "#C60C30"],
        founded: "1966-09-10",
        fans: 61_420,
        manual: true,
      },
      {
        key: "rmr",
        city: "Red Mesa",
        mascot: "Rattlers",
        conf: "conf_nfl_afc",
        div: "div_nfl_afc_west",
        colors: ["#A71930", "#000000"],
        founded: "1960-01-26",
        fans: 121_905,
      },
      {
        key: "sls",
        city: "Silver Lake",
        mascot: "Stallions",
        conf: "conf_nfl_afc",
        div: "div_nfl_afc_west",
        colors: ["#C0C0C0", "#002244"],
        founded: "1970-03-19",
        fans: 98_310,
      },
      {
        key: "dvs",
        city: "Dune Valley",
        mascot: "Scorpions",
        conf: "conf_nfl_afc",
        div: "div_nfl_afc_west",
        colors: ["#D9A441", "#3B2A1A"],
        founded: "1976-07-04",
        fans: 12_004,
        archivedAt: "2026-06-30T00:00:00.000Z",
      },
      {
        key: "irf",
        city: "Ironbridge",
        mascot: "Foundrymen",
        conf: "conf_nfl_nfc",
        div: "div_nfl_nfc_east",
        colors: ["#101820", "#FFB612"],
        founded: "1933-07-08",
        fans: 156_700,
      },
      {
        key: "kpk",
        city: "Kingsport",
        mascot: "Knights",
        conf: "conf_nfl_nfc",
        div: "div_nfl_nfc_east",
        colors: ["#4F2683", "#FFC62F"],
        founded: "1961-01-28",
        fans: 88_145,
      },
      {
        key: "bsb",
        city: "Bay Shore",
        mascot: "Breakers",
        conf: "conf_nfl_nfc",
        div: "div_nfl_nfc_east",
        colors: ["#008E97", "#FC4C02"],
        founded: "1966-12-16",
        fans: 73_560,
      },
      {
        key: "crl",
        city: "Cedar Ridge",
        mascot: "Lumberjacks",
        conf: "conf_nfl_nfc",
        div: "div_nfl_nfc_west",
        colors: ["#203731", "#FFB612"],
        founded: "1919-08-11",
        fans: 133_020,
      },
      {
        key: "spf",
        city: "Sunport",
        mascot: "Flares",
        conf: "conf_nfl_nfc",
        div: "div_nfl_nfc_west",
        colors: ["#FF6F00", "#1B1B1B"],
        founded: "1995-04-22",
        fans: 54_980,
      },
      {
        key: "tbw",
        city: "Timber Bay",
        mascot: "Wolves",
        conf: "conf_nfl_nfc",
        div: "div_nfl_nfc_west",
        colors: ["#2F4F4F", "#E0E0E0"],
        founded: "1976-02-09",
        fans: 67_305,
      },
    ],
  },
  {
    leagueId: "lg_nba",
    prefix: 200,
    rows: [
      {
        key: "lsl",
        city: "Lakeshore",
        mascot: "Lights",
        conf: "conf_nba_east",
        div: null,
        colors: ["#FDB927", "#552583"],
        founded: "1946-06-06",
        fans: 201_330,
      },
      {
        key: "rvr",
        city: "Riverton",
        mascot: "Rapids",
        conf: "conf_nba_east",
        div: null,
        colors: ["#006BB6", "#F58426"],
        founded: "1949-10-02",
        fans: 119_870,
      },
      {
        key: "ngn",
        city: "Northgate",
        mascot: "Nighthawks",
        conf: "conf_nba_east",
        div: null,
        colors: ["#000000", "#CE1141"],
        founded: "1967-03-30",
        fans: 77_615,
      },
      {
        key: "bhb",
        city: "Brookhaven",
        mascot: "Bolts",
        conf: "conf_nba_east",
        div: null,
        colors: ["#007A33", "#BA9653"],
        founded: "1980-11-12",
        fans: 45_290,
      },
      {
        key: "ccc",
        city: "Copper Canyon",
        mascot: "Coyotes",
        conf: "conf_nba_west",
        div: null,
        colors: ["#B87333", "#1D1160"],
        founded: "1968-01-22",
        fans: 109_440,
      },
      { key: "pct", city: "Pacifica", mascot: "Tides", conf: "conf_nba_west", div: null, colors: ["#1D428A", "#FFC72C"], founded: "1971-09-15", fans: 131_005 },
      {
        key: "hdh",
        city: "High Desert",
        mascot: "Heat",
        conf: "conf_nba_west",
        div: null,
        colors: ["#98002E", "#F9A01B"],
        founded: "1988-04-20",
        fans: 58_770,
      },
      {
        key: "smp",
        city: "Summit",
        mascot: "Peaks",
        conf: "conf_nba_west",
        div: null,
        colors: ["#0E2240", "#FEC524"],
        founded: "1995-08-01",
        fans: 23_115,
        manual: true,
      },
    ],
  },
  {
    leagueId: "lg_nhl",
    prefix: 300,
    rows: [
      {
        key: "fpb",
        city: "Frostport",
        mascot: "Polar Bears",
        conf: "conf_nhl_east",
        div: "div_nhl_east_atlantic",
        colors: ["#FFFFFF", "#041E42"],
        founded: "1924-11-01",
        fans: 97_850,
        official: true,
      },
      {
        key: "mhm",
        city: "Maple Harbor",
        mascot: "Moose",
        conf: "conf_nhl_east",
        div: "div_nhl_east_atlantic",
        colors: ["#00205B", "#E4E5E6"],
        founded: "1917-12-19",
        fans: 112_400,
      },
      {
        key: "stb",
        city: "Steelton",
        mascot: "Blades",
        conf: "conf_nhl_east",
        div: "div_nhl_east_metro",
        colors: ["#111111", "#FCB514"],
        founded: "1967-06-05",
        fans: 64_230,
      },
      {
        key: "ebi",
        city: "Eastbrook",
        mascot: "Icebreakers",
        conf: "conf_nhl_east",
        div: "div_nhl_east_metro",
        colors: ["#006847", "#A2AAAD"],
        founded: "1992-05-18",
        fans: 19_880,
        manual: true,
      },
      {
        key: "pfb",
        city: "Prairie Falls",
        mascot: "Blizzard",
        conf: "conf_nhl_west",
        div: "div_nhl_west_central",
        colors: ["#6CACE4", "#FFFFFF"],
        founded: "1972-02-14",
        fans: 51_675,
      },
      {
        key: "nww",
        city: "Northwind",
        mascot: "Wolverines",
        conf: "conf_nhl_west",
        div: "div_nhl_west_central",
        colors: ["#5C2D91", "#F1BE48"],
        founded: "1979-10-10",
        fans: 43_905,
      },
      {
        key: "gbo",
        city: "Glacier Bay",
        mascot: "Orcas",
        conf: "conf_nhl_west",
        div: "div_nhl_west_pacific",
        colors: ["#001628", "#99D9D9"],
        founded: "2000-09-29",
        fans: 72_140,
      },
      {
        key: "crc",
        city: "Coastal Range",
        mascot: "Condors",
        conf: "conf_nhl_west",
        div: "div_nhl_west_pacific",
        colors: ["#F47A38", "#000000"],
        founded: "1993-03-01",
        fans: 38_560,
      },
    ],
  },
  {
    leagueId: "lg_psl",
    prefix: 400,
    rows: [
      { key: "whu", city: "Westhaven", mascot: "United", conf: null, div: null, colors: ["#DA291C", "#FBE122"], founded: "1878-03-05", fans: 254_600 },
      { key: "kbf", city: "Kingsbridge", mascot: "FC", conf: null, div: null, colors: ["#034694", "#FFFFFF"], founded: "1905-03-10", fans: 189_320 },
      { key: "rsa", city: "Riverside", mascot: "Athletic", conf: null, div: null, colors: ["#7A263A", "#1BB1E7"], founded: "1895-06-29", fans: 96_780 },
      { key: "opr", city: "Oldport", mascot: "Rovers", conf: null, div: null, colors: ["#003090", "#FFFFFF"], founded: "1875-11-02", fans: 71_045 },
      { key: "nfd", city: "Northfield", mascot: "City", conf: null, div: null, colors: ["#6CABDD", "#1C2C5B"], founded: "1880-04-16", fans: 163_990 },
      { key: "afa", city: "Ashford", mascot: "Albion", conf: null, div: null, colors: ["#0057B8", "#FFCD00"], founded: "1901-06-24", fans: 58_215 },
      { key: "mlw", city: "Marlow", mascot: "Wanderers", conf: null, div: null, colors: ["#FDB913", "#231F20"], founded: "1877-08-10", fans: 49_660 },
      // Entered by hand without a sport: exercises the "" → "other" normalisation while its league is soccer.
      {
        key: "cwt",
        city: "Clearwater",
        mascot: "Town",
        conf: null,
        div: null,
        colors: ["#0E63AD", "#FFFFFF"],
        founded: "1884-05-07",
        fans: 8_730,
        manual: true,
        sport: "",
      },
    ],
  },
];

function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

const LEAGUE_SPORT: Record<string, string> = Object.fromEntries(LEAGUES.map((l) => [l.id, l.sport]));

export const TEAMS: readonly SeedTeam[] = LEAGUE_TEAMS.flatMap(({ leagueId, prefix, rows }) =>
  rows.map((r, i): SeedTeam => {
    const name = r.name ?? `${r.city} ${r.mascot}`;
    const slug = slugify(name);
    return {
      id: `tm_${r.key}`,
      slug,
      name,
      shortName: r.mascot,
      abbreviation: r.key.toUpperCase(),
      city: r.city,
      sport: r.sport ?? LEAGUE_SPORT[leagueId],
      leagueId,
      conferenceId: r.conf,
      divisionId: r.div,
      logo: `${CDN}/teams/${slug}.png`,
      primaryColor: r.colors[0],
      secondaryColor: r.colors[1],
      foundedDate: r.founded,
      rank: i + 1,
      fanCount: r.fans,
      isOfficial: r.official ?? false,
      source: r.manual ? "manual" : "provider",
      providerId: r.manual ? null : `prov_${prefix + i + 1}`,
      archivedAt: r.archivedAt ?? null,
    };
  }),
);

// ---------------------------------------------------------------------------------------------------------------
// Players

/** [name, jersey, position, role, duty, hasPhoto, availability?, active?] */
type PlayerRow = [string, string, string, string, string, boolean, PlayerAvailability?, boolean?];

const ROSTERS: Record<string, PlayerRow[]> = {
  // Harbor City Hawks (football): 12 players: 8 available, 1 injured, 1 suspended, 1 unavailable, 1 inactive.
  hch: [
    ["Marcus Bell", "12", "QB", "starter", "offense", true],
    ["Devon Okafor", "28", "RB", "starter", "offense", true],
    ["Tyler Brandt", "81", "WR", "starter", "offense", false],
    ["Andre Whitfield", "74", "OT", "starter", "offense", true],
    ["Jalen Moreau", "55", "LB", "starter", "defense", true],
    ["Chris Valdez", "24", "CB", "starter", "defense", false],
    ["Sam Kowalski", "4", "K", "starter", "special teams", true],
    ["Eli Novak", "17", "QB", "bench", "offense", false],
    ["Isaiah Grant", "91", "DE", "starter", "defense", true, "injured"],
    ["Ronnie Pike", "33", "S", "starter", "defense", false, "suspended"],
    ["Owen Hartley", "88", "TE", "bench", "offense", true, "unavailable"],
    ["Luis Carrasco", "6", "P", "bench", "special teams", false, "available", false],
  ],
  rmr: [
    ["Jordan Reyes", "9", "QB", "starter", "offense", true],
    ["Kofi Mensah", "22", "RB", "starter", "offense", true],
    ["Blake Thornton", "11", "WR", "starter", "offense", false],
    ["Nate Castillo", "52", "LB", "starter", "defense", true],
    ["Trey Lambert", "21", "CB", "starter", "defense", false, "injured"],
    ["Gavin Ross", "3", "K", "starter", "special teams", true],
    ["Dominic Shaw", "97", "DT", "bench", "defense", false],
    ["Wes Harlan", "14", "WR", "bench", "offense", false, "available", false],
  ],
  kpk: [
    ["Caleb Winters", "7", "QB", "starter", "offense", true],
    ["Mason Pruitt", "30", "RB", "starter", "offense", false],
    ["Darius Cole", "58", "LB", "starter", "defense", true],
    ["Ian Fletcher", "26", "S", "starter", "defense", true, "unavailable"],
    ["Henry Lowe", "2", "K", "starter", "special teams", false],
    ["Aaron Stokes", "85", "TE", "bench", "offense", false, "injured", false],
  ],
  // Basketball: duty = backcourt / frontcourt.
  lsl: [
    ["Jamal Porter", "3", "PG", "starter", "backcourt", true],
    ["Kevin Osei", "11", "SG", "starter", "backcourt", true],
    ["Luka Petrović", "23", "SF", "starter", "frontcourt", true],
    ["Darnell Hayes", "34", "PF", "starter", "frontcourt", false],
    ["Viktor Hale", "50", "C", "starter", "frontcourt", true],
    ["Tony Nguyen", "5", "PG", "bench", "backcourt", false],
    ["Reggie Banks", "8", "SG", "bench", "backcourt", true, "injured"],
    ["Malik Ford", "21", "PF", "bench", "frontcourt", false, "suspended"],
    ["Ethan Cruz", "14", "SF", "bench", "frontcourt", false],
    ["Paul Ambrose", "44", "C", "bench", "frontcourt", false, "available", false],
  ],
  ccc: [
    ["Dante Rivers", "1", "PG", "starter", "backcourt", true],
    ["Noah Lindqvist", "13", "SG", "starter", "backcourt", false],
    ["Aiden Brooks", "32", "SF", "starter", "frontcourt", true],
    ["Samuel Adeyemi", "42", "PF", "starter", "frontcourt", true, "injured"],
    ["Jonah West", "15", "C", "starter", "frontcourt", false],
    ["Corey Mills", "6", "G", "bench", "backcourt", false],
    ["Felix Duarte", "19", "F", "bench", "frontcourt", false, "unavailable", false],
  ],
  // Hockey: duty = forward / defense / goaltending.
  fpb: [
    ["Mikael Lindgren", "19", "C", "starter", "forward", true],
    ["Connor Doyle", "91", "LW", "starter", "forward", true],
    ["Pierre Gagnon", "27", "RW", "starter", "forward", false],
    ["Anton Volkov", "44", "D", "starter", "defense", true],
    ["Ryan McAllister", "2", "D", "starter", "defense", false],
    ["Jesse Koivu", "31", "G", "starter", "goaltending", true],
    ["Brady Olsen", "16", "C", "bench", "forward", false],
    ["Tomas Hrdina", "8", "D", "bench", "defense", false, "injured"],
    ["Liam Fortier", "35", "G", "bench", "goaltending", false],
    ["Kyle Barrett", "22", "RW", "bench", "forward", true, "suspended"],
    ["Nils Ekdahl", "5", "D", "bench", "defense", false, "available", false],
  ],
  gbo: [
    ["Evan Strand", "9", "C", "starter", "forward", true],
    ["Matt Kearney", "17", "LW", "starter", "forward", false],
    ["Oskar Berg", "6", "D", "starter", "defense", true],
    ["Cody Lachance", "30", "G", "starter", "goaltending", true],
    ["Jake Whitman", "24", "RW", "bench", "forward", false, "unavailable"],
    ["Dmitri Sokolov", "55", "D", "bench", "defense", false, "injured", false],
  ],
  // Soccer: duty = goalkeeping / defense / midfield / attack.
  whu: [
    ["Tom Ashworth", "1", "GK", "starter", "goalkeeping", true],
    ["Rafael Mendes", "2", "RB", "starter", "defense", true],
    ["Callum Price", "5", "CB", "starter", "defense", false],
    ["Kwame Asante", "6", "CB", "starter", "defense", true],
    ["Jack Pemberton", "3", "LB", "starter", "defense", false],
    ["Lucas Ferreira", "8", "CM", "starter", "midfield", true],
    ["Harry Quinn", "10", "AM", "starter", "midfield", true],
    ["Youssef Amrani", "7", "RW", "starter", "attack", true, "injured"],
    ["Dan Whitlock", "9", "ST", "starter", "attack", true],
    ["Mateo Ruiz", "11", "LW", "starter", "attack", false, "suspended"],
    ["Ollie Grant", "13", "GK", "bench", "goalkeeping", false],
    ["Ben Carver", "18", "CM", "bench", "midfield", false, "available", false],
  ],
  kbf: [
    ["Pieter de Vries", "1", "GK", "starter", "goalkeeping", true],
    ["Sean Gallagher", "4", "CB", "starter", "defense", false],
    ["Ivan Kovač", "15", "CB", "starter", "defense", true],
    ["Theo Marchetti", "8", "CM", "starter", "midfield", true],
    ["Ade Balogun", "14", "DM", "starter", "midfield", false, "unavailable"],
    ["Rhys Morgan", "7", "RW", "starter", "attack", true],
    ["Nico Albers", "9", "ST", "starter", "attack", true],
    ["Finn O'Hara", "20", "LW", "bench", "attack", false],
    ["George Tate", "23", "RB", "bench", "defense", false, "injured", false],
  ],
};

export const PLAYERS: readonly SeedPlayer[] = Object.entries(ROSTERS).flatMap(([key, rows]) =>
  rows.map(([name, jersey, position, role, duty, hasPhoto, availability = "available", active = true], i): SeedPlayer => {
    const id = `pl_${key}_${String(i + 1).padStart(2, "0")}`;
    return {
      id,
      teamId: `tm_${key}`,
      name,
      jersey,
      position,
      role,
      duty,
      photo: hasPhoto ? `${CDN}/players/${id}.png` : null,
      availability,
      active,
    };
  }),
);

// ---------------------------------------------------------------------------------------------------------------
// Games

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

// ---------------------------------------------------------------------------------------------------------------
// Quests and rewards

// Quests are data: kind (quiz, check_in, visit, multi_step), scope (global, team, pass), cadence (daily, once),
// steps (null condition: the app reports it; else the server checks it). Every live team has a daily quiz
// (q_quiz_<key>, questions generated below from the team and roster facts) and a daily arena check-in quest
// (q_checkin_<key>, repReward 0: the check-in's own Rep is its reward). q_daily_prediction is retired.

const once = { cadence: "once", isDaily: false, passId: null, quizLength: null, quizSeconds: null, retiredAt: null } as const;
const daily = { cadence: "daily", isDaily: true, passId: null, quizLength: null, quizSeconds: null, retiredAt: null } as const;

export const PASSES: readonly SeedPass[] = [
  { id: "pass_season_2026", slug: "season-pass-2026", name: "Season Pass 2026", kind: "global", gameId: null },
  { id: "pass_gm_nfl_013", slug: "hawks-at-grizzlies-2027-01-10", name: "Hawks at Grizzlies, Jan 10", kind: "event", gameId: "gm_nfl_013" },
];

const LIVE_TEAMS = TEAMS.filter((t) => t.archivedAt === null);
const teamKey = (teamId: string) => teamId.slice("tm_".length);

export const QUESTS: readonly SeedQuest[] = [
  {
    id: "q_daily_checkin",
    slug: "daily-check-in",
    title: "Daily check-in",
    description: "Open the app and check in once a day.",
    teamId: null,
    repReward: 10,
    active: true,
    kind: "visit",
    scope: "global",
    repSource: "serviceDirect",
    ...daily,
  },
  {
    id: "q_daily_prediction",
    slug: "daily-prediction",
    title: "Call a game",
    description: "Predict the winner of one upcoming game today.",
    teamId: null,
    repReward: 15,
    active: false,
    kind: "multi_step",
    scope: "global",
    repSource: "serviceDirect",
    ...daily,
    retiredAt: SEED_TIMESTAMP,
  },
  {
    id: "q_follow_three",
    slug: "follow-three-teams",
    title: "Build your lineup",
    description: "Follow three teams from any league.",
    teamId: null,
    repReward: 50,
    active: true,
    kind: "multi_step",
    scope: "global",
    repSource: "serviceDirect",
    ...once,
  },
  {
    id: "q_complete_profile",
    slug: "complete-your-profile",
    title: "Complete your profile",
    description: "Add a handle, a display name and an avatar.",
    teamId: null,
    repReward: 25,
    active: true,
    kind: "multi_step",
    scope: "global",
    repSource: "serviceDirect",
    ...once,
  },
  {
    id: "q_hawks_superfan",
    slug: "hawks-superfan",
    title: "Hawks superfan",
    description: "Join the Harbor City Hawks community and cheer on game day.",
    teamId: "tm_hch",
    repReward: 100,
    active: true,
    kind: "multi_step",
    scope: "team",
    repSource: "club",
    ...once,
  },
  {
    id: "q_season_pass_kickoff",
    slug: "season-pass-kickoff",
    title: "Season pass kickoff",
    description: "For Season Pass holders: watch the season preview and share your prediction.",
    teamId: null,
    repReward: 40,
    active: true,
    kind: "multi_step",
    scope: "pass",
    repSource: "serviceDirect",
    ...once,
    passId: "pass_season_2026",
  },
  ...LIVE_TEAMS.flatMap((t): SeedQuest[] => [
    {
      id: `q_quiz_${teamKey(t.id)}`,
      slug: `${t.slug}-daily-quiz`,
      title: `${t.name} daily quiz`,
      description: `Five questions about the ${t.name}, 20 seconds each.`,
      teamId: t.id,
      repReward: 30,
      active: true,
      kind: "quiz",
      scope: "team",
      repSource: "club",
      ...daily,
      quizLength: 5,
      quizSeconds: 20,
    },
    {
      id: `q_checkin_${teamKey(t.id)}`,
      slug: `${t.slug}-arena-check-in`,
      title: `Check in for the ${t.name}`,
      description: `Check in at the arena for the ${t.name}.`,
      teamId: t.id,
      repReward: 0,
      active: true,
      kind: "check_in",
      scope: "team",
      repSource: "club",
      ...daily,
    },
  ]),
];

export const QUEST_STEPS: readonly SeedQuestStep[] = [
  { id: "qs_follow_three_1", questId: "q_follow_three", position: 1, title: "Follow three teams", condition: "follows_three_teams" },
  { id: "qs_complete_profile_1", questId: "q_complete_profile", position: 1, title: "Pick a handle", condition: "handle_set" },
  { id: "qs_complete_profile_2", questId: "q_complete_profile", position: 2, title: "Add a display name", condition: "display_name_set" },
  { id: "qs_complete_profile_3", questId: "q_complete_profile", position: 3, title: "Add an avatar", condition: "avatar_set" },
  { id: "qs_hawks_superfan_1", questId: "q_hawks_superfan", position: 1, title: "Join the Hawks", condition: "joined_team" },
  { id: "qs_hawks_superfan_2", questId: "q_hawks_superfan", position: 2, title: "Check in at a Hawks game", condition: "arena_check_in" },
  { id: "qs_hawks_superfan_3", questId: "q_hawks_superfan", position: 3, title: "Rate a game", condition: "game_rated" },
  { id: "qs_season_pass_kickoff_1", questId: "q_season_pass_kickoff", position: 1, title: "Watch the season preview", condition: null },
  { id: "qs_season_pass_kickoff_2", questId: "q_season_pass_kickoff", position: 2, title: "Share your season prediction", condition: null },
];

// Quiz questions: real facts of the seed (founding date, city, league, sport, abbreviation, nickname, colour,
// conference, division, roster jersey numbers and positions), four choices each, the three wrong ones and the
// answer's place picked deterministically (a hash of the question id), so the seed stays byte-identical.

/** FNV-1a, 32-bit: a fixed, portable hash for the deterministic picks. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Four choices: three distinct wrong ones from `pool` and the answer at a hashed position; null when the pool is too small. */
function choicesFor(id: string, answer: string, pool: readonly string[]): { choices: string[]; answerIndex: number } | null {
  const wrong = [...new Set(pool)].filter((c) => c !== answer).sort();
  if (wrong.length < 3) return null;
  const start = fnv(id) % wrong.length;
  const picked = [0, 1, 2].map((i) => wrong[(start + i) % wrong.length]!);
  const answerIndex = fnv(`${id}:answer`) % 4;
  picked.splice(answerIndex, 0, answer);
  return { choices: picked, answerIndex };
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const SPORTS = ["football", "basketball", "hockey", "soccer"];

function quizQuestionsFor(t: SeedTeam): SeedQuizQuestion[] {
  const key = teamKey(t.id);
  const league = LEAGUES.find((l) => l.id === t.leagueId)!;
  const leagueTeams = LIVE_TEAMS.filter((o) => o.leagueId === t.leagueId);
  const [year, month] = t.foundedDate.split("-").map(Number) as [number, number];
  const facts: { prompt: string; answer: string; pool: readonly string[] }[] = [
    {
      prompt: `In what year were the ${t.name} founded?`,
      answer: String(year),
      pool: [-9, -6, -4, -2, 1, 3, 5, 8].map((d) => String(year + d)),
    },
    { prompt: `In which month of ${year} were the ${t.name} founded?`, answer: MONTHS[month - 1]!, pool: MONTHS },
    { prompt: `Which city do the ${t.name} call home?`, answer: t.city, pool: LIVE_TEAMS.map((o) => o.city) },
    { prompt: `Which league do the ${t.name} play in?`, answer: league.name, pool: LEAGUES.map((l) => l.name) },
    { prompt: `What sport do the ${t.name} play?`, answer: t.sport || league.sport, pool: SPORTS },
    { prompt: `What is the abbreviation of the ${t.name}?`, answer: t.abbreviation, pool: leagueTeams.map((o) => o.abbreviation) },
    { prompt: `What is the nickname of the ${league.shortName} team from ${t.city}?`, answer: t.shortName, pool: leagueTeams.map((o) => o.shortName) },
    { prompt: `Which is the primary colour (hex) of the ${t.name}?`, answer: t.primaryColor, pool: LIVE_TEAMS.map((o) => o.primaryColor) },
  ];
  const conference = CONFERENCES.find((c) => c.id === t.conferenceId);
  if (conference) facts.push({ prompt: `Which conference are the ${t.name} in?`, answer: conference.name, pool: CONFERENCES.map((c) => c.name) });
  const division = DIVISIONS.find((d) => d.id === t.divisionId);
  if (division) facts.push({ prompt: `Which division are the ${t.name} in?`, answer: division.name, pool: DIVISIONS.map((d) => d.name) });
  const roster = PLAYERS.filter((p) => p.teamId === t.id && p.active);
  const leaguePositions = PLAYERS.filter((p) => LIVE_TEAMS.some((o) => o.id === p.teamId && o.leagueId === t.leagueId)).map((p) => p.position);
  for (const p of roster.slice(0, 4)) {
    facts.push({ prompt: `Which jersey number does ${p.name} wear for the ${t.shortName}?`, answer: p.jersey, pool: roster.map((o) => o.jersey) });
    facts.push({ prompt: `What position does ${p.name} play for the ${t.shortName}?`, answer: p.position, pool: leaguePositions });
  }
  return facts.flatMap((f, i) => {
    const id = `qq_${key}_${String(i + 1).padStart(2, "0")}`;
    const c = choicesFor(id, f.answer, f.pool);
    return c ? [{ id, questId: `q_quiz_${key}`, prompt: f.prompt, ...c, active: true }] : [];
  });
}

export const QUIZ_QUESTIONS: readonly SeedQuizQuestion[] = LIVE_TEAMS.flatMap(quizQuestionsFor);

export const REWARDS: readonly SeedReward[] = [
  {
    id: "rw_profile_badge",
    slug: "profile-badge",
    title: "Founding fan badge",
    description: "A profile badge for early supporters.",
    costRep: 50,
    stock: null,
    active: true,
    kind: "redeem",
    milestone: null,
    milestoneValue: null,
    perUserLimit: 1,
  },
  {
    id: "rw_team_sticker_pack",
    slug: "team-sticker-pack",
    title: "Team sticker pack",
    description: "Digital stickers for your favourite team.",
    costRep: 150,
    stock: 500,
    active: true,
    kind: "redeem",
    milestone: null,
    milestoneValue: null,
    perUserLimit: null,
  },
  {
    id: "rw_signed_jersey",
    slug: "signed-jersey",
    title: "Signed jersey raffle entry",
    description: "One entry into the monthly signed-jersey raffle.",
    costRep: 1_000,
    stock: 25,
    active: true,
    kind: "redeem",
    milestone: null,
    milestoneValue: null,
    perUserLimit: null,
  },
  {
    id: "rw_vip_meetup",
    slug: "vip-meetup",
    title: "VIP player meet-up",
    description: "Meet the players after a home game. Sold out for this season.",
    costRep: 5_000,
    stock: 0,
    active: true,
    kind: "redeem",
    milestone: null,
    milestoneValue: null,
    perUserLimit: null,
  },
  {
    id: "rw_first_100_rep",
    slug: "first-100-rep",
    title: "First 100 Rep",
    description: "A profile frame for earning your first 100 Rep.",
    costRep: 0,
    stock: null,
    active: true,
    kind: "milestone",
    milestone: "rep_earned",
    milestoneValue: 100,
    perUserLimit: null,
  },
  {
    id: "rw_streak_7",
    slug: "seven-day-streak",
    title: "7-day streak",
    description: "A streak badge for visiting seven days in a row.",
    costRep: 0,
    stock: null,
    active: true,
    kind: "milestone",
    milestone: "streak_days",
    milestoneValue: 7,
    perUserLimit: null,
  },
];

export interface SeedPack {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  priceRep: number;
  /** COIN minor units (hundredths). */
  price: number;
  itemsPerPack: number;
  stock: number | null;
  isFreeStarter: boolean;
  active: boolean;
}

export const PACKS: readonly SeedPack[] = [
  {
    id: "pk_starter",
    slug: "starter-pack",
    name: "Starter Pack",
    description: "Five collectibles to begin a binder; every new fan gets one at onboarding.",
    priceRep: 0,
    price: 0,
    itemsPerPack: 5,
    stock: null,
    isFreeStarter: true,
    active: true,
  },
  {
    id: "pk_gameday",
    slug: "gameday-pack",
    name: "Gameday Pack",
    description: "Eight collectibles from every league.",
    priceRep: 250,
    price: 25_000,
    itemsPerPack: 8,
    stock: null,
    isFreeStarter: false,
    active: true,
  },
  {
    id: "pk_legends",
    slug: "legends-pack",
    name: "Legends Pack",
    description: "Three collectibles, rare or better; 500 packs only.",
    priceRep: 0,
    price: 100_000,
    itemsPerPack: 3,
    stock: 500,
    isFreeStarter: false,
    active: true,
  },
];

export type SeedRarity = "common" | "rare" | "epic" | "legendary";
export const RARITIES: readonly SeedRarity[] = ["common", "rare", "epic", "legendary"];

/** Odds per rarity in basis points (sum 10,000), version 1 of each pack's odds table. */
export const PACK_WEIGHTS: Record<string, Record<SeedRarity, number>> = {
  pk_starter: { common: 8000, rare: 1700, epic: 280, legendary: 20 },
  pk_gameday: { common: 7000, rare: 2300, epic: 600, legendary: 100 },
  pk_legends: { common: 0, rare: 6500, epic: 2900, legendary: 600 },
};

export interface SeedCard {
  id: string;
  kind: "player" | "team";
  teamId: string;
  playerId: string | null;
  name: string;
  rarity: SeedRarity;
  editionSize: number;
  imageUrl: string | null;
}

const EDITION: Record<SeedRarity, number> = { common: 5000, rare: 500, epic: 100, legendary: 25 };

const CARD_PLAYERS = PLAYERS.filter((p) => p.active && TEAMS.some((t) => t.id === p.teamId && t.archivedAt === null));
/** Rarity by the player's place in a fixed, well-spread order (FNV-1a of the id): the first 5% legendary, then 12% epic, 30% rare, the rest common. */
const PLAYER_RARITY = new Map(
  [...CARD_PLAYERS]
    .sort((a, b) => fnv(a.id) - fnv(b.id) || a.id.localeCompare(b.id))
    .map((p, i, all): [string, SeedRarity] => {
      const q = i / all.length;
      return [p.id, q < 0.05 ? "legendary" : q < 0.17 ? "epic" : q < 0.47 ? "rare" : "common"];
    }),
);

/** The card catalog: every active player of a live team and each live team's crest (rare). */
export const CARDS: readonly SeedCard[] = [
  ...TEAMS.filter((t) => t.archivedAt === null).map((t) => ({
    id: `cc_${t.id}`,
    kind: "team" as const,
    teamId: t.id,
    playerId: null,
    name: `${t.name} crest`,
    rarity: "rare" as const,
    editionSize: EDITION.rare,
    imageUrl: t.logo,
  })),
  ...CARD_PLAYERS.map((p) => {
    const rarity = PLAYER_RARITY.get(p.id)!;
    return {
      id: `cc_${p.id}`,
      kind: "player" as const,
      teamId: p.teamId,
      playerId: p.id,
      name: p.name,
      rarity,
      editionSize: EDITION[rarity],
      imageUrl: p.photo,
    };
  }),
];

export interface SeedAchievement {
  id: string;
  teamId: string;
  key: string;
  title: string;
  description: string | null;
  icon: string | null;
  season: string | null;
  awardedAt: string;
}

export const ACHIEVEMENTS: readonly SeedAchievement[] = [
  {
    id: "ach_hch_champions_2025",
    teamId: "tm_hch",
    key: "champions-2025",
    title: "2025 Champions",
    description: "Won the 2025 championship game.",
    icon: "trophy",
    season: "2025",
    awardedAt: "2026-02-09T03:00:00.000Z",
  },
  {
    id: "ach_hch_division_2025",
    teamId: "tm_hch",
    key: "division-2025",
    title: "Division Winners 2025",
    description: "Finished first in the division.",
    icon: "banner",
    season: "2025",
    awardedAt: "2026-01-05T03:00:00.000Z",
  },
  {
    id: "ach_hch_fans_100k",
    teamId: "tm_hch",
    key: "fans-100k",
    title: "100K Fans",
    description: "More than 100,000 fans follow the club.",
    icon: "crowd",
    season: null,
    awardedAt: "2026-06-01T00:00:00.000Z",
  },
  {
    id: "ach_lsl_streak_10",
    teamId: "tm_lsl",
    key: "win-streak-10",
    title: "Ten Straight",
    description: "Ten wins in a row.",
    icon: "flame",
    season: "2026",
    awardedAt: "2026-11-01T04:00:00.000Z",
  },
  {
    id: "ach_fpb_cup_2026",
    teamId: "tm_fpb",
    key: "cup-2026",
    title: "Cup Winners 2026",
    description: "Lifted the cup.",
    icon: "cup",
    season: "2026",
    awardedAt: "2026-05-20T20:00:00.000Z",
  },
];

/** A coin bundle as lib/features/payments reads and the console edits it (coin_products), on sale (every seeded one is). */
export type SeedCoinProduct = Omit<ConsoleProduct, "active">;

// The coin bundles on sale (lib/features/payments): three sizes, the bigger ones with a bonus.
export const COIN_PRODUCTS: readonly SeedCoinProduct[] = [
  {
    id: "coins_500",
    name: "500 coins",
    coins: 50_000,
    prices: { eur: 499, gbp: 449, usd: 499 },
    appStoreProductId: "com.example.fanapp.coins500",
    googlePlayProductId: "coins_500",
    sortOrder: 1,
  },
  {
    id: "coins_1200",
    name: "1,200 coins",
    coins: 120_000,
    prices: { eur: 999, gbp: 899, usd: 999 },
    appStoreProductId: "com.example.fanapp.coins1200",
    googlePlayProductId: "coins_1200",
    sortOrder: 2,
  },
  {
    id: "coins_2600",
    name: "2,600 coins",
    coins: 260_000,
    prices: { eur: 1999, gbp: 1799, usd: 1999 },
    appStoreProductId: "com.example.fanapp.coins2600",
    googlePlayProductId: "coins_2600",
    sortOrder: 3,
  },
];

export interface SeedChallenge {
  id: string;
  title: string;
  description: string;
  startsAt: string;
  endsAt: string;
  cards: { cardId: string; count: number }[];
  rewardCardId: string;
  rewardSupply: number;
  repReward: number;
}

/**
 * Collection challenges (lib/features/challenges). Inserted once: the secret seed ordering the reward serials is drawn when the
 * row is first written and the reward's serials are taken from the card's edition then; a re-run leaves both alone.
 */
export const CHALLENGES: readonly SeedChallenge[] = [
  {
    id: "01980000-0000-7000-8000-00000000c001",
    title: "Hawks front line",
    description: "Collect the Hawks' first three players before the end of the season; the first 50 collectors get a numbered Hawks crest.",
    startsAt: SEED_TIMESTAMP,
    endsAt: "2027-06-30T00:00:00.000Z",
    cards: [
      { cardId: "cc_pl_hch_01", count: 1 },
      { cardId: "cc_pl_hch_02", count: 1 },
      { cardId: "cc_pl_hch_03", count: 1 },
    ],
    rewardCardId: "cc_tm_hch",
    rewardSupply: 50,
    repReward: 100,
  },
];
