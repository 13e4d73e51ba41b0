import type { Db, DbTx } from "../db/client";
import { decodeTimeCursor, encodeCursor, invalidCursor } from "../http/cursor";
import { DomainError } from "../http/errors";
import { UUID_PATTERN } from "../http/schemas";
import type { BlockInput } from "./schemas";

// User blocks: one row per (blocker, blocked), held by the primary key, so blocking is idempotent and concurrent
// blocks of the same user store one row. Unblocking is idempotent too.

interface BlockedRow {
  id: string;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  blockedAt: Date;
}

const toBlocked = (r: BlockedRow) => ({
  id: r.id,
  handle: r.handle,
  displayName: r.displayName,
  avatarUrl: r.avatarUrl,
  blockedAt: r.blockedAt.toISOString(),
});

const noSuchUser = (path: string) =>
  new DomainError("NOT_FOUND", "No user with that id or handle.", [{ path, message: "Unknown user" }]);

/** The user the body names: by id, by handle, or both (then they must agree). */
async function resolveTarget(db: DbTx, input: BlockInput): Promise<string> {
  let byId: string | undefined;
  let byHandle: string | undefined;
  if (input.blockedUserId !== undefined) {
    const row = await db.user.findUnique({ where: { id: input.blockedUserId }, select: { id: true } });
    if (!row) throw noSuchUser("body.blockedUserId");
    byId = row.id;
  }
  if (input.handle !== undefined) {
    const row = await db.user.findUnique({ where: { handleKey: input.handle.toLowerCase() }, select: { id: true } });
    if (!row) throw noSuchUser("body.handle");
    byHandle = row.id;
  }
  if (byId && byHandle && byId !== byHandle) {
    throw new DomainError("VALIDATION_ERROR", "blockedUserId and handle name different users; send one of them.", [
      { path: "body.handle", message: "Names a different user than blockedUserId" },
    ]);
  }
  return (byId ?? byHandle)!;
}

async function blockedEntry(db: DbTx, blockerId: string, blockedId: string) {
  const [row] = await db.$queryRaw<BlockedRow[]>`
    SELECT u.id::text AS id, u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl", b.created_at AS "blockedAt"
    FROM user_blocks b JOIN users u ON u.id = b.blocked_id
    WHERE b.blocker_id = ${blockerId}::uuid AND b.blocked_id = ${blockedId}::uuid`;
  return row;
}

export async function blockUser(db: Db, blockerId: string, input: BlockInput) {
  const blockedId = await resolveTarget(db, input);
  if (blockedId === blockerId) {
    throw new DomainError("CANNOT_BLOCK_SELF", "You cannot block yourself.", [
      { path: input.blockedUserId !== undefined ? "body.blockedUserId" : "body.handle", message: "This is you" },
    ]);
  }
  // ON CONFLICT DO NOTHING: a repeat (or a concurrent duplicate) keeps the first row and its blockedAt.
  await db.userBlock.createMany({ data: [{ blockerId, blockedId }], skipDuplicates: true });
  const row = await blockedEntry(db, blockerId, blockedId);
  // Only if the blocked account was deleted between the two statements.
  if (!row) throw noSuchUser(input.blockedUserId !== undefined ? "body.blockedUserId" : "body.handle");
  return { blocked: true as const, user: toBlocked(row) };
}

export async function unblockUser(db: Db, blockerId: string, blockedId: string) {
  await db.userBlock.deleteMany({ where: { blockerId, blockedId } });
  return { blocked: false as const, userId: blockedId };
}

/** The caller's blocks, most recent first (blockedAt desc, blocked user id desc), keyset-paginated. */
export async function listBlocks(db: DbTx, blockerId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeTimeCursor(cursor) : undefined;
  if (after && !UUID_PATTERN.test(after.id)) throw invalidCursor();
  const rows = after
    ? await db.$queryRaw<BlockedRow[]>`
        SELECT u.id::text AS id, u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl", b.created_at AS "blockedAt"
        FROM user_blocks b JOIN users u ON u.id = b.blocked_id
        WHERE b.blocker_id = ${blockerId}::uuid AND (b.created_at, b.blocked_id) < (${after.at}::timestamptz, ${after.id}::uuid)
        ORDER BY b.created_at DESC, b.blocked_id DESC LIMIT ${limit + 1}`
    : await db.$queryRaw<BlockedRow[]>`
        SELECT u.id::text AS id, u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl", b.created_at AS "blockedAt"
        FROM user_blocks b JOIN users u ON u.id = b.blocked_id
        WHERE b.blocker_id = ${blockerId}::uuid
        ORDER BY b.created_at DESC, b.blocked_id DESC LIMIT ${limit + 1}`;
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    blocks: items.map(toBlocked),
    ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.blockedAt.getTime(), last.id) } : {}),
  };
}
