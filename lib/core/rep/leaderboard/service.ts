import { batchConcurrentCalls } from "../../../db/batch";
import { db as appDb, type Db, type DbTx } from "../../../db/client";
import { readCaughtUp } from "../../../db/replica";
import { env } from "../../../env";
import { decodeCursor, encodeCursor, invalidCursor } from "../../../kernel/cursor";
import { DomainError, notFound, sharedErrors } from "../../../kernel/errors";
import { log } from "../../../kernel/log";
import { recordAudit, type StaffActor } from "../../audit/service";
import { within } from "../../../time";
import {
  closedSeasons,
  closedSeasonsPage,
  closeSeason,
  fanScores,
  fansByHandlePrefix,
  fansById,
  firstEntryAt,
  isLiveTeam,
  ledgerScores,
  teamMembers,
  toFan,
  winnersOf,
  type BoardRow,
  type FanRow,
} from "./queries";
import { AROUND_RADIUS } from "./schemas";
import { lowestScoreWith, packScore, unpackScore } from "./score";
import { previousSeason, seasonById, seasonOf, type Season } from "./seasons";
import { boardFeed } from "./changes";
import { boardStore, type Ranked, type Scored } from "./store";
import { errors as leaderboardErrors } from "./errors";

// For other modules (the leaderboard's public face, inside Rep's: decision 0070).
export { previousSeason, seasonOf, type Season } from "./seasons";

// Boards: `global` (every fan with Rep earned in the period) and `team:<teamId>` (the team's joined fans, whatever
// their points), each all time and per season. Redis holds them; the ledger is the truth (rebuildBoards, checkBoards).

export interface BoardRef {
  board: string;
  teamId: string | null;
  period: string;
  season: Season | null;
}

const prefix = () => env().LEADERBOARD_PREFIX;
export const boardKey = (board: string, period: string) => `${prefix()}:${board}:${period}`;
const teamBoard = (teamId: string) => `team:${teamId}`;

/** The board and period a query names; a season older than the one before the current is SEASON_ARCHIVED. */
export function resolveBoard(q: { board: string; period: string }, now = new Date()): BoardRef {
  const teamId = q.board.startsWith("team:") ? q.board.slice(5) : null;
  if (q.period === "all") return { board: q.board, teamId, period: "all", season: null };
  const current = seasonOf(now);
  const season = q.period === "current" ? current : seasonById(q.period)!;
  if (season.startsAt > current.startsAt)
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "That season has not started.", [{ path: "query.period", message: "A future season" }]);
  if (season.id !== current.id && season.id !== previousSeason(current).id) {
    throw new DomainError(
      leaderboardErrors.SEASON_ARCHIVED,
      `The ${season.name} board is no longer kept; its top fans are in GET /api/leaderboard/winners?season=${season.id}.`,
    );
  }
  return { board: q.board, teamId, period: season.id, season };
}

const seasonView = (s: Season, closed: boolean) => ({ id: s.id, name: s.name, startsAt: s.startsAt.toISOString(), endsAt: s.endsAt.toISOString(), closed });

async function boardInfo(db: DbTx, ref: BoardRef, participants: number) {
  const closed = ref.season ? (await closedSeasons(db, [ref.season.id])).has(ref.season.id) : false;
  return { board: ref.board, teamId: ref.teamId, period: ref.period, season: ref.season ? seasonView(ref.season, closed) : null, participants };
}

/** The board a query names, 404 when it is an unknown or archived team's. */
export async function boardOrThrow(db: DbTx, q: { board: string; period: string }): Promise<BoardRef> {
  const ref = resolveBoard(q);
  if (ref.teamId && !(await isLiveTeam(db, ref.teamId))) throw notFound("Team");
  return ref;
}

function entriesOf(ranked: Ranked[], fans: Map<string, FanRow>) {
  return ranked.map((r) => {
    const { points, reachedAt } = unpackScore(r.score);
    return { rank: r.rank, points, reachedAt: reachedAt.toISOString(), fan: toFan(fans.get(r.member), r.member) };
  });
}

async function fanMap(db: DbTx, ids: string[]) {
  return new Map((await fansById(db, [...new Set(ids)])).map((f) => [f.id, f]));
}

// The cursor is the last entry's place in the order (score, member): the next page starts right after it, so
// equal scores never repeat or skip an entry, even when that fan has moved since.
function decodeBoardCursor(cursor: string) {
  const { sortKey, id } = decodeCursor(cursor);
  const score = Number(sortKey);
  if (!/^\d{1,16}$/.test(sortKey) || !Number.isSafeInteger(score)) throw invalidCursor();
  return { score, member: id };
}

/** GET /api/leaderboard: a page of a board, the caller's entry and the entries around it, in one Redis round trip. */
export async function readBoard(db: DbTx, callerId: string | null, q: { board: string; period: string; cursor?: string; limit: number }) {
  const ref = await boardOrThrow(db, q);
  const store = await boardStore();
  const key = boardKey(ref.board, ref.period);
  const after = q.cursor ? decodeBoardCursor(q.cursor) : null;
  const position = after ? await store.positionAfter(key, after.score, after.member) : 0;
  const page = await store.page(key, position, q.limit + 1, callerId, AROUND_RADIUS);
  const shown = page.entries.slice(0, q.limit);
  const fans = await fanMap(
    db,
    [...shown, ...page.around].map((e) => e.member),
  );
  const last = shown[shown.length - 1];
  return {
    board: await boardInfo(db, ref, page.size),
    entries: entriesOf(shown, fans),
    ...(page.entries.length > q.limit && last ? { nextCursor: encodeCursor(String(last.score), last.member) } : {}),
    me: page.me ? entriesOf([page.me], fans)[0]! : null,
    aroundMe: entriesOf(page.around, fans),
  };
}

/** GET /api/leaderboard/search: fans whose handle starts with `q`, with their rank on the board. */
export async function searchBoard(db: DbTx, q: { board: string; period: string; q: string; limit: number }) {
  const ref = await boardOrThrow(db, q);
  const found = await fansByHandlePrefix(db, q.q, q.limit);
  const store = await boardStore();
  const key = boardKey(ref.board, ref.period);
  const [standings, size] = await Promise.all([
    store.standings(
      key,
      found.map((f) => f.id),
    ),
    store.stats(key, []),
  ]);
  return {
    board: await boardInfo(db, ref, size.size),
    results: found.map((f, i) => {
      const s = standings[i];
      return { fan: toFan(f, f.id), rank: s ? s.ahead + 1 : null, points: s ? unpackScore(s.score).points : null };
    }),
  };
}

/** GET /api/leaderboard/stats: participants, the caller's percentile, and points in ten bands up to the top score. */
export async function boardStats(db: DbTx, callerId: string, q: { board: string; period: string }) {
  const ref = await boardOrThrow(db, q);
  const store = await boardStore();
  const key = boardKey(ref.board, ref.period);
  const { top } = await store.stats(key, []);
  const topPoints = top === null ? null : unpackScore(top).points;
  const bands = 10;
  const width = Math.max(1, Math.ceil(((topPoints ?? 0) + 1) / bands));
  const floors = Array.from({ length: bands }, (_, i) => lowestScoreWith(i * width));
  const [stats, [mine]] = await Promise.all([store.stats(key, floors), store.standings(key, [callerId])]);
  const distribution = floors.map((_, i) => ({
    minPoints: i * width,
    maxPoints: (i + 1) * width - 1,
    fans: stats.atLeast[i]! - (i + 1 < bands ? stats.atLeast[i + 1]! : 0),
  }));
  const me = mine
    ? {
        rank: mine.ahead + 1,
        points: unpackScore(mine.score).points,
        percentile: Math.round(((stats.size - mine.ahead) / stats.size) * 1000) / 10,
      }
    : null;
  return { board: await boardInfo(db, ref, stats.size), me, topPoints, distribution };
}

/** GET /api/leaderboard/seasons: the current season and every one back to the first Rep entry's (at most 24). */
export async function listSeasons(db: DbTx, now = new Date()) {
  const current = seasonOf(now);
  const first = (await firstEntryAt(db)) ?? now;
  const seasons: Season[] = [current];
  while (seasons.length < 24 && seasons[seasons.length - 1]!.startsAt > seasonOf(first).startsAt) seasons.push(previousSeason(seasons[seasons.length - 1]!));
  const closed = await closedSeasons(
    db,
    seasons.map((s) => s.id),
  );
  return { current: seasonView(current, false), seasons: seasons.map((s) => seasonView(s, closed.has(s.id))) };
}

// Moving fans ----------------------------------------------------------------------------------------------------

/** The feed's score for "left the board". */
export const LEFT = -1;

const scoreOf = (points: number, reachedAt: Date | null) => (reachedAt ? packScore(points, reachedAt) : 0);

/**
 * Writes the current points of `userIds` to every board they are on (global and joined teams, all time and this
 * season), computed from the ledger: absolute values, so a repeated or late call is harmless. Best effort: a Redis
 * failure is logged (a rebuild repairs it), never thrown.
 */
export async function moveBoards(userIds: string[], now = new Date(), db: DbTx = appDb): Promise<void> {
  try {
    const season = seasonOf(now);
    const writes: (Scored & { key: string })[] = [];
    for (const f of await fanScores(db, userIds, season)) {
      const all = scoreOf(f.points, f.reachedAt);
      const current = scoreOf(f.seasonPoints, f.seasonReachedAt);
      if (f.reachedAt) writes.push({ key: boardKey("global", "all"), member: f.userId, score: all });
      if (f.seasonReachedAt) writes.push({ key: boardKey("global", season.id), member: f.userId, score: current });
      for (const t of f.teams) {
        writes.push({ key: boardKey(teamBoard(t), "all"), member: f.userId, score: all });
        writes.push({ key: boardKey(teamBoard(t), season.id), member: f.userId, score: current });
      }
    }
    await inTime(async () => {
      const [store, feed] = await Promise.all([boardStore(), boardFeed()]);
      // Sent together, in this order, they leave in one write to Redis and come back in one round trip.
      await Promise.all([store.set(writes), feed.append(writes)]);
    });
  } catch (error) {
    log("warn", { msg: "leaderboards not moved; a rebuild repairs them", userIds, error: String(error) });
  }
}

/**
 * Redis work a request waits for, bounded like the rate limiter (RATE_LIMIT_TIMEOUT_MS): a Redis that is down or slow
 * costs a write that long at most, never its answer (the work may still finish after).
 */
function inTime(work: () => Promise<void>, ms = env().RATE_LIMIT_TIMEOUT_MS): Promise<void> {
  return within(work(), ms, () => new Error(`no answer from Redis within ${ms} ms`));
}

/** Whose leaderboard entries a request changed (noted through moves.ts): fans whose Rep or teams moved, teams left. */
export interface BoardMoves {
  users: Set<string>;
  left: { userId: string; teamId: string }[];
}

/**
 * A request's board moves (moves.ts), written with those of concurrent requests (lib/db/batch.ts): while
 * one batch is being written, the moves other requests note wait and go together in the next, so N writes at once
 * cost one fanScores statement and one Redis round trip per store instead of N each (an idle server writes a lone
 * move at once). Resolves once the batch holding `moves` is written (best effort: never rejects), so a request still
 * answers after its boards moved.
 */
export const applyBoardMoves: (moves: BoardMoves) => Promise<void> = batchConcurrentCalls(
  async (batch: BoardMoves[]) => {
    const merged: BoardMoves = { users: new Set(batch.flatMap((m) => [...m.users])), left: batch.flatMap((m) => m.left) };
    try {
      await writeMoves(merged, new Date());
    } catch (error) {
      log("warn", { msg: "leaderboards not moved; a rebuild repairs them", error: String(error) });
    }
    return batch.map(() => undefined);
  },
  { max: Number.POSITIVE_INFINITY },
);

/**
 * Fans who left a team come off its boards (this season's and all time; past seasons' stay as they closed), then
 * every noted fan's entries are rewritten.
 */
async function writeMoves(moves: BoardMoves, now: Date): Promise<void> {
  if (moves.left.length) {
    const period = seasonOf(now).id;
    try {
      const removes = moves.left.flatMap(({ userId, teamId }) => [
        { key: boardKey(teamBoard(teamId), "all"), member: userId },
        { key: boardKey(teamBoard(teamId), period), member: userId },
      ]);
      await inTime(async () => {
        await (await boardStore()).remove(removes);
        await (await boardFeed()).append(removes.map((r) => ({ ...r, score: LEFT })));
      });
    } catch (error) {
      log("warn", { msg: "team boards not updated; a rebuild repairs them", left: moves.left, error: String(error) });
    }
  }
  if (moves.users.size) await moveBoards([...moves.users], now);
}

const ERASURE_BOARD_TIMEOUT_MS = 5_000;

/**
 * An erased account (lib/core/accounts) comes off every board in the store, current and past periods (the closed seasons'
 * winners, rows in the database, stay), and live streams hear it left. Best effort, like every board write, but the
 * erasure cron waits for it up to ERASURE_BOARD_TIMEOUT_MS rather than a request's Redis budget (a loaded Redis may
 * take longer than that to go through every board).
 */
export async function takeOffBoards(userId: string): Promise<void> {
  try {
    await inTime(async () => {
      const store = await boardStore();
      const removes = (await store.keys(`${prefix()}:`)).map((key) => ({ key, member: userId }));
      // Only the boards it was on hear it left (a stream of another board must not).
      const removed = await store.remove(removes);
      if (removed.length) await (await boardFeed()).append(removed.map((r) => ({ ...r, score: LEFT })));
    }, ERASURE_BOARD_TIMEOUT_MS);
  } catch (error) {
    log("warn", { msg: "erased account not taken off the leaderboards; a rebuild repairs them", userId, error: String(error) });
  }
}

// Rebuild and drift ----------------------------------------------------------------------------------------------

const LEDGER_PAGE = 10_000;

/** Every fan's entry on the global board of a period, from the ledger, a page at a time. */
async function* globalEntries(db: DbTx, season: Season | null): AsyncIterable<Scored[]> {
  let after: string | null = null;
  for (;;) {
    const rows: BoardRow[] = await ledgerScores(db, season, after, LEDGER_PAGE);
    if (!rows.length) return;
    yield rows.map((r) => ({ member: r.userId, score: packScore(r.points, r.reachedAt) }));
    after = rows[rows.length - 1]!.userId;
  }
}

/** Each live team's board entries (all time and `season`), from the ledger. */
async function teamEntries(db: DbTx, season: Season): Promise<Map<string, { all: Scored[]; season: Scored[] }>> {
  const teams = new Map<string, { all: Scored[]; season: Scored[] }>();
  const memberships = await teamMembers(db);
  const ids = [...new Set(memberships.flatMap((m) => m.userIds))];
  const scores = new Map<string, { all: number; season: number }>();
  for (let i = 0; i < ids.length; i += LEDGER_PAGE) {
    for (const f of await fanScores(db, ids.slice(i, i + LEDGER_PAGE), season)) {
      scores.set(f.userId, { all: scoreOf(f.points, f.reachedAt), season: scoreOf(f.seasonPoints, f.seasonReachedAt) });
    }
  }
  for (const m of memberships) {
    teams.set(m.teamId, {
      all: m.userIds.map((u) => ({ member: u, score: scores.get(u)?.all ?? 0 })),
      season: m.userIds.map((u) => ({ member: u, score: scores.get(u)?.season ?? 0 })),
    });
  }
  return teams;
}

async function* once<T>(value: T): AsyncIterable<T> {
  yield value;
}

/** The boards the ledger says should exist now: global and each live team's, all time and this season. */
async function expectedBoards(db: DbTx, now: Date) {
  const season = seasonOf(now);
  const boards: { board: string; period: string; chunks: () => AsyncIterable<Scored[]> }[] = [
    { board: "global", period: "all", chunks: () => globalEntries(db, null) },
    { board: "global", period: season.id, chunks: () => globalEntries(db, season) },
  ];
  for (const [teamId, e] of await teamEntries(db, season)) {
    boards.push({ board: teamBoard(teamId), period: "all", chunks: () => once(e.all) });
    boards.push({ board: teamBoard(teamId), period: season.id, chunks: () => once(e.season) });
  }
  return boards;
}

/**
 * Rewrites every current board from the ledger (staff action and tests): global and each live team's, all time and
 * this season; a board with no entries left (a team nobody joined any more) is removed. A staff rebuild (actor) is
 * audited when it starts (`leaderboard.rebuild`): the boards live in Redis, so the entry cannot share their writes'
 * transaction.
 */
export async function rebuildBoards(db: DbTx = appDb, actor: StaffActor | null = null, now = new Date()) {
  const store = await boardStore();
  const season = seasonOf(now);
  if (actor) await recordAudit(db, actor, { action: "leaderboard.rebuild", targetType: "leaderboard", targetId: "all", after: { season: season.id } });
  // The ledger may be read on a replica, once it has replayed every write committed before the rebuild began
  // (readCaughtUp): the boards it writes are as fresh as a read on the primary; the moves that land while it runs are
  // as before. A replica failing mid-way runs the whole rewrite again on the primary (each board is replaced).
  const { result, written } = await readCaughtUp(async (ledger) => {
    const result: { board: string; period: string; entries: number }[] = [];
    const written = new Set<string>();
    for (const b of await expectedBoards(ledger, now)) {
      let entries = 0;
      const counted = async function* () {
        for await (const chunk of b.chunks()) {
          entries += chunk.length;
          yield chunk;
        }
      };
      await store.replace(boardKey(b.board, b.period), counted());
      written.add(boardKey(b.board, b.period));
      result.push({ board: b.board, period: b.period, entries });
    }
    return { result, written };
  }, db as Db);
  // Boards written before the store kept its registry of boards (docs/decisions/0073-redis-cluster.md): the previous
  // season's are still served, so takeOffBoards must find them too.
  const previous = previousSeason(season).id;
  await store.register(result.filter((b) => b.period === season.id).map((b) => boardKey(b.board, previous)));
  for (const key of await store.keys(`${prefix()}:`)) {
    if (!written.has(key) && (key.endsWith(":all") || key.endsWith(`:${season.id}`))) await store.replace(key, once([]));
  }
  return { boards: result };
}

/** Compares every current board with the ledger: entries missing, extra, or with another score. */
export async function checkBoards(db: DbTx = appDb, now = new Date()) {
  const store = await boardStore();
  const boards = [];
  for (const b of await expectedBoards(db, now)) {
    const expected = new Map<string, number>();
    for await (const chunk of b.chunks()) for (const e of chunk) expected.set(e.member, e.score);
    const key = boardKey(b.board, b.period);
    let missing = 0;
    let extra = 0;
    let wrong = 0;
    const seen = new Set<string>();
    for (let position = 0; ; position += LEDGER_PAGE) {
      const got = await store.range(key, position, LEDGER_PAGE);
      for (const e of got) {
        seen.add(e.member);
        const want = expected.get(e.member);
        if (want === undefined) extra++;
        else if (want !== e.score) wrong++;
      }
      if (got.length < LEDGER_PAGE) break;
    }
    for (const member of expected.keys()) if (!seen.has(member)) missing++;
    boards.push({ board: b.board, period: b.period, expected: expected.size, missing, extra, wrong });
  }
  return { boards, drift: boards.some((b) => b.missing + b.extra + b.wrong > 0) };
}

// Seasons' winners -------------------------------------------------------------------------------------------------

export const GLOBAL_WINNERS = 10;
export const TEAM_WINNERS = 3;

/**
 * Closes every finished season since the first Rep entry's that is not closed yet (closeSeason: one statement each,
 * whose claim makes a second or concurrent run write nothing): 10 winners on the global board, 3 per live team.
 */
export async function closeSeasons(db: DbTx = appDb, now = new Date()) {
  const first = await firstEntryAt(db);
  const closed: { seasonId: string; winners: number }[] = [];
  if (!first) return { closed };
  const current = seasonOf(now);
  const finished: Season[] = [];
  for (let s = seasonOf(first); s.startsAt < current.startsAt; s = seasonOf(s.endsAt)) finished.push(s);
  // Only seasons not closed yet get the statement (it reads a month of the ledger); its claim still decides.
  const already = await closedSeasons(
    db,
    finished.map((s) => s.id),
  );
  for (const s of finished.filter((f) => !already.has(f.id))) {
    const row = await closeSeason(db, s, now, { global: GLOBAL_WINNERS, team: TEAM_WINNERS });
    if (row?.claimed) closed.push({ seasonId: s.id, winners: row.winners });
  }
  return { closed };
}

function decodeSeasonCursor(cursor: string) {
  const { sortKey } = decodeCursor(cursor);
  if (!seasonById(sortKey)) throw invalidCursor();
  return sortKey;
}

/** GET /api/leaderboard/winners: closed seasons' winners on a board, newest season first (keyset on the season). */
export async function listWinners(db: DbTx, q: { board: string; season?: string; cursor?: string; limit: number }) {
  const before = q.cursor ? decodeSeasonCursor(q.cursor) : null;
  const seasons = await closedSeasonsPage(db, q.season ?? null, before, q.limit + 1);
  const shown = seasons.slice(0, q.limit);
  const rows = await winnersOf(
    db,
    q.board,
    shown.map((s) => s.id),
  );
  const fans = await fanMap(
    db,
    rows.map((r) => r.userId),
  );
  const last = shown[shown.length - 1];
  return {
    board: q.board,
    seasons: shown.map((s) => ({
      season: seasonView(seasonById(s.id)!, true),
      winners: rows
        .filter((r) => r.seasonId === s.id)
        .map((r) => ({ rank: r.rank, points: r.points, reachedAt: r.reachedAt.toISOString(), fan: toFan(fans.get(r.userId), r.userId) })),
    })),
    ...(seasons.length > q.limit && last ? { nextCursor: encodeCursor(last.id, last.id) } : {}),
  };
}
