import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { raw, type RawDb } from "../../db/raw";
import { deletionPendingSql } from "../../core/accounts/service";

// The moderation module's statements about actions against a user (sanctions, hidden content, team staff actions
// awaiting review) and their appeals; queries.ts re-exports them with the reports' and the queue's.

// Moderation actions --------------------------------------------------------------------------------------------

export type ActionKindDb = "POSTING_SUSPENSION" | "TRADING_RESTRICTION" | "FULL_SUSPENSION" | "CONTENT_HIDDEN";

export interface ActionRow {
  id: string;
  userId: string;
  kind: ActionKindDb;
  reason: string;
  staffId: string;
  teamId: string | null;
  createdAt: Date;
  endsAt: Date | null;
  liftedAt: Date | null;
  liftedBy: string | null;
  reviewedAt: Date | null;
  reviewedBy: string | null;
  hiddenPosts: string[];
  hiddenComments: string[];
  appealId: string | null;
  appealStatus: "PENDING" | "GRANTED" | "DENIED" | null;
  appealCreatedAt: Date | null;
  appealDecidedAt: Date | null;
}

const ACTION_COLUMNS = Prisma.sql`a.id::text AS id, a.user_id::text AS "userId", a.kind::text AS kind, a.reason, a.staff_id AS "staffId",
  a.team_id AS "teamId", a.created_at AS "createdAt", a.ends_at AS "endsAt", a.lifted_at AS "liftedAt", a.lifted_by AS "liftedBy",
  a.reviewed_at AS "reviewedAt", a.reviewed_by AS "reviewedBy",
  ARRAY(SELECT p.id::text FROM posts p WHERE p.hidden_action_id = a.id ORDER BY p.id) AS "hiddenPosts",
  ARRAY(SELECT c.id::text FROM post_comments c WHERE c.hidden_action_id = a.id ORDER BY c.id) AS "hiddenComments",
  ap.id::text AS "appealId", ap.status::text AS "appealStatus", ap.created_at AS "appealCreatedAt", ap.decided_at AS "appealDecidedAt"`;

/**
 * The user's row, locked (every change of their sanctions runs under it); null for no such user. FOR NO KEY UPDATE:
 * it does not block inserts that reference the row (a staff hide writing an action holds a key-share lock on it).
 */
export async function lockUser(tx: DbTx, userId: string) {
  const [row] = await tx.$queryRaw<{ id: string; externalId: string }[]>`
    SELECT id::text AS id, external_id AS "externalId" FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE`;
  return row ?? null;
}

/** Records an action; a platform staff action is reviewed at once, a team staff action (teamId) waits for review. */
export async function insertAction(
  tx: DbTx,
  a: { id: string; userId: string; kind: ActionKindDb; reason: string; staffId: string; teamId?: string | null; hours: number | null },
) {
  const ends = a.hours === null ? Prisma.sql`NULL` : Prisma.sql`now() + make_interval(hours => ${a.hours}::int)`;
  const teamId = a.teamId ?? null;
  await tx.$executeRaw`
    INSERT INTO moderation_actions (id, user_id, kind, reason, staff_id, team_id, ends_at, reviewed_at, reviewed_by)
    VALUES (${a.id}::uuid, ${a.userId}::uuid, ${a.kind}::"ModerationActionKind", ${a.reason}, ${a.staffId}, ${teamId}, ${ends},
            CASE WHEN ${teamId}::text IS NULL THEN now() END, CASE WHEN ${teamId}::text IS NULL THEN ${a.staffId} END)`;
}

/** A posting suspension's row for assertMayPost, with the action's id and end. */
export async function insertPostingSuspensionFor(tx: DbTx, actionId: string) {
  await tx.$executeRaw`
    INSERT INTO posting_suspensions (id, user_id, until, reason, staff_id)
    SELECT a.id, a.user_id, a.ends_at, a.reason, a.staff_id FROM moderation_actions a WHERE a.id = ${actionId}::uuid`;
}

/**
 * Recomputes the user's sanction columns from their unlifted, unexpired actions (under the user's row lock, in the
 * transaction that changed them): what the auth read and assertMayTrade check.
 */
export async function syncUserSanctions(tx: DbTx, userId: string) {
  await tx.$executeRaw`
    UPDATE users u SET
      trading_restricted_until = (SELECT max(a.ends_at) FROM moderation_actions a
        WHERE a.user_id = u.id AND a.kind = 'TRADING_RESTRICTION' AND a.lifted_at IS NULL AND a.ends_at > now()),
      suspended_until = (SELECT max(a.ends_at) FROM moderation_actions a
        WHERE a.user_id = u.id AND a.kind = 'FULL_SUSPENSION' AND a.lifted_at IS NULL AND a.ends_at > now())
    WHERE u.id = ${userId}::uuid`;
}

/**
 * What the trading gate reads (sanctions.ts tradingStanding): the end of a trading restriction or suspension still
 * running, whether the account's deletion is scheduled, and what the user's wallets owe (int8).
 */
export async function standingOf(db: RawDb | DbTx, userId: string) {
  const [row] = await raw(db).$queryRaw<{ restrictedUntil: Date | null; deletionPending: boolean; debt: bigint | null }[]>`
    SELECT CASE WHEN greatest(u.trading_restricted_until, u.suspended_until) > now()
                THEN greatest(u.trading_restricted_until, u.suspended_until) END AS "restrictedUntil",
           ${deletionPendingSql(Prisma.sql`u.id`)} AS "deletionPending",
           (SELECT sum(w.debt)::int8 FROM wallets w WHERE w.user_id = u.id AND w.debt > 0) AS debt
    FROM users u WHERE u.id = ${userId}::uuid`;
  return row;
}

/** The action, locked; null for no such action. */
export async function lockAction(tx: DbTx, id: string) {
  const [row] = await tx.$queryRaw<ActionRow[]>`
    SELECT ${ACTION_COLUMNS} FROM moderation_actions a LEFT JOIN moderation_appeals ap ON ap.action_id = a.id
    WHERE a.id = ${id}::uuid FOR UPDATE OF a`;
  return row ?? null;
}

/** The action (no lock); null for no such action. */
export async function actionById(db: RawDb | DbTx, id: string) {
  const [row] = await raw(db).$queryRaw<ActionRow[]>`
    SELECT ${ACTION_COLUMNS} FROM moderation_actions a LEFT JOIN moderation_appeals ap ON ap.action_id = a.id WHERE a.id = ${id}::uuid`;
  return row ?? null;
}

/** Marks the action lifted (the first lift is kept) and its posting suspension row with it. */
export async function liftActionRow(tx: DbTx, id: string, by: string) {
  await tx.$executeRaw`UPDATE moderation_actions SET lifted_at = coalesce(lifted_at, now()), lifted_by = coalesce(lifted_by, ${by}) WHERE id = ${id}::uuid`;
  await tx.$executeRaw`UPDATE posting_suspensions SET lifted_at = coalesce(lifted_at, now()) WHERE id = ${id}::uuid`;
}

/**
 * After staff restored a post or comment: lifts its CONTENT_HIDDEN action once nothing it hid is still hidden by it
 * (a sanction that also hid content stays in force).
 */
export async function liftSpentContentAction(tx: DbTx, id: string, by: string) {
  await tx.$executeRaw`
    UPDATE moderation_actions a SET lifted_at = now(), lifted_by = ${by}
    WHERE a.id = ${id}::uuid AND a.kind = 'CONTENT_HIDDEN' AND a.lifted_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM posts p WHERE p.hidden_action_id = a.id)
      AND NOT EXISTS (SELECT 1 FROM post_comments c WHERE c.hidden_action_id = a.id)`;
}

/** Marks a team staff action reviewed. */
export async function reviewActionRow(tx: DbTx, id: string, by: string) {
  await tx.$executeRaw`UPDATE moderation_actions SET reviewed_at = now(), reviewed_by = ${by} WHERE id = ${id}::uuid AND reviewed_at IS NULL`;
}

/** Hides the user's listed posts (those visible now) under the action; answers the ids it hid. */
export async function hidePostsOf(tx: DbTx, userId: string, postIds: string[], staffId: string, actionId: string) {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    UPDATE posts SET hidden_at = now(), hidden_by = ${staffId}, hidden_action_id = ${actionId}::uuid
    WHERE id = ANY(${postIds}::uuid[]) AND author_id = ${userId}::uuid AND hidden_at IS NULL
    RETURNING id::text AS id`;
  return rows.map((r) => r.id);
}

/** Restores the posts the action hid (and only those still hidden by it); answers their ids. */
export async function restorePostsOf(tx: DbTx, actionId: string) {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    UPDATE posts SET hidden_at = NULL, hidden_by = NULL, hidden_action_id = NULL WHERE hidden_action_id = ${actionId}::uuid RETURNING id::text AS id`;
  return rows.map((r) => r.id);
}

/** The comments the action hid and still hides, with their posts (what to lock, posts first). */
export function commentsHiddenBy(db: RawDb | DbTx, actionId: string) {
  return raw(db).$queryRaw<{ id: string; postId: string }[]>`
    SELECT id::text AS id, post_id::text AS "postId" FROM post_comments WHERE hidden_action_id = ${actionId}::uuid ORDER BY post_id, id`;
}

/** One page of the user's actions, newest first by id (UUIDv7). */
export function actionsOf(db: RawDb | DbTx, userId: string, afterId: string | undefined, take: number) {
  const after = afterId ? Prisma.sql`AND a.id < ${afterId}::uuid` : Prisma.empty;
  return raw(db).$queryRaw<ActionRow[]>`
    SELECT ${ACTION_COLUMNS} FROM moderation_actions a LEFT JOIN moderation_appeals ap ON ap.action_id = a.id
    WHERE a.user_id = ${userId}::uuid ${after} ORDER BY a.id DESC LIMIT ${take}`;
}

/** Team staff actions awaiting platform staff's review, oldest first (keyset on created_at, id). */
export function pendingReviews(db: RawDb | DbTx, after: { at: Date; id: string } | undefined, take: number) {
  const keyset = after ? Prisma.sql`AND (a.created_at, a.id) > (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<ActionRow[]>`
    SELECT ${ACTION_COLUMNS} FROM moderation_actions a LEFT JOIN moderation_appeals ap ON ap.action_id = a.id
    WHERE a.reviewed_at IS NULL ${keyset} ORDER BY a.reviewed_at, a.created_at, a.id LIMIT ${take}`;
}

/** Whether the user is staff of the team (team_staff). */
export async function isTeamStaff(db: RawDb | DbTx, userId: string, teamId: string) {
  const rows = await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM team_staff WHERE user_id = ${userId}::uuid AND team_id = ${teamId}`;
  return rows.length > 0;
}

// Appeals -------------------------------------------------------------------------------------------------------

export interface AppealRow {
  id: string;
  actionId: string;
  userId: string;
  text: string;
  status: "PENDING" | "GRANTED" | "DENIED";
  createdAt: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
  note: string | null;
}

const APPEAL_COLUMNS = Prisma.sql`ap.id::text AS id, ap.action_id::text AS "actionId", ap.user_id::text AS "userId", ap.text,
  ap.status::text AS status, ap.created_at AS "createdAt", ap.decided_at AS "decidedAt", ap.decided_by AS "decidedBy", ap.note`;

/**
 * The caller's appeal of their own action within the window, once: the unique action_id decides (ON CONFLICT DO
 * NOTHING), so of concurrent appeals one is stored; null when none was (not theirs, too late, or already appealed).
 */
export async function insertAppeal(db: RawDb | DbTx, actionId: string, userId: string, text: string, windowDays: number) {
  const [row] = await raw(db).$queryRaw<AppealRow[]>`
    INSERT INTO moderation_appeals AS ap (id, action_id, user_id, text)
    SELECT ${UUIDV7_SQL}, a.id, a.user_id, ${text} FROM moderation_actions a
    WHERE a.id = ${actionId}::uuid AND a.user_id = ${userId}::uuid AND a.created_at > now() - make_interval(days => ${windowDays}::int)
    ON CONFLICT (action_id) DO NOTHING
    RETURNING ${APPEAL_COLUMNS}`;
  return row ?? null;
}

/** The appeal, locked; null for none. */
export async function lockAppeal(tx: DbTx, id: string) {
  const [row] = await tx.$queryRaw<AppealRow[]>`SELECT ${APPEAL_COLUMNS} FROM moderation_appeals ap WHERE ap.id = ${id}::uuid FOR UPDATE`;
  return row ?? null;
}

export async function decideAppealRow(tx: DbTx, id: string, status: "GRANTED" | "DENIED", staffId: string, note: string | null) {
  const [row] = await tx.$queryRaw<AppealRow[]>`
    UPDATE moderation_appeals ap SET status = ${status}::"AppealStatus", decided_at = now(), decided_by = ${staffId}, note = ${note}
    WHERE ap.id = ${id}::uuid RETURNING ${APPEAL_COLUMNS}`;
  return row!;
}

/** Pending appeals, oldest first (keyset on created_at, id; the (status, created_at) index). */
export function pendingAppeals(db: RawDb | DbTx, after: { at: Date; id: string } | undefined, take: number) {
  const keyset = after ? Prisma.sql`AND (ap.created_at, ap.id) > (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<AppealRow[]>`
    SELECT ${APPEAL_COLUMNS} FROM moderation_appeals ap WHERE ap.status = 'PENDING' ${keyset}
    ORDER BY ap.status, ap.created_at, ap.id LIMIT ${take}`;
}
