import type { AuthUser } from "../../auth/users";
import type { Db } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { readMayLag } from "../../db/replica";
import { DomainError, notFound, sharedErrors } from "../../kernel/errors";
import { decodeCursor, decodeUuidTimeCursor, encodeCursor, invalidCursor } from "../../kernel/cursor";
import { UUID_PATTERN } from "../../kernel/schemas";
import type { Viewer } from "../../core/visibility/service";
import { feed as lockerRoomFeed, newestPostsPage, postListView } from "../lockerroom/service";
import { liveTeamIdOrThrow, toTeamSummary } from "../../core/teams/service";
import { teamSummaries } from "../../core/teams/service";
import { errors as feedsErrors } from "./errors";
import {
  createSnapshot,
  followedOrJoinedTeams,
  followingPage,
  personalizationOn,
  rankedChunks,
  snapshotPage,
  storeRankedSnapshot,
  type FeedRow,
  type RankedChunk,
  type SnapshotPageRow,
} from "./queries";

// The feeds a fan can open (GET /api/v1/feeds) and their pages (GET /api/v1/feeds/{feedId}). Rules:
// docs/domains/feeds.md. Every page serializes posts with the locker room's toPost, and reads them under its
// visibility rule in the statement that reads the page.

/** A ranked snapshot lives this long: a cursor into an older one is 410 FEED_SNAPSHOT_EXPIRED. */
export const SNAPSHOT_TTL_MINUTES = 60;
/** A request without a cursor reuses the caller's snapshot while it is younger than this (no re-ranking). */
export const SNAPSHOT_REUSE_SECONDS = 60;

type FeedId = { kind: "for-you" } | { kind: "following" } | { kind: "team"; teamId: string };

function parseFeedId(feedId: string): FeedId {
  if (feedId === "for-you") return { kind: "for-you" };
  if (feedId === "following") return { kind: "following" };
  const team = /^team:([A-Za-z0-9_-]{1,64})$/.exec(feedId);
  if (team) return { kind: "team", teamId: team[1]! };
  throw notFound("Feed");
}

/** GET /api/v1/feeds: for-you, following and one team feed per team followed or joined; signed out, for-you only. */
export async function listFeeds(db: Db, viewer: AuthUser | null) {
  const forYou = { id: "for-you", kind: "for-you" as const, title: "For you", order: viewer ? ("ranked" as const) : ("newest" as const), team: null };
  if (!viewer) return { feeds: [forYou] };
  const [teams, personalized] = await Promise.all([followedOrJoinedTeams(db, viewer.id), personalizationOn(db, viewer.id)]);
  const summaries = await teamSummaries(
    db,
    teams.map((t) => t.id),
  );
  return {
    feeds: [
      { ...forYou, order: personalized ? ("ranked" as const) : ("newest" as const) },
      { id: "following", kind: "following" as const, title: "Following", order: "newest" as const, team: null },
      ...teams.map((t) => {
        const summary = summaries.get(t.id);
        return { id: `team:${t.id}`, kind: "team" as const, title: t.name, order: "newest" as const, team: summary ? toTeamSummary(summary) : null };
      }),
    ],
  };
}

/** GET /api/v1/feeds/{feedId}: a page of the feed. */
export async function readFeed(db: Db, viewer: AuthUser | null, feedId: string, q: { cursor?: string; limit: number }) {
  const id = parseFeedId(feedId);
  if (id.kind === "team") {
    const teamId = await liveTeamIdOrThrow(db, id.teamId);
    return { feedId: `team:${teamId}`, order: "newest" as const, ...(await lockerRoomFeed(db, viewer, { teamId, cursor: q.cursor, limit: q.limit })) };
  }
  if (id.kind === "following") {
    if (!viewer) throw new DomainError(sharedErrors.UNAUTHORIZED, "Sign in to read the posts of the fans and teams you follow.");
    return { feedId: "following", order: "newest" as const, ...(await following(db, viewer, q)) };
  }
  return { feedId: "for-you", ...(await forYou(db, viewer, q)) };
}

async function following(db: Db, viewer: AuthUser, q: { cursor?: string; limit: number }) {
  const after = q.cursor ? decodeUuidTimeCursor(q.cursor) : undefined;
  return newestPostsPage(db, viewer, await followingPage(db, viewer, after, q.limit + 1), q.limit, "posts");
}

// for-you --------------------------------------------------------------------------------------------------------

/** A ranked cursor: position `position` of snapshot `snapshotId` (sort key "r<position>"). */
const RANKED = /^r(\d{1,7})$/;

function decodeRanked(cursor: string): { snapshotId: string; position: number } | undefined {
  const { sortKey, id } = decodeCursor(cursor);
  const m = RANKED.exec(sortKey);
  if (!m) return undefined;
  if (!UUID_PATTERN.test(id)) throw invalidCursor();
  return { snapshotId: id, position: Number(m[1]) };
}

/**
 * for-you. Signed out, or with analyticsPersonalization off: the chronological feed (the locker room's, no signals).
 * Otherwise a page of the caller's ranked snapshot: the cursor's, else the caller's young one (≤ SNAPSHOT_REUSE_SECONDS),
 * else a new one ranked now (while one is being ranked, other loads get the fan's newest live snapshot instead of
 * waiting). A cursor continues the order it started (a chronological cursor stays chronological).
 */
async function forYou(db: Db, viewer: AuthUser | null, q: { cursor?: string; limit: number }) {
  const ranked = q.cursor ? decodeRanked(q.cursor) : undefined;
  const chronological = async () => ({ order: "newest" as const, ...(await lockerRoomFeed(db, viewer, { cursor: q.cursor, limit: q.limit })) });
  if (!viewer || (q.cursor && !ranked)) return chronological();
  if (ranked) {
    const rows = await snapshotPage(db, viewer, { id: ranked.snapshotId }, ranked.position, q.limit, SNAPSHOT_TTL_MINUTES);
    if (rows.length === 0) {
      throw new DomainError(feedsErrors.FEED_SNAPSHOT_EXPIRED, "This feed's ranking expired: load the feed again without a cursor.");
    }
    return rankedPage(db, viewer, rows, ranked.position, q.limit);
  }
  const lookedAt = Date.now();
  let rows = await snapshotPage(db, viewer, { youngerThanSeconds: SNAPSHOT_REUSE_SECONDS }, 0, q.limit, SNAPSHOT_TTL_MINUTES);
  if (rows.length === 0) {
    if (!(await personalizationOn(db, viewer.id))) return chronological();
    const inFlight = ranking.get(viewer.id);
    if (inFlight && inFlight.doneAt === undefined) {
      // A ranking for this fan is under way (another load started it): answer from their newest live snapshot, if
      // any, rather than wait for it; the load that started it gets the new one.
      const live = await snapshotPage(db, viewer, { youngerThanSeconds: SNAPSHOT_TTL_MINUTES * 60 }, 0, q.limit, SNAPSHOT_TTL_MINUTES);
      if (live.length > 0) return rankedPage(db, viewer, live, 0, q.limit);
    }
    const snapshotId = await rankOnce(db, viewer, lookedAt);
    rows = await snapshotPage(db, viewer, { id: snapshotId }, 0, q.limit, SNAPSHOT_TTL_MINUTES);
  }
  return rankedPage(db, viewer, rows, 0, q.limit);
}

/**
 * Concurrent first loads of one fan in this process share one ranking: a load joins the ranking under way, or one
 * that finished after the load looked for a young snapshot (so its look-up may have missed it). Entries go 5 s after
 * their ranking finished. (Two processes may still each rank once: two valid snapshots, the newer reused.)
 */
const ranking = new Map<string, { snapshot: Promise<string>; doneAt?: number }>();

function rankOnce(db: Db, viewer: AuthUser, lookedAt: number): Promise<string> {
  const current = ranking.get(viewer.id);
  if (current && (current.doneAt === undefined || current.doneAt >= lookedAt)) return current.snapshot;
  const snapshotId = uuidv7();
  const entry: { snapshot: Promise<string>; doneAt?: number } = {
    snapshot: rankSnapshot(db, viewer, snapshotId).then(() => snapshotId),
  };
  const forget = () => {
    if (ranking.get(viewer.id) === entry) ranking.delete(viewer.id);
  };
  entry.snapshot.then(() => {
    entry.doneAt = Date.now();
    setTimeout(forget, 5_000).unref();
  }, forget);
  ranking.set(viewer.id, entry);
  return entry.snapshot;
}

/**
 * Ranks the fan's pool into snapshot `snapshotId`. The ranking is a heavy read that tolerates lag: on a fresh replica
 * (readMayLag; not right after the fan's own write) it is read there and stored on the primary by a second statement;
 * on the primary it stays the one statement that ranks and stores.
 */
async function rankSnapshot(db: Db, viewer: AuthUser, snapshotId: string): Promise<void> {
  const ranked = await readMayLag<number | RankedChunk[]>(
    viewer.id,
    (rankDb, replica) => (replica ? rankedChunks(rankDb, viewer) : createSnapshot(rankDb, viewer, snapshotId, SNAPSHOT_TTL_MINUTES)),
    db,
  );
  if (Array.isArray(ranked)) await storeRankedSnapshot(db, viewer, snapshotId, ranked, SNAPSHOT_TTL_MINUTES);
}

/** The page of positions [from, from + limit): visible posts in rank order, mutes and filters left out (short pages). */
async function rankedPage(db: Db, viewer: Viewer & object, rows: SnapshotPageRow[], from: number, limit: number) {
  const head = rows[0]!;
  const posts = rows.filter((r): r is SnapshotPageRow & FeedRow => r.position !== null && r.position !== undefined);
  const view = await postListView(db, viewer, posts);
  const next = from + limit;
  return {
    order: "ranked" as const,
    posts: posts.filter(view.shown).map(view.show),
    ...(next < head.size ? { nextCursor: encodeCursor(`r${next}`, head.snapshotId) } : {}),
  };
}
