import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import type { NotificationType } from "../notifications/schemas";
import type { OutboxStatus } from "./schemas";

// Push delivery's statements: preferences and quiet hours, the outbox claim and outcomes, the deliveries, and the
// console's reads. The outbox rows are written by a trigger on notifications (the migration), never here.

type Handle = RawDb | DbTx;

export interface PreferenceRow {
  type: NotificationType;
  inApp: boolean;
  push: boolean;
}

export const preferencesOf = (db: Handle, userId: string) =>
  raw(db).$queryRaw<PreferenceRow[]>`
    SELECT type::text AS type, in_app AS "inApp", push FROM notification_preferences WHERE user_id = ${userId}::uuid`;

export interface NotifyFlags {
  notifyTeams: boolean;
  notifyMilestones: boolean;
  notifyCommunity: boolean;
}

export async function notifyFlagsOf(db: Handle, userId: string): Promise<NotifyFlags | undefined> {
  const [row] = await raw(db).$queryRaw<NotifyFlags[]>`
    SELECT notify_teams AS "notifyTeams", notify_milestones AS "notifyMilestones", notify_community AS "notifyCommunity"
    FROM users WHERE id = ${userId}::uuid`;
  return row;
}

export const setNotifyFlags = (db: Handle, userId: string, f: NotifyFlags) =>
  raw(db).$executeRaw`
    UPDATE users SET notify_teams = ${f.notifyTeams}, notify_milestones = ${f.notifyMilestones}, notify_community = ${f.notifyCommunity}
    WHERE id = ${userId}::uuid`;

export const upsertPreference = (db: Handle, userId: string, p: PreferenceRow) =>
  raw(db).$executeRaw`
    INSERT INTO notification_preferences (user_id, type, in_app, push)
    VALUES (${userId}::uuid, ${p.type}::"NotificationType", ${p.inApp}, ${p.push})
    ON CONFLICT (user_id, type) DO UPDATE SET in_app = EXCLUDED.in_app, push = EXCLUDED.push, updated_at = now()`;

export interface QuietHoursRow {
  startMinute: number;
  endMinute: number;
  // null: the fan's own time zone.
  timeZone: string | null;
}

/** The quiet hours with the zone they are in now (their own, else the fan's, else UTC). */
export async function quietHoursOf(db: Handle, userId: string): Promise<(QuietHoursRow & { zoneInForce: string }) | undefined> {
  const [row] = await raw(db).$queryRaw<(QuietHoursRow & { zoneInForce: string })[]>`
    SELECT q.start_minute AS "startMinute", q.end_minute AS "endMinute", q.time_zone AS "timeZone",
           COALESCE(q.time_zone, u.timezone, 'UTC') AS "zoneInForce"
    FROM push_quiet_hours q JOIN users u ON u.id = q.user_id WHERE q.user_id = ${userId}::uuid`;
  return row;
}

export const setQuietHours = (db: Handle, userId: string, q: QuietHoursRow | null) =>
  q === null
    ? raw(db).$executeRaw`DELETE FROM push_quiet_hours WHERE user_id = ${userId}::uuid`
    : raw(db).$executeRaw`
        INSERT INTO push_quiet_hours (user_id, start_minute, end_minute, time_zone)
        VALUES (${userId}::uuid, ${q.startMinute}, ${q.endMinute}, ${q.timeZone})
        ON CONFLICT (user_id) DO UPDATE SET start_minute = EXCLUDED.start_minute, end_minute = EXCLUDED.end_minute,
          time_zone = EXCLUDED.time_zone, updated_at = now()`;

// The outbox ---------------------------------------------------------------------------------------------------

export interface ClaimedRow {
  id: string;
  userId: string;
  notificationId: string;
  causeKey: string;
  type: NotificationType;
  actorId: string | null;
  attempts: number;
  createdAt: Date;
}

/**
 * A send claimed but never recorded (the worker died mid-send) may have reached the device: it is never sent again
 * (at most once), but dropped as interrupted once its claim is older than `leaseSeconds`.
 */
export const dropInterrupted = (db: Handle, leaseSeconds: number) =>
  raw(db).$executeRaw`
    UPDATE push_outbox SET status = 'dropped', drop_reason = 'interrupted', claimed_at = NULL, updated_at = now()
    WHERE status = 'sending' AND claimed_at < now() - make_interval(secs => ${leaseSeconds})`;

/**
 * Claims up to `take` due rows (pending, next attempt reached; optionally only some users'), oldest due first, in
 * one statement: FOR UPDATE SKIP LOCKED, so concurrent workers (the cron, the after-request attempt) never claim
 * the same row, and the row is 'sending' from then on, never claimed again.
 */
export function claimDue(db: Handle, take: number, userIds?: string[]) {
  const only = userIds ? Prisma.sql`AND user_id = ANY(${userIds}::uuid[])` : Prisma.empty;
  return raw(db).$queryRaw<ClaimedRow[]>`
    UPDATE push_outbox SET status = 'sending', claimed_at = now(), updated_at = now()
    WHERE id IN (
      SELECT id FROM push_outbox WHERE status = 'pending' AND next_attempt_at <= now() ${only}
      ORDER BY status, next_attempt_at LIMIT ${take} FOR UPDATE SKIP LOCKED
    )
    RETURNING id::text AS id, user_id::text AS "userId", notification_id::text AS "notificationId", cause_key AS "causeKey",
              type::text AS type, actor_id::text AS "actorId", attempts, created_at AS "createdAt"`;
}

export interface SendContext {
  payload: { title?: string; body?: string; href?: string } | null;
  push: boolean;
  blocked: boolean;
  quietStart: number | null;
  quietEnd: number | null;
  quietZone: string | null;
}

/** What deciding a claimed row needs, read at send time: the notification, push on, a block either way, quiet hours. */
export async function sendContextOf(db: Handle, row: ClaimedRow): Promise<SendContext> {
  const [ctx] = await raw(db).$queryRaw<SendContext[]>`
    SELECT (SELECT n.payload FROM notifications n WHERE n.id = ${row.notificationId}::uuid) AS payload,
           COALESCE((SELECT p.push AND p.in_app FROM notification_preferences p WHERE p.user_id = ${row.userId}::uuid AND p.type = ${row.type}::"NotificationType"), true) AS push,
           ${row.actorId}::uuid IS NOT NULL AND EXISTS (
             SELECT 1 FROM user_blocks b
             WHERE (b.blocker_id = ${row.userId}::uuid AND b.blocked_id = ${row.actorId}::uuid) OR (b.blocker_id = ${row.actorId}::uuid AND b.blocked_id = ${row.userId}::uuid)
           ) AS blocked,
           q.start_minute AS "quietStart", q.end_minute AS "quietEnd",
           CASE WHEN q.user_id IS NOT NULL THEN COALESCE(q.time_zone, u.timezone, 'UTC') END AS "quietZone"
    FROM (SELECT 1) one LEFT JOIN push_quiet_hours q ON q.user_id = ${row.userId}::uuid LEFT JOIN users u ON u.id = q.user_id`;
  return ctx!;
}

export interface DeviceTarget {
  id: string;
  provider: "expo" | "fcm" | "apns" | "webpush";
  token: string;
  webpushKeys: { p256dh: string; auth: string } | null;
}

export const targetsOf = (db: Handle, userId: string) =>
  raw(db).$queryRaw<DeviceTarget[]>`
    SELECT id::text AS id, provider, token, webpush_keys AS "webpushKeys" FROM devices WHERE user_id = ${userId}::uuid ORDER BY id`;

/** The provider said the token is dead: the device goes, unless it was re-registered with another token meanwhile. */
export const deleteDeadDevice = (db: Handle, d: { id: string; provider: string; token: string }) =>
  raw(db).$executeRaw`DELETE FROM devices WHERE id = ${d.id}::uuid AND provider = ${d.provider} AND token = ${d.token}`;

export type Outcome =
  | { status: "sent" }
  | { status: "dropped"; reason: string }
  | { status: "pending"; at: Date; attempt: boolean; error?: string }
  | { status: "failed"; error: string };

/** Records a claimed row's outcome (only while it is still this claim's: status 'sending'). */
export function recordOutcome(db: Handle, id: string, o: Outcome) {
  const set =
    o.status === "sent"
      ? Prisma.sql`status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = NULL`
      : o.status === "dropped"
        ? Prisma.sql`status = 'dropped', drop_reason = ${o.reason}`
        : o.status === "failed"
          ? Prisma.sql`status = 'failed', attempts = attempts + 1, last_error = ${o.error}`
          : Prisma.sql`status = 'pending', next_attempt_at = ${o.at}, attempts = attempts + ${o.attempt ? 1 : 0}, last_error = COALESCE(${o.error ?? null}, last_error)`;
  return raw(db).$executeRaw`UPDATE push_outbox SET ${set}, claimed_at = NULL, updated_at = now() WHERE id = ${id}::uuid AND status = 'sending'`;
}

export interface DeliveryRecord {
  id: string;
  outboxId: string;
  deviceId: string;
  provider: string;
  outcome: "ok" | "dead" | "error" | "skipped";
  detail: string | null;
  title: string | null;
  body: string | null;
  ticketId: string | null;
}

export function insertDeliveries(db: Handle, rows: DeliveryRecord[]) {
  if (rows.length === 0) return Promise.resolve(0);
  const values = rows.map(
    (r) =>
      Prisma.sql`(${r.id}::uuid, ${r.outboxId}::uuid, ${r.deviceId}::uuid, ${r.provider}, ${r.outcome}, ${r.detail}, ${r.title}, ${r.body}, ${r.ticketId})`,
  );
  return raw(db).$executeRaw`
    INSERT INTO push_deliveries (id, outbox_id, device_id, provider, outcome, detail, title, body, ticket_id) VALUES ${Prisma.join(values)}`;
}

export interface ReceiptRow {
  id: string;
  ticketId: string;
  deviceId: string;
  token: string | null;
}

/** Expo tickets sent at least `delaySeconds` ago whose receipt was not read, oldest first, with the device's token now. */
export const receiptsDue = (db: Handle, delaySeconds: number, take: number) =>
  raw(db).$queryRaw<ReceiptRow[]>`
    SELECT pd.id::text AS id, pd.ticket_id AS "ticketId", pd.device_id::text AS "deviceId", d.token
    FROM push_deliveries pd LEFT JOIN devices d ON d.id = pd.device_id AND d.provider = 'expo'
    WHERE pd.provider = 'expo' AND pd.receipt_checked_at IS NULL AND pd.ticket_id IS NOT NULL
      AND pd.created_at <= now() - make_interval(secs => ${delaySeconds})
    ORDER BY pd.provider, pd.receipt_checked_at, pd.created_at LIMIT ${take}`;

export const markReceipts = (db: Handle, ids: string[], detail: Map<string, string>) =>
  raw(db).$executeRaw`
    UPDATE push_deliveries pd SET receipt_checked_at = now(), detail = COALESCE(x.detail, pd.detail)
    FROM unnest(${ids}::uuid[], ${ids.map((id) => detail.get(id) ?? null)}::text[]) AS x(id, detail)
    WHERE pd.id = x.id`;

// The console ----------------------------------------------------------------------------------------------------

export const outboxCounts = (db: Handle) =>
  raw(db).$queryRaw<{ status: OutboxStatus; n: number }[]>`SELECT status, count(*)::int AS n FROM push_outbox GROUP BY status`;

export interface OutboxConsoleRow {
  id: string;
  userId: string;
  handle: string | null;
  type: string;
  causeKey: string;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: Date;
  sentAt: Date | null;
  dropReason: string | null;
  lastError: string | null;
  createdAt: Date;
}

/** The latest rows (of one status, or of all), newest first. */
export function latestOutbox(db: Handle, status: OutboxStatus | undefined, take: number) {
  const where = status ? Prisma.sql`WHERE o.status = ${status}` : Prisma.empty;
  const order = status ? Prisma.sql`o.status, o.id DESC` : Prisma.sql`o.id DESC`;
  return raw(db).$queryRaw<OutboxConsoleRow[]>`
    SELECT o.id::text AS id, o.user_id::text AS "userId", u.handle, o.type::text AS type, o.cause_key AS "causeKey", o.status, o.attempts,
           o.next_attempt_at AS "nextAttemptAt", o.sent_at AS "sentAt", o.drop_reason AS "dropReason", o.last_error AS "lastError", o.created_at AS "createdAt"
    FROM push_outbox o JOIN users u ON u.id = o.user_id ${where} ORDER BY ${order} LIMIT ${take}`;
}

export interface DeliveryConsoleRow {
  id: string;
  provider: string;
  outcome: string;
  title: string | null;
  body: string | null;
  detail: string | null;
  handle: string | null;
  createdAt: Date;
}

/** One provider's latest deliveries (the development stand-in's: provider 'standin'). */
export const latestDeliveries = (db: Handle, provider: string, take: number) =>
  raw(db).$queryRaw<DeliveryConsoleRow[]>`
    SELECT pd.id::text AS id, pd.provider, pd.outcome, pd.title, pd.body, pd.detail, u.handle, pd.created_at AS "createdAt"
    FROM push_deliveries pd JOIN push_outbox o ON o.id = pd.outbox_id JOIN users u ON u.id = o.user_id
    WHERE pd.provider = ${provider} ORDER BY pd.provider, pd.id DESC LIMIT ${take}`;
