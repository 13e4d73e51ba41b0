import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { mutedAuthorSql, notMutedActorSql } from "../../core/mutes/service";
import { actorJsonSql, actorNameSql, insertNotifications, threadNotMutedSql } from "../../core/notifications/service";

// Reactions: one row per user and post; the post's reaction_counts moves with each change, under the post's lock.

export async function reactionOf(tx: DbTx, postId: string, userId: string): Promise<string | null> {
  const [row] = await tx.$queryRaw<{ kind: string }[]>`SELECT kind FROM post_reactions WHERE post_id = ${postId}::uuid AND user_id = ${userId}::uuid`;
  return row?.kind ?? null;
}

export const upsertReaction = (tx: DbTx, postId: string, userId: string, kind: string) =>
  tx.$executeRaw`
    INSERT INTO post_reactions (post_id, user_id, kind) VALUES (${postId}::uuid, ${userId}::uuid, ${kind})
    ON CONFLICT (post_id, user_id) DO UPDATE SET kind = EXCLUDED.kind, created_at = now()`;

export const deleteReaction = (tx: DbTx, postId: string, userId: string) =>
  tx.$executeRaw`DELETE FROM post_reactions WHERE post_id = ${postId}::uuid AND user_id = ${userId}::uuid`;

/** Moves the post's counts: one less `from`, one more `to` (either may be null); kinds at zero are dropped. */
export async function moveCounts(tx: DbTx, postId: string, from: string | null, to: string | null): Promise<Record<string, number>> {
  const [row] = await tx.$queryRaw<{ counts: Record<string, number> }[]>`
    UPDATE posts SET reaction_counts = (
      SELECT COALESCE(jsonb_object_agg(k, n), '{}') FROM (
        SELECT k, sum(n)::int AS n FROM (
          SELECT key AS k, value::int AS n FROM jsonb_each_text(reaction_counts)
          UNION ALL SELECT ${from}::text, -1 WHERE ${from}::text IS NOT NULL
          UNION ALL SELECT ${to}::text, 1 WHERE ${to}::text IS NOT NULL) d
        GROUP BY k HAVING sum(n) > 0) c)
    WHERE id = ${postId}::uuid
    RETURNING reaction_counts AS counts`;
  return row!.counts;
}

export async function countsOf(tx: DbTx, postId: string): Promise<Record<string, number>> {
  const [row] = await tx.$queryRaw<{ counts: Record<string, number> }[]>`SELECT reaction_counts AS counts FROM posts WHERE id = ${postId}::uuid`;
  return row!.counts;
}

/**
 * Tells the post's author about a first reaction by `userId` (REACTION, grouped per post in the inbox), when their
 * notifyCommunity is on, it is not their own post, and neither the post's thread nor the reactor is muted by them
 * (lib/core/mutes). The cause is the reactor and the post: reacting again, or
 * after removing a reaction, never notifies twice.
 */
export const notifyReaction = (tx: DbTx, postId: string, userId: string, kind: string) =>
  insertNotifications(tx, {
    type: "REACTION",
    recipient: Prisma.sql`p.author_id`,
    cause: Prisma.sql`'reaction:' || p.id || ':' || a.id`,
    actor: Prisma.sql`a.id`,
    payload: Prisma.sql`jsonb_build_object('postId', p.id::text, 'kind', ${kind}::text,
                              'actor', ${actorJsonSql()},
                              'title', ${actorNameSql()} || ' reacted to your post', 'body', left(p.content, 140),
                              'href', '/api/locker-room/' || p.id)`,
    from: Prisma.sql`FROM posts p JOIN users u ON u.id = p.author_id JOIN users a ON a.id = ${userId}::uuid
    WHERE p.id = ${postId}::uuid AND p.author_id <> a.id AND u.notify_community
      AND ${threadNotMutedSql(Prisma.sql`p.author_id`, Prisma.sql`p.id`)}
      AND ${notMutedActorSql(Prisma.sql`p.author_id`, Prisma.sql`a.id`)}`,
  });

export interface ReactorRow {
  userId: string;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  kind: string;
  createdAt: Date;
}

/**
 * Who reacted, newest first (keyset on created_at, user id), without users in a block relation with `viewerId`. Each
 * row says whether the viewer mutes the reactor (`hidden`): the caller leaves those out, so a page may be short and
 * its cursor never skips one.
 */
export function reactorsPage(
  db: RawDb | DbTx,
  postId: string,
  { kind, viewerId, after, take }: { kind?: string; viewerId?: string; after?: { at: Date; id: string }; take: number },
) {
  const where: Prisma.Sql[] = [Prisma.sql`r.post_id = ${postId}::uuid`];
  if (kind) where.push(Prisma.sql`r.kind = ${kind}`);
  if (after) where.push(Prisma.sql`(r.created_at, r.user_id) < (${after.at}, ${after.id}::uuid)`);
  if (viewerId) {
    where.push(Prisma.sql`NOT EXISTS (SELECT 1 FROM user_blocks b WHERE (b.blocker_id = ${viewerId}::uuid AND b.blocked_id = r.user_id)
                                                           OR (b.blocker_id = r.user_id AND b.blocked_id = ${viewerId}::uuid))`);
  }
  return raw(db).$queryRaw<(ReactorRow & { hidden: boolean })[]>`
    SELECT r.user_id::text AS "userId", u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl", r.kind, r.created_at AS "createdAt",
           ${mutedAuthorSql(viewerId, Prisma.sql`r.user_id`)} AS hidden
    FROM post_reactions r JOIN users u ON u.id = r.user_id
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY r.created_at DESC, r.user_id DESC
    LIMIT ${take}`;
}
