import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { mutingSql } from "../mutes/service";
import { actorJsonSql, actorNameSql, insertNotifications } from "../notifications/service";
import type { Relationship, UserRef } from "./schemas";

// Following fans' statements. Every write of user_follows or follow_requests runs in a transaction that first took
// both users' rows (lockPair: in id order, the order the counters' trigger takes them in too), so a follow, an
// unfollow, an acceptance and a block of the same two fans are serialized and never deadlock. The counts on the
// users rows are the trigger's (see the migration `follows`); no statement here touches them.

const userWhere = (ref: UserRef) => ("id" in ref ? Prisma.sql`u.id = ${ref.id}::uuid` : Prisma.sql`u.handle_key = ${ref.handleKey}`);
const viewerSql = (viewerId: string | null) => (viewerId ? Prisma.sql`${viewerId}::uuid` : Prisma.sql`NULL::uuid`);

/** Either of the two users blocked the other (a, b: SQL uuids). */
const blockedEitherWay = (a: Prisma.Sql, b: Prisma.Sql) => Prisma.sql`EXISTS (
  SELECT 1 FROM user_blocks bl WHERE (bl.blocker_id = ${a} AND bl.blocked_id = ${b}) OR (bl.blocker_id = ${b} AND bl.blocked_id = ${a}))`;

export interface TargetRow {
  id: string;
  isPrivate: boolean;
  /** The viewer follows them (false without a viewer). */
  viewerFollows: boolean;
  /** A block stands between the viewer and them, either way (false without a viewer). */
  blocked: boolean;
}

/** The user a path names, with how the viewer stands with them; none when there is no such user. */
export async function targetOf(db: RawDb | DbTx, viewerId: string | null, ref: UserRef): Promise<TargetRow | undefined> {
  const me = viewerSql(viewerId);
  const [row] = await raw(db).$queryRaw<TargetRow[]>`
    SELECT u.id::text AS id, u.is_private AS "isPrivate",
           EXISTS (SELECT 1 FROM user_follows f WHERE f.follower_id = ${me} AND f.followee_id = u.id) AS "viewerFollows",
           ${blockedEitherWay(me, Prisma.sql`u.id`)} AS blocked
    FROM users u WHERE ${userWhere(ref)}`;
  return row;
}

export interface ProfileRow extends TargetRow {
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  avatarThumbhash: string | null;
  bannerUrl: string | null;
  bannerThumbhash: string | null;
  bio: string | null;
  followersCount: number;
  followingCount: number;
  favoriteTeamIds: string[];
  createdAt: Date;
}

/** A user's public profile fields and counts, with how the viewer stands with them (one statement). */
export async function profileOf(db: RawDb | DbTx, viewerId: string | null, ref: UserRef): Promise<ProfileRow | undefined> {
  const me = viewerSql(viewerId);
  const [row] = await raw(db).$queryRaw<ProfileRow[]>`
    SELECT u.id::text AS id, u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl", u.avatar_thumbhash AS "avatarThumbhash",
           u.banner_url AS "bannerUrl", u.banner_thumbhash AS "bannerThumbhash", u.bio, u.is_private AS "isPrivate",
           u.follower_count AS "followersCount", u.following_count AS "followingCount", u.created_at AS "createdAt",
           ARRAY(SELECT ft.team_id FROM favorite_teams ft WHERE ft.user_id = u.id ORDER BY ft.position, ft.created_at) AS "favoriteTeamIds",
           EXISTS (SELECT 1 FROM user_follows f WHERE f.follower_id = ${me} AND f.followee_id = u.id) AS "viewerFollows",
           ${blockedEitherWay(me, Prisma.sql`u.id`)} AS blocked
    FROM users u WHERE ${userWhere(ref)}`;
  return row;
}

/**
 * Takes both users' rows (FOR NO KEY UPDATE, as lockUser in lib/db/tx.ts, in id order) and answers them; fewer than two
 * rows when one does not exist.
 */
export function lockPair(tx: RawDb | DbTx, a: string, b: string) {
  return raw(tx).$queryRaw<{ id: string; isPrivate: boolean }[]>`
    SELECT id::text AS id, is_private AS "isPrivate" FROM users WHERE id IN (${a}::uuid, ${b}::uuid) ORDER BY id FOR NO KEY UPDATE`;
}

/** Whether either of the two blocked the other. */
export async function blockedBetween(db: RawDb | DbTx, a: string, b: string): Promise<boolean> {
  const [row] = await raw(db).$queryRaw<{ blocked: boolean }[]>`SELECT ${blockedEitherWay(Prisma.sql`${a}::uuid`, Prisma.sql`${b}::uuid`)} AS blocked`;
  return row!.blocked;
}

/** Starts a follow; false when it existed already. */
export async function insertFollow(tx: RawDb | DbTx, followerId: string, followeeId: string): Promise<boolean> {
  const rows = await raw(tx).$queryRaw<unknown[]>`
    INSERT INTO user_follows (follower_id, followee_id) VALUES (${followerId}::uuid, ${followeeId}::uuid)
    ON CONFLICT DO NOTHING RETURNING 1`;
  return rows.length > 0;
}

/** Files a follow request; false when one was pending already. */
export async function insertRequest(tx: RawDb | DbTx, requesterId: string, targetId: string): Promise<boolean> {
  const rows = await raw(tx).$queryRaw<unknown[]>`
    INSERT INTO follow_requests (requester_id, target_id) VALUES (${requesterId}::uuid, ${targetId}::uuid)
    ON CONFLICT DO NOTHING RETURNING 1`;
  return rows.length > 0;
}

/** Ends the follow and withdraws a pending request of `followerId` towards `followeeId`. */
export const deleteFollowAndRequest = (tx: RawDb | DbTx, followerId: string, followeeId: string) =>
  raw(tx).$executeRaw`
    WITH r AS (DELETE FROM follow_requests WHERE requester_id = ${followerId}::uuid AND target_id = ${followeeId}::uuid)
    DELETE FROM user_follows WHERE follower_id = ${followerId}::uuid AND followee_id = ${followeeId}::uuid`;

/** Removes a pending request and answers whether there was one. */
export async function deleteRequest(tx: RawDb | DbTx, requesterId: string, targetId: string): Promise<boolean> {
  const rows = await raw(tx).$queryRaw<unknown[]>`
    DELETE FROM follow_requests WHERE requester_id = ${requesterId}::uuid AND target_id = ${targetId}::uuid RETURNING 1`;
  return rows.length > 0;
}

/** A block's consequences: the follows both ways and the pending requests both ways are gone. */
export const deleteAllBetween = (tx: RawDb | DbTx, a: string, b: string) =>
  raw(tx).$executeRaw`
    WITH r AS (
      DELETE FROM follow_requests
      WHERE (requester_id = ${a}::uuid AND target_id = ${b}::uuid) OR (requester_id = ${b}::uuid AND target_id = ${a}::uuid)
    )
    DELETE FROM user_follows
    WHERE (follower_id = ${a}::uuid AND followee_id = ${b}::uuid) OR (follower_id = ${b}::uuid AND followee_id = ${a}::uuid)`;

/** Who asked to follow the user (pending requests), for taking their rows before accepting them all. */
export async function requesterIdsOf(tx: RawDb | DbTx, targetId: string): Promise<string[]> {
  const rows = await raw(tx).$queryRaw<{ id: string }[]>`SELECT requester_id::text AS id FROM follow_requests WHERE target_id = ${targetId}::uuid`;
  return rows.map((r) => r.id);
}

/** Takes the users' rows (FOR NO KEY UPDATE, as lockUser) in id order. */
export const lockUsers = (tx: RawDb | DbTx, ids: string[]) =>
  raw(tx).$queryRaw<unknown[]>`SELECT 1 FROM users WHERE id = ANY(${ids}::uuid[]) ORDER BY id FOR NO KEY UPDATE`;

/** Every pending request to the user becomes a follow (one statement); answers how many. */
export const acceptAllRequests = (tx: RawDb | DbTx, targetId: string) =>
  raw(tx).$executeRaw`
    WITH moved AS (DELETE FROM follow_requests WHERE target_id = ${targetId}::uuid RETURNING requester_id)
    INSERT INTO user_follows (follower_id, followee_id) SELECT requester_id, ${targetId}::uuid FROM moved
    ON CONFLICT DO NOTHING`;

/**
 * Tells `recipientId` about a new follower (FOLLOW) or a follow request (FOLLOW_REQUEST) from `actorId`, when their
 * notifyCommunity is on, like the locker room's REPLY and REACTION. The cause is the actor: unfollowing and following
 * again (or asking again) never notifies twice. The inbox groups both per UTC day.
 */
export function notifyFollow(tx: RawDb | DbTx, type: "FOLLOW" | "FOLLOW_REQUEST", recipientId: string, actorId: string) {
  const [cause, verb, body, href] =
    type === "FOLLOW"
      ? ["follow:", " followed you", "You have a new follower.", Prisma.sql`'/api/v1/users/' || a.id::text`]
      : ["follow_request:", " asked to follow you", "Accept or reject the request.", Prisma.sql`'/api/v1/me/follow-requests'`];
  return insertNotifications(raw(tx), {
    type,
    recipient: Prisma.sql`u.id`,
    cause: Prisma.sql`${cause}::text || a.id::text`,
    actor: Prisma.sql`a.id`,
    payload: Prisma.sql`jsonb_build_object('actor', ${actorJsonSql()},
                              'title', ${actorNameSql()} || ${verb}::text, 'body', ${body}::text, 'href', ${href})`,
    from: Prisma.sql`FROM users u JOIN users a ON a.id = ${actorId}::uuid
    WHERE u.id = ${recipientId}::uuid AND u.notify_community`,
  });
}

/**
 * How `me` stands with each of `ids` (existing users only, in the order given), in one statement whose cost does not
 * grow with how many fans `me` follows or is followed by: the follow flags and the mute are primary-key probes per id
 * (scalar subqueries, never a scan of `me`'s follows or followers, which a hashed subplan or an array of them would
 * read whole); a user's requests and blocks are few, so each is one index read of `me`'s rows into an array. The ids
 * are sent once (the `asked` CTE): each array parameter costs Node and PostgreSQL a parse of every id.
 */
export function relationshipsOf(db: RawDb | DbTx, me: string, ids: string[]): Promise<Relationship[]> {
  const asked = Prisma.sql`(SELECT ids FROM asked)::uuid[]`;
  return raw(db).$queryRaw<Relationship[]>`
    WITH asked AS (SELECT ${ids}::uuid[] AS ids)
    SELECT u.id::text AS id,
           COALESCE((SELECT true FROM user_follows f WHERE f.follower_id = ${me}::uuid AND f.followee_id = u.id), false) AS following,
           COALESCE((SELECT true FROM user_follows f WHERE f.follower_id = u.id AND f.followee_id = ${me}::uuid), false) AS "followedBy",
           u.id = ANY(s.requested) AS requested, u.id = ANY(s.blocking) AS blocking, u.id = ANY(s.blocked_by) AS "blockedBy",
           ${mutingSql(me, Prisma.sql`u.id`)} AS muting
    FROM unnest(${asked}) WITH ORDINALITY AS t(id, ord)
    JOIN users u ON u.id = t.id
    CROSS JOIN (
      SELECT ARRAY(SELECT target_id FROM follow_requests WHERE requester_id = ${me}::uuid AND target_id = ANY(${asked})) AS requested,
             ARRAY(SELECT blocked_id FROM user_blocks WHERE blocker_id = ${me}::uuid AND blocked_id = ANY(${asked})) AS blocking,
             ARRAY(SELECT blocker_id FROM user_blocks WHERE blocked_id = ${me}::uuid AND blocker_id = ANY(${asked})) AS blocked_by
    ) s
    ORDER BY t.ord`;
}

export interface ListedUserRow {
  id: string;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  at: Date;
}

export const toListedUser =
  <K extends string>(key: K) =>
  (r: ListedUserRow) =>
    ({ id: r.id, handle: r.handle, displayName: r.displayName, avatarUrl: r.avatarUrl, [key]: r.at.toISOString() }) as {
      id: string;
      handle: string | null;
      displayName: string | null;
      avatarUrl: string | null;
    } & Record<K, string>;

/** Users in a block relation with the viewer are left out of lists (a page may then hold fewer; the cursor still continues). */
const notBlockedWith = (viewerId: string | null, column: Prisma.Sql) =>
  viewerId
    ? Prisma.sql`AND ${column} <> ALL(ARRAY(SELECT b.blocked_id FROM user_blocks b WHERE b.blocker_id = ${viewerId}::uuid
                                          UNION ALL
                                          SELECT b.blocker_id FROM user_blocks b WHERE b.blocked_id = ${viewerId}::uuid))`
    : Prisma.empty;

type After = { at: Date; id: string } | undefined;

/**
 * One keyset page of a follow list, newest first: `followers` of the user (index followee_id, created_at, follower_id)
 * or whom the user is `following` (index follower_id, created_at, followee_id).
 */
export function followPage(db: RawDb | DbTx, which: "followers" | "following", userId: string, viewerId: string | null, after: After, take: number) {
  const [own, other] = which === "followers" ? [Prisma.sql`f.followee_id`, Prisma.sql`f.follower_id`] : [Prisma.sql`f.follower_id`, Prisma.sql`f.followee_id`];
  const keyset = after ? Prisma.sql`AND (f.created_at, ${other}) < (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<ListedUserRow[]>`
    SELECT u.id::text AS id, u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl", f.created_at AS at
    FROM user_follows f JOIN users u ON u.id = ${other}
    WHERE ${own} = ${userId}::uuid ${keyset} ${notBlockedWith(viewerId, other)}
    ORDER BY f.created_at DESC, ${other} DESC
    LIMIT ${take}`;
}

/** One keyset page of the pending requests to the user, newest first (index target_id, created_at, requester_id). */
export function requestPage(db: RawDb | DbTx, userId: string, after: After, take: number) {
  const keyset = after ? Prisma.sql`AND (r.created_at, r.requester_id) < (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<ListedUserRow[]>`
    SELECT u.id::text AS id, u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl", r.created_at AS at
    FROM follow_requests r JOIN users u ON u.id = r.requester_id
    WHERE r.target_id = ${userId}::uuid ${keyset}
    ORDER BY r.created_at DESC, r.requester_id DESC
    LIMIT ${take}`;
}
