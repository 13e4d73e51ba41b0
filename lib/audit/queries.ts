import type { DbTx } from "../db/client";
import { UUIDV7_SQL } from "../db/ids";
import { raw, type RawDb } from "../db/raw";
import type { AuditInput, StaffActor } from "./schemas";

/** Appends one entry, in the caller's transaction (the one that makes the change it records). */
export async function recordAudit(tx: RawDb | DbTx, actor: StaffActor, e: AuditInput): Promise<void> {
  await raw(tx).$executeRaw`
    INSERT INTO audit_log (id, actor_id, actor_role, action, target_type, target_id, before, after, note, request_id)
    VALUES (${UUIDV7_SQL}, ${actor.id}, ${actor.role}, ${e.action}, ${e.targetType}, ${e.targetId},
            ${e.before ? JSON.stringify(e.before) : null}::jsonb, ${e.after ? JSON.stringify(e.after) : null}::jsonb, ${e.note ?? null},
            ${actor.requestId ?? null})`;
}
