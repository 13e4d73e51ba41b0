import { keyedCache, processCache } from "../../db/cache";
import type { Db, DbTx } from "../../db/client";
import type { AuthUser } from "../../auth/users";
import { env } from "../../env";
import { DomainError, notFound, sharedErrors } from "../../kernel/errors";
import { decodeCursor, decodeTimeCursor, encodeCursor, invalidCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { canPostAsTeam } from "./queries";
import {
  activePlayersOf,
  allTeamRows,
  countTeams,
  currentSeason,
  findTeamRef,
  followedTeamRows,
  headToHeadRecord,
  liveTeamIdOrThrow,
  liveTeamRowOrThrow,
  readPublicDetail,
  recentMeetings,
  searchTeamRows,
  teamRowBySlug,
  teamRowsPage,
  teamSummaryRows,
  toRosterPlayer,
  toTeam,
  type TeamRow,
  type TeamSearchAfter,
  type TeamSummaryRow,
} from "./queries";
import { DEFAULT_TEAM_PAGE, type TeamSearchQuery, type TeamSearchSort, type TeamsQuery } from "./schemas";
import type { RawDb } from "../../db/raw";
import { noteBoardsMoved, noteTeamLeft } from "../rep/service";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { favoriteTeamsOf, TEAM_SUMMARY_COLUMNS, toTeamSummary, liveTeamIdOrThrow, toRosterPlayer, canPostAsTeam } from "./queries";
export type { TeamSummaryRow, PlayerRow } from "./queries";
export { normalizeSport } from "./sport";

export async function findTeamBySlug(db: RawDb | DbTx, slug: string) {
  const t = await teamRowBySlug(db, slug);
  if (!t || t.archivedAt) throw notFound("Team");
  return { team: toTeam(t) };
}

/** GET /api/teams without slug: the full list, or a filtered/paginated page with total. Ordered by name, then id. */
export async function listTeams(db: Db, q: Omit<TeamsQuery, "slug">) {
  const paginated = q.cursor !== undefined || q.limit !== undefined;
  const filtered = q.sport !== undefined || q.league !== undefined;

  if (!paginated && !filtered) {
    const [teams, season] = await Promise.all([allTeamRows(db, q), currentSeason(db)]);
    return { teams: teams.map(toTeam), season };
  }

  const limit = q.limit ?? DEFAULT_TEAM_PAGE;
  const after = q.cursor ? decodeCursor(q.cursor) : undefined;
  const [rows, total, season] = await Promise.all([teamRowsPage(db, q, after, limit), countTeams(db, q), currentSeason(db)]);
  return { ...keysetPage("teams", rows, limit, (r) => encodeCursor(r.name, r.id), toTeam), season, total };
}

/** Id first, then slug (case-insensitive); archived or missing → 404. */
export async function getTeamDetail(db: Db, idOrSlug: string, viewer: AuthUser | null) {
  const team = await cachedPublicDetail(db, idOrSlug);
  if (!team) throw notFound("Team");
  return { team: { ...team, viewerCanPostAsTeam: viewer ? await canPostAsTeam(db, viewer, team.id) : false } };
}

type PublicDetail = Awaited<ReturnType<typeof readPublicDetail>>;

// Team detail is the same for every viewer but viewerCanPostAsTeam, and changes only when a sync runs, so it
// is kept briefly per process (the spec asks clients to tolerate a short delay after syncs).
const detailCache = processCache<PublicDetail>("__teamDetailCache", () => env().TEAM_CACHE_TTL_MS);
const cachedPublicDetail = (db: Db, idOrSlug: string) => detailCache.get(idOrSlug, () => readPublicDetail(db, idOrSlug));

/** Drops cached team details and summaries, e.g. after a sync or an archive in this process. */
export function forgetTeamDetails(): void {
  detailCache.clear();
  summaryCache.clear();
}

// Team summaries for answers that show teams beside other things (the locker room's posts): kept per team for
// TEAM_CACHE_TTL_MS like details, the missing ones read in one statement. Building them in each post's statement
// cost the feed ≈ 27% of its statement's time (two JSON subqueries per post).
const summaryCache = keyedCache<TeamSummaryRow>("__teamSummaries", () => env().TEAM_CACHE_TTL_MS);

/** The summaries of the teams `ids` (nulls skipped; unknown ids are absent from the map). */
export function teamSummaries(db: RawDb | DbTx, ids: (string | null)[]): Promise<Map<string, TeamSummaryRow>> {
  return summaryCache.getMany(
    ids.filter((id) => id !== null),
    async (missing) => new Map((await teamSummaryRows(db, missing)).map((r) => [r.id, r])),
  );
}

// Search ----------------------------------------------------------------------------------------------------

// GET /api/teams/search: filtered, keyset-paginated team lists in three orders. Every order ends on the team id,
// so rows that tie on the sort key still have one total order and a page boundary never skips or repeats a team.
//   name: name ASC, id ASC                    index teams(name, id)
//   rank: rank ASC NULLS LAST, id ASC         index teams(rank, id) (a plain btree sorts NULLs last)
//   fans: fan_count DESC, id ASC              index teams(fan_count DESC, id)
// The cursor's sort key is "<sort>:<value>" ("rank:null" for an unranked team), so a cursor only continues the
// sort it came from.

const INT4 = { min: -2_147_483_648, max: 2_147_483_647 };

function sortKeyOf(sort: TeamSearchSort, t: TeamRow): string {
  if (sort === "name") return `name:${t.name}`;
  if (sort === "rank") return `rank:${t.rank === null ? "null" : t.rank}`;
  return `fans:${t.fanCount}`;
}

function parseInt4(value: string): number | null {
  if (!/^-?\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= INT4.min && n <= INT4.max ? n : null;
}

function decodeSearchCursor(cursor: string, sort: TeamSearchSort): TeamSearchAfter {
  const { sortKey, id } = decodeCursor(cursor);
  const colon = sortKey.indexOf(":");
  if (colon < 0) throw invalidCursor();
  const kind = sortKey.slice(0, colon);
  const value = sortKey.slice(colon + 1);
  if (kind !== "name" && kind !== "rank" && kind !== "fans") throw invalidCursor();
  if (kind !== sort) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, `This cursor continues sort=${kind}, not sort=${sort}; start again without it.`, [
      { path: "query.cursor", message: `Cursor belongs to sort=${kind}` },
    ]);
  }
  if (kind === "name") return { sort: "name", name: value, id };
  if (kind === "rank") {
    if (value === "null") return { sort: "rank", rank: null, id };
    const rank = parseInt4(value);
    if (rank === null) throw invalidCursor();
    return { sort: "rank", rank, id };
  }
  const fans = parseInt4(value);
  if (fans === null) throw invalidCursor();
  return { sort: "fans", fans, id };
}

export async function searchTeams(db: DbTx, q: TeamSearchQuery) {
  const after = q.cursor !== undefined ? decodeSearchCursor(q.cursor, q.sort) : undefined;
  const rows = await searchTeamRows(db, q, after);
  return keysetPage("teams", rows, q.limit, (r) => encodeCursor(sortKeyOf(q.sort, r), r.id), toTeam);
}

// Follows and joins ------------------------------------------------------------------------------------------

/** Joined (leaderboard entries) and followed (social follows) team ids, each oldest first. Stars are not included. */
export async function getUserTeams(db: DbTx, userId: string) {
  const [joined, followed] = await Promise.all([
    db.teamMember.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { teamId: "asc" }], select: { teamId: true } }),
    db.teamFollow.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { teamId: "asc" }], select: { teamId: true } }),
  ]);
  return { joinedTeamIds: joined.map((r) => r.teamId), followedTeamIds: followed.map((r) => r.teamId) };
}

// Follow (social, team_follows) and join (leaderboard entry, team_members) are independent of each other and of
// stars: each function here writes exactly one table. Writes are idempotent through the (user_id, team_id)
// primary keys with ON CONFLICT DO NOTHING, so concurrent repeats of one request end on one row.

/** POST /api/teams/{id}/follow: the social follow only. Missing or archived team → 404. */
export async function followTeam(db: DbTx, userId: string, idOrSlug: string) {
  const teamId = await liveTeamIdOrThrow(db, idOrSlug);
  await db.teamFollow.createMany({ data: [{ userId, teamId }], skipDuplicates: true });
  const row = await db.teamFollow.findUniqueOrThrow({ where: { userId_teamId: { userId, teamId } }, select: { createdAt: true } });
  return { following: true as const, teamId, followedAt: row.createdAt.toISOString() };
}

/**
 * DELETE /api/teams/{id}/follow: idempotent. An archived team can be unfollowed too; an id that names no team is
 * a no-op (answers following: false for that id).
 */
export async function unfollowTeam(db: DbTx, userId: string, idOrSlug: string) {
  const teamId = (await findTeamRef(db, idOrSlug))?.id ?? idOrSlug;
  await db.teamFollow.deleteMany({ where: { userId, teamId } });
  return { following: false as const, teamId };
}

/** POST /api/teams/{id}/join: upserts the leaderboard entry only. Missing or archived team → 404. */
export async function joinTeam(db: DbTx, userId: string, idOrSlug: string) {
  const teamId = await liveTeamIdOrThrow(db, idOrSlug);
  await db.teamMember.createMany({ data: [{ userId, teamId }], skipDuplicates: true });
  noteBoardsMoved(userId);
  return getUserTeams(db, userId);
}

/** DELETE /api/teams/{id}/join: removes the leaderboard entry only (the follow stays). Not joined → no-op. */
export async function leaveTeam(db: DbTx, userId: string, idOrSlug: string) {
  const teamId = (await findTeamRef(db, idOrSlug))?.id ?? idOrSlug;
  const { count } = await db.teamMember.deleteMany({ where: { userId, teamId } });
  if (count > 0) noteTeamLeft(userId, teamId);
  return getUserTeams(db, userId);
}

/** GET /api/teams/followed: the caller's followed live teams, newest follow first (created_at desc, team_id desc). */
export async function listFollowedTeams(db: DbTx, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeTimeCursor(cursor) : undefined;
  const rows = await followedTeamRows(db, userId, after, limit);
  return keysetPage(
    "teams",
    rows,
    limit,
    (r) => encodeCursor(r.followedAt.getTime(), r.id),
    (r) => ({ ...toTeam(r), followedAt: r.followedAt.toISOString() }),
  );
}

/** GET /api/teams/{id}/roster: active players (index players(team_id, active)). Missing or archived team → 404. */
export async function getRoster(db: DbTx, idOrSlug: string) {
  const teamId = await liveTeamIdOrThrow(db, idOrSlug);
  return { players: (await activePlayersOf(db, teamId)).map(toRosterPlayer) };
}

/** GET /api/teams/{id}/achievements: badges newest first (index team_achievements(team_id, awarded_at)). */
export async function listTeamAchievements(db: DbTx, idOrSlug: string) {
  const teamId = await liveTeamIdOrThrow(db, idOrSlug);
  const rows = await db.teamAchievement.findMany({
    where: { teamId },
    orderBy: [{ awardedAt: "desc" }, { id: "asc" }],
    select: { id: true, key: true, title: true, description: true, icon: true, season: true, awardedAt: true },
  });
  return { achievements: rows.map((a) => ({ ...a, awardedAt: a.awardedAt.toISOString() })) };
}

// GET /api/teams/{id}/head-to-head?opponentId=: the series between two teams over finished games with scores
// (all seasons), from {id}'s side. Reads use games(home_team_id, starts_at) and games(away_team_id, starts_at).

const RECENT_MEETINGS = 5;

const sameTeam = () =>
  new DomainError(sharedErrors.VALIDATION_ERROR, "opponentId must name a different team than the one in the path.", [
    { path: "query.opponentId", message: "Must be a different team than {id}" },
  ]);

export async function getHeadToHead(db: DbTx, idOrSlug: string, opponentIdOrSlug: string) {
  // The same text names the same team (before any lookup); an id and a slug of one team are caught after it.
  if (idOrSlug === opponentIdOrSlug) throw sameTeam();
  const [mine, theirs] = await Promise.all([liveTeamRowOrThrow(db, idOrSlug), liveTeamRowOrThrow(db, opponentIdOrSlug)]);
  if (mine.id === theirs.id) throw sameTeam();
  const a = mine.id;
  const b = theirs.id;

  const [counts, recent] = await Promise.all([headToHeadRecord(db, a, b), recentMeetings(db, a, b, RECENT_MEETINGS)]);

  return {
    team: toTeam(mine),
    opponent: toTeam(theirs),
    record: counts,
    recentMeetings: recent.map((g) => {
      const winnerId = g.homeScore > g.awayScore ? g.homeTeamId : g.awayScore > g.homeScore ? g.awayTeamId : null;
      return {
        gameId: g.id,
        playedAt: g.startsAt.toISOString(),
        season: g.season,
        venue: g.venue,
        homeTeamId: g.homeTeamId,
        awayTeamId: g.awayTeamId,
        homeScore: g.homeScore,
        awayScore: g.awayScore,
        overtime: g.overtime,
        winnerId,
        result: winnerId === null ? ("tie" as const) : winnerId === a ? ("win" as const) : ("loss" as const),
      };
    }),
  };
}
