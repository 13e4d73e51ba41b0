import type { DbTx } from "../db/client";
import { decodeTimeCursor, encodeCursor, invalidCursor } from "../http/cursor";
import { UUID_PATTERN } from "../http/schemas";

// Read-only lists about the caller: team joins and follows, quest history, the unminted NFT queue.

/** Joined (leaderboard entries) and followed (social follows) team ids, each oldest first. Stars are not included. */
export async function getUserTeams(db: DbTx, userId: string) {
  const [joined, followed] = await Promise.all([
    db.teamMember.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { teamId: "asc" }], select: { teamId: true } }),
    db.teamFollow.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { teamId: "asc" }], select: { teamId: true } }),
  ]);
  return { joinedTeamIds: joined.map((r) => r.teamId), followedTeamIds: followed.map((r) => r.teamId) };
}

interface CompletionRow {
  questId: string;
  slug: string;
  title: string;
  description: string | null;
  teamId: string | null;
  repReward: number;
  isDaily: boolean;
  completedAt: Date;
}

/** Quest history, newest first (completedAt desc, questId desc), keyset-paginated. */
export async function listCompletedQuests(db: DbTx, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeTimeCursor(cursor) : undefined;
  const rows = after
    ? await db.$queryRaw<CompletionRow[]>`
        SELECT q.id AS "questId", q.slug, q.title, q.description, q.team_id AS "teamId", q.rep_reward AS "repReward",
               q.is_daily AS "isDaily", c.completed_at AS "completedAt"
        FROM quest_completions c JOIN quests q ON q.id = c.quest_id
        WHERE c.user_id = ${userId}::uuid AND (c.completed_at, c.quest_id) < (${after.at}::timestamptz, ${after.id}::text)
        ORDER BY c.completed_at DESC, c.quest_id DESC LIMIT ${limit + 1}`
    : await db.$queryRaw<CompletionRow[]>`
        SELECT q.id AS "questId", q.slug, q.title, q.description, q.team_id AS "teamId", q.rep_reward AS "repReward",
               q.is_daily AS "isDaily", c.completed_at AS "completedAt"
        FROM quest_completions c JOIN quests q ON q.id = c.quest_id
        WHERE c.user_id = ${userId}::uuid
        ORDER BY c.completed_at DESC, c.quest_id DESC LIMIT ${limit + 1}`;
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    quests: items.map((r) => ({ ...r, completedAt: r.completedAt.toISOString() })),
    ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.completedAt.getTime(), last.questId) } : {}),
  };
}

interface MintRow {
  id: string;
  itemType: string;
  itemId: string;
  name: string;
  imageUrl: string | null;
  status: "pending" | "minting";
  createdAt: Date;
}

/** The unminted queue (status pending or minting), oldest first (createdAt asc, id asc), keyset-paginated. */
export async function listPendingNfts(db: DbTx, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeTimeCursor(cursor) : undefined;
  if (after && !UUID_PATTERN.test(after.id)) throw invalidCursor();
  const rows = after
    ? await db.$queryRaw<MintRow[]>`
        SELECT m.id::text AS id, m.item_type AS "itemType", m.item_id AS "itemId", m.name, m.image_url AS "imageUrl",
               m.status::text AS status, m.created_at AS "createdAt"
        FROM nft_mints m
        WHERE m.user_id = ${userId}::uuid AND m.status IN ('pending', 'minting')
          AND (m.created_at, m.id) > (${after.at}::timestamptz, ${after.id}::uuid)
        ORDER BY m.created_at, m.id LIMIT ${limit + 1}`
    : await db.$queryRaw<MintRow[]>`
        SELECT m.id::text AS id, m.item_type AS "itemType", m.item_id AS "itemId", m.name, m.image_url AS "imageUrl",
               m.status::text AS status, m.created_at AS "createdAt"
        FROM nft_mints m
        WHERE m.user_id = ${userId}::uuid AND m.status IN ('pending', 'minting')
        ORDER BY m.created_at, m.id LIMIT ${limit + 1}`;
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    nfts: items.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.createdAt.getTime(), last.id) } : {}),
  };
}
