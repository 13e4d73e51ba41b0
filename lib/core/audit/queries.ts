import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL, uuidOfHex } from "../../db/ids";
import { raw, type RawDb } from "../../db/raw";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import type { AuditFilter, AuditInput, AuditRow, StaffActor } from "./schemas";

/** Appends one entry, in the caller's transaction (the one that makes the change it records). */
export async function recordAudit(tx: RawDb | DbTx, actor: StaffActor, e: AuditInput): Promise<void> {
  await raw(tx).$executeRaw`
    INSERT INTO audit_log (id, actor_id, actor_role, action, target_type, target_id, before, after, note, request_id)
    VALUES (${UUIDV7_SQL}, ${actor.id}, ${actor.role}, ${e.action}, ${e.targetType}, ${e.targetId},
            ${e.before ? JSON.stringify(e.before) : null}::jsonb, ${e.after ? JSON.stringify(e.after) : null}::jsonb, ${e.note ?? null},
            ${actor.requestId ?? null})`;
}

/** The smallest UUIDv7 of a millisecond: ids at or after it were made at or after that instant. */
const idAt = (at: Date) => uuidOfHex(Math.max(0, at.getTime()).toString(16).padStart(12, "0").slice(-12) + "0".repeat(20));

/** LIKE's wildcards in a prefix taken literally. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One page of the audit log, newest first (keyset on the id). Each filter path has its index: actor → (actor_id, id),
 * target → (target_type, target_id, id), target type → (target_type, id), action prefix → (action text_pattern_ops,
 * id), date range → the primary key (time-ordered ids).
 */
export async function searchAudit(db: RawDb | DbTx, f: AuditFilter, cursor: string | undefined, limit: number) {
  const where: Prisma.Sql[] = [];
  if (f.actorId) where.push(Prisma.sql`actor_id = ${f.actorId}`);
  if (f.actionPrefix) where.push(Prisma.sql`action LIKE ${likePrefix(f.actionPrefix)}`);
  if (f.targetType) where.push(Prisma.sql`target_type = ${f.targetType}`);
  if (f.targetType && f.targetId) where.push(Prisma.sql`target_id = ${f.targetId}`);
  if (f.from) where.push(Prisma.sql`id >= ${idAt(f.from)}::uuid`);
  if (f.to) where.push(Prisma.sql`id < ${idAt(f.to)}::uuid`);
  if (cursor) where.push(Prisma.sql`id < ${decodeIdCursor(cursor)}::uuid`);
  const rows = await raw(db).$queryRaw<AuditRow[]>`
    SELECT id::text, created_at AS "createdAt", actor_id AS "actorId", actor_role AS "actorRole", action, target_type AS "targetType",
           target_id AS "targetId", before, after, note, request_id AS "requestId"
    FROM audit_log ${where.length ? Prisma.sql`WHERE ${Prisma.join(where, " AND ")}` : Prisma.empty}
    ORDER BY id DESC LIMIT ${limit + 1}`;
  return keysetPage(
    "entries",
    rows,
    limit,
    (r) => encodeIdCursor(r.id),
    (r) => r,
  );
}

/** The entries about one target (a fan's page: auditForTarget(db, "user", userId)), newest first. */
export const auditForTarget = (db: RawDb | DbTx, targetType: string, targetId: string, cursor?: string, limit = 20) =>
  searchAudit(db, { targetType, targetId }, cursor, limit);
