import type { AuthUser } from "../../auth/users";
import type { Db, DbTx } from "../../db/client";
import { rawTransaction, type RawDb } from "../../db/raw";
import { DomainError, notFound } from "../../kernel/errors";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { favoriteTeamsOf } from "../teams/service";
import { errors as followsErrors } from "./errors";
import {
  acceptAllRequests,
  blockedBetween,
  deleteAllBetween,
  deleteFollowAndRequest,
  deleteRequest,
  followPage,
  insertFollow,
  insertRequest,
  lockPair,
  lockUsers,
  notifyFollow,
  profileOf,
  relationshipsOf,
  requesterIdsOf,
  requestPage,
  targetOf,
  toListedUser,
  type ListedUserRow,
  type TargetRow,
} from "./queries";
import type { Relationship, UserRef } from "./schemas";
import { notePushSoon } from "../push/service";
import { sellerReputations } from "../market-data/service";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { targetOf } from "./queries";

// Following fans: profiles, follows, follow requests and relationships.
//
// - A follow is one row of user_follows; the follower and following counts on the users rows are kept by a trigger
//   in the same transaction (exact under any concurrency).
// - A private profile (users.is_private) turns a follow into a request (follow_requests) its owner accepts or
//   rejects. Making the profile public again accepts every pending request (acceptPendingRequests), as Mastodon does
//   when an account is unlocked; making it private keeps the followers it has.
// - A block, either way, refuses follows and requests (403 FOLLOW_BLOCKED), hides the profile and its lists (404, as
//   the locker room hides the posts), and ends the follows and requests both ways in the block's own transaction
//   (endFollowsForBlock, called by lib/core/users).
// - Every write takes both users' rows first, in id order (lockPair), so it reads the block and the private flag as
//   they are and cannot interleave with a block, an acceptance or the profile going public.

export type Viewer = Pick<AuthUser, "id" | "isAdmin"> | null;

const noSuchUser = () => notFound("User");

/** The user a path names as the viewer may reach them: 404 when there is none or a block stands between them. */
async function reachableTarget(db: RawDb | DbTx, viewer: Viewer, ref: UserRef): Promise<TargetRow> {
  const target = await targetOf(db, viewer?.id ?? null, ref);
  if (!target || (target.blocked && !viewer?.isAdmin)) throw noSuchUser();
  return target;
}

/** The viewer sees the profile in full: it is public, their own, they follow it, or they are staff. */
const seesInFull = (viewer: Viewer, t: { id: string; isPrivate: boolean; viewerFollows: boolean }) =>
  !t.isPrivate || t.viewerFollows || viewer?.id === t.id || viewer?.isAdmin === true;

// Profiles ---------------------------------------------------------------------------------------------------------

/** GET /api/v1/users/{userId}: the full profile, or for a private one the viewer does not follow a limited view. */
export async function getUserProfile(db: DbTx, viewer: Viewer, ref: UserRef) {
  const p = await profileOf(db, viewer?.id ?? null, ref);
  if (!p || (p.blocked && !viewer?.isAdmin)) throw noSuchUser();
  const base = {
    id: p.id,
    handle: p.handle,
    displayName: p.displayName,
    avatarUrl: p.avatarUrl,
    avatarThumbhash: p.avatarThumbhash,
    isPrivate: p.isPrivate,
    followersCount: p.followersCount,
    followingCount: p.followingCount,
  };
  if (!seesInFull(viewer, p)) return { ...base, view: "limited" as const };
  return {
    ...base,
    view: "full" as const,
    bio: p.bio,
    bannerUrl: p.bannerUrl,
    bannerThumbhash: p.bannerThumbhash,
    favoriteTeams: await favoriteTeamsOf(db, p.favoriteTeamIds),
    joinedAt: p.createdAt.toISOString(),
    sellerReputation: (await sellerReputations(db, [p.id])).get(p.id),
  };
}

// Follows ----------------------------------------------------------------------------------------------------------

/** The other user's id for a write by `me`: 404 when unknown, 400 when it is `me`. */
async function otherUser(db: RawDb | DbTx, me: string, ref: UserRef): Promise<string> {
  const target = await targetOf(db, me, ref);
  if (!target) throw noSuchUser();
  if (target.id === me) {
    throw new DomainError(followsErrors.CANNOT_FOLLOW_SELF, "You cannot follow yourself.", [{ path: "params.userId", message: "This is you" }]);
  }
  return target.id;
}

async function relationshipWith(db: RawDb | DbTx, me: string, other: string): Promise<Relationship> {
  const [r] = await relationshipsOf(db, me, [other]);
  if (!r) throw noSuchUser();
  return r;
}

/**
 * POST /api/v1/users/{userId}/follow: follows a public profile, or files a request to follow a private one.
 * Idempotent (a follow or request that exists stays as it is, and notifies nothing again). Answers the relationship.
 */
export async function follow(db: Db, me: string, ref: UserRef): Promise<Relationship> {
  const other = await otherUser(db, me, ref);
  return rawTransaction(db, async (tx) => {
    const rows = await lockPair(tx, me, other);
    const target = rows.find((r) => r.id === other);
    if (!target || rows.length < 2) throw noSuchUser();
    if (await blockedBetween(tx, me, other)) {
      throw new DomainError(followsErrors.FOLLOW_BLOCKED, "A block stands between you and this fan: you cannot follow them.");
    }
    const current = await relationshipWith(tx, me, other);
    if (!current.following) {
      if (target.isPrivate) {
        if (await insertRequest(tx, me, other)) await notifyFollow(tx, "FOLLOW_REQUEST", other, me);
      } else if (await insertFollow(tx, me, other)) {
        await notifyFollow(tx, "FOLLOW", other, me);
      }
      notePushSoon(); // pushed right after the answer (the cron alone would take up to a minute)
    }
    return relationshipWith(tx, me, other);
  });
}

/** DELETE /api/v1/users/{userId}/follow: ends the follow and withdraws a pending request (idempotent). */
export async function unfollow(db: Db, me: string, ref: UserRef): Promise<Relationship> {
  const other = await otherUser(db, me, ref);
  return rawTransaction(db, async (tx) => {
    if ((await lockPair(tx, me, other)).length < 2) throw noSuchUser();
    await deleteFollowAndRequest(tx, me, other);
    return relationshipWith(tx, me, other);
  });
}

/** GET /api/v1/users/relationships: how the caller stands with each of the ids (one statement). */
export async function relationships(db: RawDb | DbTx, me: string, ids: string[]) {
  return { relationships: await relationshipsOf(db, me, ids) };
}

// Lists ------------------------------------------------------------------------------------------------------------

const pageCursor = (r: ListedUserRow) => encodeCursor(r.at.getTime(), r.id);

/**
 * GET /api/v1/users/{userId}/followers and /following, newest first: a private profile's lists only to its followers
 * (and itself, and staff); users in a block relation with the viewer are left out.
 */
export async function listFollows(
  db: RawDb | DbTx,
  viewer: Viewer,
  ref: UserRef,
  which: "followers" | "following",
  { cursor, limit }: { cursor?: string; limit: number },
) {
  const after = cursor ? decodeUuidTimeCursor(cursor) : undefined;
  const target = await reachableTarget(db, viewer, ref);
  if (!seesInFull(viewer, target)) {
    throw new DomainError(
      followsErrors.PROFILE_PRIVATE,
      `This profile is private: only its followers see its ${which === "followers" ? "followers" : "follows"}.`,
    );
  }
  const rows = await followPage(db, which, target.id, viewer?.isAdmin ? null : (viewer?.id ?? null), after, limit + 1);
  return keysetPage(which, rows, limit, pageCursor, toListedUser("followedAt"));
}

// Follow requests --------------------------------------------------------------------------------------------------

/** GET /api/v1/me/follow-requests: the pending requests to the caller, newest first. */
export async function listFollowRequests(db: RawDb | DbTx, me: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeUuidTimeCursor(cursor) : undefined;
  const rows = await requestPage(db, me, after, limit + 1);
  return keysetPage("requests", rows, limit, pageCursor, toListedUser("requestedAt"));
}

const noRequest = () => notFound("Follow request");

/** POST /api/v1/me/follow-requests/{userId}/accept: the request becomes a follow (404 when none is pending). */
export async function acceptFollowRequest(db: Db, me: string, ref: UserRef): Promise<Relationship> {
  const target = await targetOf(db, me, ref);
  if (!target) throw noRequest();
  return rawTransaction(db, async (tx) => {
    await lockPair(tx, me, target.id);
    if (!(await deleteRequest(tx, target.id, me))) throw noRequest();
    await insertFollow(tx, target.id, me);
    return relationshipWith(tx, me, target.id);
  });
}

/** POST /api/v1/me/follow-requests/{userId}/reject: the request is dropped (404 when none is pending). */
export async function rejectFollowRequest(db: Db, me: string, ref: UserRef): Promise<Relationship> {
  const target = await targetOf(db, me, ref);
  if (!target) throw noRequest();
  return rawTransaction(db, async (tx) => {
    await lockPair(tx, me, target.id);
    if (!(await deleteRequest(tx, target.id, me))) throw noRequest();
    return relationshipWith(tx, me, target.id);
  });
}

// Called by lib/core/users inside its transactions -----------------------------------------------------------------------

/**
 * A block's part (lib/core/users blockUser, inside the block's transaction, before the block row is written): takes both
 * users' rows in id order, then ends the follows and pending requests both ways. A follow racing with the block waits
 * for the rows and then sees the block.
 */
export async function endFollowsForBlock(tx: RawDb | DbTx, blockerId: string, blockedId: string): Promise<void> {
  await lockPair(tx, blockerId, blockedId);
  await deleteAllBetween(tx, blockerId, blockedId);
}

/**
 * A profile going public (lib/core/users updateSettings, first in its transaction) accepts its pending requests: it takes
 * the user's row and the requesters' in id order (a request needs the user's row, so none is added meanwhile), then
 * moves every request to user_follows in one statement.
 */
export async function acceptPendingRequests(tx: RawDb | DbTx, userId: string): Promise<number> {
  const requesters = await requesterIdsOf(tx, userId);
  await lockUsers(tx, [userId, ...requesters]);
  // All of them, also one filed between the read and the lock (its requester's row is then taken out of order: rare).
  return acceptAllRequests(tx, userId);
}
