import { toTeamSummary, type TeamSummaryRow } from "../teams/service";
// League standings as pure functions: teams and finished games in, ranked rows and tables out. No database,
// no clocks; lib/core/leagues/service.ts reads the rows and hands them here, tests feed hand-worked tables.

export type Scope = "division" | "conference" | "league";

/** Tiebreak rule names, as listed in `tiebreakRules` and applied in that order after the primary key. */
export type TiebreakRule = "pointsPct" | "wins" | "scoreDifferential" | "scoreFor" | "name";

export interface SportRules {
  sport: string;
  /** Standings points per result, or null when the sport ranks by win percentage. */
  points: { win: number; tie: number; overtimeLoss: number } | null;
  /** A defeat after regulation is kept apart as an overtime loss (hockey); elsewhere it is a plain loss. */
  overtimeLosses: boolean;
  /** Ranking key before the tiebreaks. */
  primary: "points" | "winPct";
  /** Fallback chain after the primary key; "name" (then id) is the last resort, so the order is total. */
  tiebreak: TiebreakRule[];
}

const HOCKEY: Omit<SportRules, "sport"> = {
  points: { win: 2, tie: 1, overtimeLoss: 1 },
  overtimeLosses: true,
  primary: "points",
  tiebreak: ["pointsPct", "wins", "scoreDifferential", "scoreFor", "name"],
};

const RULES: Record<string, Omit<SportRules, "sport">> = {
  soccer: {
    points: { win: 3, tie: 1, overtimeLoss: 0 },
    overtimeLosses: false,
    primary: "points",
    tiebreak: ["scoreDifferential", "scoreFor", "wins", "name"],
  },
  hockey: HOCKEY,
  "ice-hockey": HOCKEY,
  ice_hockey: HOCKEY,
  basketball: {
    points: null,
    overtimeLosses: false,
    primary: "winPct",
    tiebreak: ["wins", "scoreDifferential", "scoreFor", "name"],
  },
  football: {
    points: null,
    overtimeLosses: false,
    primary: "winPct",
    tiebreak: ["wins", "scoreDifferential", "scoreFor", "name"],
  },
};

/** Scoring rules of a normalised sport value, or null for a sport this service cannot score (e.g. "other"). */
export function sportRules(sport: string): SportRules | null {
  const rules = Object.hasOwn(RULES, sport) ? RULES[sport] : undefined;
  return rules ? { sport, ...rules } : null;
}

export interface StandingsTeam extends TeamSummaryRow {
  conference: { id: string; name: string } | null;
  division: { id: string; name: string } | null;
}

export interface FinishedGame {
  id: string;
  homeTeamId: string;
  awayTeamId: string;
  homeScore: number;
  awayScore: number;
  overtime: boolean;
  startsAt: Date;
}

export interface StandingsRow {
  position: number;
  team: TeamSummaryRow;
  group: { scope: Scope; id: string; name: string };
  gamesPlayed: number;
  wins: number;
  losses: number;
  ties: number;
  overtimeLosses: number;
  points: number | null;
  pointsPct: number | null;
  winPct: number;
  gamesBack: number | null;
  scoreFor: number;
  scoreAgainst: number;
  scoreDifferential: number;
  streak: string | null;
  summary: string;
}

export interface StandingsTable {
  scope: Scope;
  id: string;
  name: string;
  rows: StandingsRow[];
}

export interface Standings {
  rows: StandingsRow[];
  tiebreakRules: TiebreakRule[];
  tables: StandingsTable[];
}

/** A team's totals before ranking; exact (unrounded) percentages are kept for comparisons. */
export interface TeamTotals {
  team: StandingsTeam;
  gamesPlayed: number;
  wins: number;
  losses: number;
  ties: number;
  overtimeLosses: number;
  points: number | null;
  pointsPct: number | null;
  winPct: number;
  scoreFor: number;
  scoreAgainst: number;
  streak: string | null;
}

type Result = "W" | "L" | "T" | "OT";

/**
 * Totals per team over the games given (games whose teams are not listed only count for the listed side).
 * Equal scores are ties in every sport (they count half a win in win percentage and `tie` points in points
 * sports); an overtime defeat is an overtime loss only where the sport keeps that column.
 */
export function computeTotals(teams: readonly StandingsTeam[], games: readonly FinishedGame[], rules: SportRules): TeamTotals[] {
  const results = new Map<string, { result: Result; for: number; against: number }[]>(teams.map((t) => [t.id, []]));
  const ordered = [...games].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || cmp(a.id, b.id));
  for (const g of ordered) {
    if (g.homeTeamId === g.awayTeamId) continue;
    for (const [teamId, mine, theirs] of [
      [g.homeTeamId, g.homeScore, g.awayScore],
      [g.awayTeamId, g.awayScore, g.homeScore],
    ] as const) {
      const list = results.get(teamId);
      if (!list) continue;
      const result: Result = mine > theirs ? "W" : mine === theirs ? "T" : g.overtime && rules.overtimeLosses ? "OT" : "L";
      list.push({ result, for: mine, against: theirs });
    }
  }
  return teams.map((team) => {
    const list = results.get(team.id)!;
    const count = (r: Result) => list.filter((x) => x.result === r).length;
    const wins = count("W");
    const losses = count("L");
    const ties = count("T");
    const overtimeLosses = count("OT");
    const gamesPlayed = list.length;
    const p = rules.points;
    const points = p ? wins * p.win + ties * p.tie + overtimeLosses * p.overtimeLoss : null;
    const maxPoints = p ? p.win * gamesPlayed : 0;
    return {
      team,
      gamesPlayed,
      wins,
      losses,
      ties,
      overtimeLosses,
      points,
      pointsPct: points === null ? null : maxPoints > 0 ? points / maxPoints : 0,
      winPct: gamesPlayed > 0 ? (wins + ties / 2) / gamesPlayed : 0,
      scoreFor: list.reduce((s, x) => s + x.for, 0),
      scoreAgainst: list.reduce((s, x) => s + x.against, 0),
      streak: streakOf(list.map((x) => x.result)),
    };
  });
}

/** "W3", "L1", "T1" or "OT2" (hockey overtime losses): the run of equal results ending with the latest game. */
export function streakOf(results: readonly Result[]): string | null {
  const last = results[results.length - 1];
  if (!last) return null;
  let n = 0;
  for (let i = results.length - 1; i >= 0 && results[i] === last; i--) n++;
  return `${last}${n}`;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Orders totals best first: primary key, then each tiebreak in turn; the last resort is name, then id. */
export function compareTotals(a: TeamTotals, b: TeamTotals, rules: SportRules): number {
  const primary = rules.primary === "points" ? (b.points ?? 0) - (a.points ?? 0) : b.winPct - a.winPct;
  if (primary !== 0) return primary;
  for (const rule of rules.tiebreak) {
    let d = 0;
    switch (rule) {
      case "pointsPct":
        d = (b.pointsPct ?? 0) - (a.pointsPct ?? 0);
        break;
      case "wins":
        d = b.wins - a.wins;
        break;
      case "scoreDifferential":
        d = b.scoreFor - b.scoreAgainst - (a.scoreFor - a.scoreAgainst);
        break;
      case "scoreFor":
        d = b.scoreFor - a.scoreFor;
        break;
      case "name":
        d = cmp(a.team.name, b.team.name);
        break;
    }
    if (d !== 0) return d;
  }
  return cmp(a.team.id, b.team.id);
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** W-L, W-L-T or W-L-OTL (the same summary as a team's detail record). */
export function summaryOf(t: Pick<TeamTotals, "wins" | "losses" | "ties" | "overtimeLosses">): string {
  const parts = [t.wins, t.losses];
  if (t.ties) parts.push(t.ties);
  if (t.overtimeLosses) parts.push(t.overtimeLosses);
  return parts.join("-");
}

/**
 * Ranks one table: positions 1..n, and games back behind the table's leader for sports without points
 * (((leaderW − W) + (L − leaderL)) / 2; ties do not enter it).
 */
export function rankTable(totals: readonly TeamTotals[], rules: SportRules, groupOf: (t: StandingsTeam) => StandingsRow["group"]): StandingsRow[] {
  const sorted = [...totals].sort((a, b) => compareTotals(a, b, rules));
  const leader = sorted[0];
  return sorted.map((t, i) => ({
    position: i + 1,
    team: toTeamSummary(t.team),
    group: groupOf(t.team),
    gamesPlayed: t.gamesPlayed,
    wins: t.wins,
    losses: t.losses,
    ties: t.ties,
    overtimeLosses: t.overtimeLosses,
    points: t.points,
    pointsPct: t.pointsPct === null ? null : round3(t.pointsPct),
    winPct: round3(t.winPct),
    gamesBack: rules.points || !leader ? null : (leader.wins - t.wins + (t.losses + t.overtimeLosses - leader.losses - leader.overtimeLosses)) / 2,
    scoreFor: t.scoreFor,
    scoreAgainst: t.scoreAgainst,
    scoreDifferential: t.scoreFor - t.scoreAgainst,
    streak: t.streak,
    summary: summaryOf(t),
  }));
}

export interface StandingsInput {
  league: { id: string; name: string; sport: string };
  teams: readonly StandingsTeam[];
  games: readonly FinishedGame[];
}

/** Grouping level of a league: the most specific one any of its teams is assigned to. */
export function groupingLevel(teams: readonly StandingsTeam[]): Scope {
  if (teams.some((t) => t.division)) return "division";
  if (teams.some((t) => t.conference)) return "conference";
  return "league";
}

const SCOPE_RANK: Record<Scope, number> = { division: 0, conference: 1, league: 2 };

/**
 * The standings of one league.
 * - Unscorable (sport without rules, or no finished game): `{ rows: [], tables: [] }`; `tiebreakRules` is the
 *   sport's chain, or [] when the sport has no rules.
 * - `rows`: every team once, in its group (division if the league groups by division, else conference, else the
 *   league; a team missing that assignment falls back to its conference, then the league). Groups are ordered
 *   by conference name, then more specific first, then name and id; rows by group, then position in the group.
 * - `tables`: every coarser scope: one per conference (when rows are divisions), then the whole league (unless
 *   rows are the league table already). Positions and games back are relative to each table.
 */
export function buildStandings({ league, teams, games }: StandingsInput): Standings {
  const rules = sportRules(league.sport);
  if (!rules) return { rows: [], tiebreakRules: [], tables: [] };
  if (games.length === 0 || teams.length === 0) return { rows: [], tiebreakRules: rules.tiebreak, tables: [] };

  const level = groupingLevel(teams);
  const leagueGroup = { scope: "league" as const, id: league.id, name: league.name };
  const groupOf = (t: StandingsTeam): StandingsRow["group"] => {
    if (level === "division" && t.division) return { scope: "division", ...t.division };
    if (level !== "league" && t.conference) return { scope: "conference", ...t.conference };
    return leagueGroup;
  };
  const totals = computeTotals(teams, games, rules);

  // Groups in display order: by conference name (none last), more specific scope first, then name and id.
  const groups = new Map<string, { group: StandingsRow["group"]; conference: string | null; members: TeamTotals[] }>();
  for (const t of totals) {
    const group = groupOf(t.team);
    const key = `${group.scope}:${group.id}`;
    const entry = groups.get(key) ?? { group, conference: t.team.conference?.name ?? null, members: [] };
    entry.members.push(t);
    groups.set(key, entry);
  }
  const orderedGroups = [...groups.values()].sort(
    (a, b) =>
      (a.conference === null ? 1 : 0) - (b.conference === null ? 1 : 0) ||
      cmp(a.conference ?? "", b.conference ?? "") ||
      SCOPE_RANK[a.group.scope] - SCOPE_RANK[b.group.scope] ||
      cmp(a.group.name, b.group.name) ||
      cmp(a.group.id, b.group.id),
  );
  const rows = orderedGroups.flatMap((g) => rankTable(g.members, rules, groupOf));

  const tables: StandingsTable[] = [];
  if (level === "division") {
    const conferences = new Map<string, { id: string; name: string; members: TeamTotals[] }>();
    for (const t of totals) {
      if (!t.team.conference) continue;
      const c = conferences.get(t.team.conference.id) ?? { ...t.team.conference, members: [] };
      c.members.push(t);
      conferences.set(c.id, c);
    }
    for (const c of [...conferences.values()].sort((a, b) => cmp(a.name, b.name) || cmp(a.id, b.id))) {
      tables.push({ scope: "conference", id: c.id, name: c.name, rows: rankTable(c.members, rules, groupOf) });
    }
  }
  if (level !== "league") tables.push({ ...leagueGroup, rows: rankTable(totals, rules, groupOf) });
  return { rows, tiebreakRules: rules.tiebreak, tables };
}
