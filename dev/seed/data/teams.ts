// Teams

import { CDN, type SeedTeam } from "./types";
import { LEAGUES } from "./leagues";

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
