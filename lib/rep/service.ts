import { createHash } from "node:crypto";
import type { Db, Pool } from "../db/client";
import { DomainError } from "../http/errors";
import { decodeTimeCursor, encodeCursor, invalidCursor } from "../http/cursor";
import { UUID_PATTERN } from "../http/schemas";
import { missingProfileFields } from "../users/profile";
import { notificationsOn } from "../users/service";
import { grantOnce } from "./grant";
import { CLIENT_EARN_KINDS, SERVER_AWARDED_KINDS, type ClientEarnKind, type EarnKind } from "./earn-kinds";
import type { EarnInput } from "./schemas";
import type { RepSource } from "../generated/prisma/enums";

interface EntryRow {
  id: string;
  source: RepSource;
  amount: number;
  reason: string;
  createdAt: Date;
}

export function toLedgerEntry(row: EntryRow) {
  return { id: row.id, source: row.source, amount: row.amount, timestamp: row.createdAt.toISOString(), reason: row.reason };
}

/** A time cursor whose id is a uuid (rep_entries.id): anything else is a 400 here, never a SQL cast error. */
function decodeLedgerCursor(cursor: string): { at: Date; id: string } {
  const after = decodeTimeCursor(cursor);
  if (!UUID_PATTERN.test(after.id)) throw invalidCursor();
  return after;
}

const LEDGER_COLUMNS = `SELECT e.id, e.source, e.amount, e.reason, e.created_at AS "createdAt" FROM rep_entries e`;
// Row comparison keeps the scan on the (user_id, created_at desc, id desc) index at any depth.
const LEDGER_FIRST = `${LEDGER_COLUMNS} WHERE e.user_id = $1 ORDER BY e.created_at DESC, e.id DESC LIMIT $2`;
const LEDGER_AFTER = `${LEDGER_COLUMNS} WHERE e.user_id = $1 AND (e.created_at, e.id) < ($3, $4) ORDER BY e.created_at DESC, e.id DESC LIMIT $2`;

/** Keyset page of a user's ledger, newest first (created_at desc, id desc). A hot read: plain pg, prepared once. */
export async function ledgerPage(pool: Pool, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeLedgerCursor(cursor) : undefined;
  const { rows } = after
    ? await pool.query<EntryRow>({ name: "rep_ledger_after", text: LEDGER_AFTER, values: [userId, limit + 1, after.at, after.id] })
    : await pool.query<EntryRow>({ name: "rep_ledger_first", text: LEDGER_FIRST, values: [userId, limit + 1] });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    entries: page.map(toLedgerEntry),
    ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.createdAt.getTime(), last.id) } : {}),
  };
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);
const requestHash = (input: EarnInput) =>
  createHash("sha256").update(`${input.earnKind}\u0000${input.targetId ?? ""}`).digest("hex");

function grantKeyFor(kind: ClientEarnKind, targetId: string | undefined, now: Date): string {
  const rule = CLIENT_EARN_KINDS[kind];
  if (rule.scope === "once") return kind;
  if (rule.scope === "daily") return `${kind}:${utcDay(now)}`;
  return `${kind}:target:${targetId}`;
}

/**
 * Grants client-claimable Rep. The user's row is locked for the transaction, so every earn of one user is
 * serialized: the idempotency replay, the once/daily/per-target grant key and the daily cap are all decided
 * under that lock and backed by unique constraints on (user, idempotency_key) and (user, grant_key). The entry is
 * written by grantOnce (./grant), which the profile and settings writes also use to award profile_completed and
 * notifications_enabled under the same lock and grant key, so a claim after such an award is ALREADY_EARNED.
 */
export async function earn(db: Db, userId: string, input: EarnInput, now = new Date()) {
  if ((SERVER_AWARDED_KINDS as readonly string[]).includes(input.earnKind)) {
    throw new DomainError(
      "EARN_KIND_SERVER_AWARDED",
      `${input.earnKind} Rep is awarded by the server when the action happens; it cannot be claimed through this route.`,
    );
  }
  const kind = input.earnKind as ClientEarnKind;
  const rule: EarnKind = CLIENT_EARN_KINDS[kind];
  if (rule.scope === "perTarget" && !input.targetId) {
    throw new DomainError("VALIDATION_ERROR", `${kind} needs a targetId.`, [{ path: "body.targetId", message: "Required" }]);
  }
  if (rule.scope !== "perTarget" && input.targetId !== undefined) {
    throw new DomainError("VALIDATION_ERROR", `${kind} does not take a targetId.`, [{ path: "body.targetId", message: "Not accepted for this earnKind" }]);
  }
  const hash = requestHash(input);

  return db.$transaction(
    async (tx) => {
      const locked = await tx.$queryRaw<LockedUser[]>`
        SELECT rep_balance, handle, display_name AS "displayName", avatar_url AS "avatarUrl", notify_teams AS "notifyTeams",
               notify_milestones AS "notifyMilestones", notify_community AS "notifyCommunity"
        FROM users WHERE id = ${userId}::uuid FOR UPDATE`;
      if (locked.length === 0) throw new DomainError("UNAUTHORIZED", "Unknown user.");

      const prior = await tx.repEntry.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey: input.idempotencyKey } } });
      if (prior) {
        if (prior.requestHash !== hash) {
          throw new DomainError("IDEMPOTENCY_KEY_REUSED", "This idempotency key was already used with a different earnKind or targetId.");
        }
        return { entry: toLedgerEntry(prior), balance: locked[0]!.rep_balance, replayed: true };
      }

      const grantKey = grantKeyFor(kind, input.targetId, now);
      if (await tx.repEntry.findUnique({ where: { userId_grantKey: { userId, grantKey } }, select: { id: true } })) {
        throw new DomainError("ALREADY_EARNED", alreadyEarnedMessage(kind, rule.scope));
      }
      if (rule.requires) assertCondition(kind, rule.requires, locked[0]!);
      if (rule.dailyCap !== undefined) {
        const dayStart = new Date(`${utcDay(now)}T00:00:00.000Z`);
        const today = await tx.repEntry.count({ where: { userId, earnKind: kind, createdAt: { gte: dayStart } } });
        if (today >= rule.dailyCap) {
          throw new DomainError("ALREADY_EARNED", `${kind} can be earned at most ${rule.dailyCap} times per UTC day.`);
        }
      }
      const granted = await grantOnce(tx, userId, kind, { grantKey, targetId: input.targetId, idempotencyKey: input.idempotencyKey, requestHash: hash }, now);
      // Unreachable under the row lock (both keys were checked above); the unique constraints back it regardless.
      if (!granted) throw new DomainError("ALREADY_EARNED", alreadyEarnedMessage(kind, rule.scope));
      return { entry: toLedgerEntry(granted.entry), balance: granted.balance, replayed: false };
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
}

interface LockedUser {
  rep_balance: number;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  notifyTeams: boolean;
  notifyMilestones: boolean;
  notifyCommunity: boolean;
}

/** The server's own view of what the Rep is for, read under the user's row lock; the client's word is not enough. */
function assertCondition(kind: string, requires: NonNullable<EarnKind["requires"]>, user: LockedUser) {
  if (requires === "profileComplete") {
    const missing = missingProfileFields(user);
    if (missing.length) {
      throw new DomainError("EARN_CONDITION_NOT_MET", `${kind} needs a complete profile (handle, displayName and an avatar); missing: ${missing.join(", ")}.`);
    }
  } else if (!notificationsOn(user)) {
    throw new DomainError("EARN_CONDITION_NOT_MET", `${kind} needs a notification setting on (notifyTeams, notifyMilestones or notifyCommunity in /api/user/settings).`);
  }
}

function alreadyEarnedMessage(kind: string, scope: string): string {
  if (scope === "daily") return `${kind} was already earned today (UTC).`;
  if (scope === "perTarget") return `${kind} was already earned for this target.`;
  return `${kind} can be earned only once.`;
}
