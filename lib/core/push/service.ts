import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { rawTransaction, type RawDb } from "../../db/raw";
import { lockUser } from "../../db/tx";
import { env } from "../../env";
import { notFound } from "../../kernel/errors";
import { log } from "../../kernel/log";
import { groupKeyOf } from "../notifications/service";
import { NOTIFICATION_TYPES, type NotificationType } from "../notifications/schemas";
import { configured, expoReceipts, sendToDevice, type PushMessage } from "./providers";
import {
  claimDue,
  deleteDeadDevice,
  dropInterrupted,
  insertDeliveries,
  markReceipts,
  notifyFlagsOf,
  preferencesOf,
  quietHoursOf,
  receiptsDue,
  recordOutcome,
  sendContextOf,
  setNotifyFlags,
  setQuietHours,
  targetsOf,
  upsertPreference,
  type ClaimedRow,
  type DeliveryRecord,
  type NotifyFlags,
  type Outcome,
} from "./queries";
import { quietUntil, toClock, toMinute } from "./quiet-hours";
import { SETTING_TYPES, settingOf, type DeliverResult, type NotifySetting, type PreferencesPut } from "./schemas";
import { after } from "next/server";
import { requestState } from "../../kernel/request-scope";

// Push delivery (docs/domains/push.md). Preferences: GET and PUT /api/v1/me/notification-preferences, per type in-app
// and push, and quiet hours; the account's notify_* settings are the in-app switches of their types (SETTING_TYPES).
// Delivery: the outbox (one row per user and cause key, written by a trigger with each notification) is claimed by
// deliverDue (the cron, and once after a producing request: notePushSoon) and each row sent at most once.

type Handle = RawDb | DbTx;

async function preferencesIn(db: Handle, userId: string) {
  const flags = await notifyFlagsOf(db, userId);
  if (!flags) throw notFound("User");
  const rows = new Map((await preferencesOf(db, userId)).map((r) => [r.type, r]));
  const quiet = await quietHoursOf(db, userId);
  return {
    types: NOTIFICATION_TYPES.map((type) => {
      const setting = settingOf(type) ?? null;
      const row = rows.get(type);
      return { type, inApp: (setting ? flags[setting] : true) && (row?.inApp ?? true), push: row?.push ?? true, setting };
    }),
    quietHours: quiet
      ? { start: toClock(quiet.startMinute), end: toClock(quiet.endMinute), timeZone: quiet.zoneInForce, followsAccountTimeZone: quiet.timeZone === null }
      : null,
  };
}

/** The caller's preferences: every type's in-app and push (in-app as the account setting and the type's own say). */
export const getPreferences = (db: Handle, userId: string) => preferencesIn(db, userId);

/**
 * Changes the listed types' in-app and push and the quiet hours, under the user's row lock. Each account setting
 * becomes "any of its types in-app" (written first: turning one on turns its types on, through the trigger), then
 * every type's row is written with its new values, so the two views agree when the transaction commits.
 */
export async function putPreferences(db: Db, userId: string, body: PreferencesPut) {
  return rawTransaction(db, async (tx) => {
    if (!(await lockUser(tx, userId))) throw notFound("User");
    const current = await preferencesIn(tx, userId);
    const changes = new Map((body.types ?? []).map((t) => [t.type, t]));
    const next = current.types.map((t) => ({ type: t.type, inApp: changes.get(t.type)?.inApp ?? t.inApp, push: changes.get(t.type)?.push ?? t.push }));
    if (changes.size > 0) {
      const inApp = new Map<NotificationType, boolean>(next.map((t) => [t.type, t.inApp]));
      const flags = Object.fromEntries(
        (Object.keys(SETTING_TYPES) as NotifySetting[]).map((s) => [s, SETTING_TYPES[s].some((type) => inApp.get(type))]),
      ) as unknown as NotifyFlags;
      await setNotifyFlags(tx, userId, flags);
      for (const t of next) await upsertPreference(tx, userId, t);
    }
    if (body.quietHours !== undefined) {
      const q = body.quietHours;
      await setQuietHours(tx, userId, q && { startMinute: toMinute(q.start), endMinute: toMinute(q.end), timeZone: q.timeZone ?? null });
    }
    return preferencesIn(tx, userId);
  });
}

// Delivery ---------------------------------------------------------------------------------------------------------

/** A claim older than this whose send was never recorded is dropped as interrupted (it may have been sent). */
const CLAIM_LEASE_SECONDS = 300;
const DEFAULT_TAKE = 100;
const SEND_CONCURRENCY = 4;

type Tally = Omit<DeliverResult, "claimed" | "receipts">;

function retryOrFail(row: ClaimedRow, error: string): Outcome {
  const { PUSH_MAX_ATTEMPTS, PUSH_RETRY_BASE_SECONDS } = env();
  const attempt = row.attempts + 1;
  if (attempt >= PUSH_MAX_ATTEMPTS) return { status: "failed", error };
  return { status: "pending", at: new Date(Date.now() + PUSH_RETRY_BASE_SECONDS * 1000 * 2 ** (attempt - 1)), attempt: true, error };
}

/** Decides and sends one claimed row; answers what became of it. */
async function deliverOne(db: Handle, row: ClaimedRow): Promise<keyof Tally> {
  const now = new Date();
  const ctx = await sendContextOf(db, row);
  const drop = async (reason: string) => (await recordOutcome(db, row.id, { status: "dropped", reason }), "dropped" as const);
  if (!ctx.payload) return drop("notification_gone");
  if (now.getTime() - row.createdAt.getTime() > env().PUSH_STALE_HOURS * 3_600_000) return drop("stale");
  if (ctx.blocked) return drop("blocked");
  if (!ctx.push) return drop("push_off");
  if (ctx.quietZone !== null) {
    const until = quietUntil(now, { startMinute: ctx.quietStart!, endMinute: ctx.quietEnd!, timeZone: ctx.quietZone });
    if (until) return (await recordOutcome(db, row.id, { status: "pending", at: until, attempt: false }), "deferred");
  }
  const targets = await targetsOf(db, row.userId);
  if (targets.length === 0) return drop("no_device");

  const message: PushMessage = {
    title: ctx.payload.title ?? "New notification",
    body: ctx.payload.body ?? "",
    data: { notificationId: row.notificationId, type: row.type, causeKey: row.causeKey, ...(ctx.payload.href ? { href: ctx.payload.href } : {}) },
    group: groupKeyOf({ id: row.notificationId, type: row.type, createdAt: row.createdAt.toISOString(), payload: ctx.payload }),
  };
  const results = await Promise.all(targets.map((t) => sendToDevice(t, message)));
  const deliveries: DeliveryRecord[] = results.map((r, i) => ({
    id: uuidv7(),
    outboxId: row.id,
    deviceId: targets[i]!.id,
    provider: r.provider,
    outcome: r.outcome,
    detail: ("detail" in r ? r.detail : undefined) ?? null,
    title: message.title,
    body: message.body,
    ticketId: (r.outcome === "ok" ? r.ticketId : undefined) ?? null,
  }));
  await insertDeliveries(db, deliveries);
  for (const [i, r] of results.entries()) {
    if (r.outcome === "dead") {
      await deleteDeadDevice(db, targets[i]!);
      log("info", { msg: "push: dead token, device removed", provider: r.provider, deviceId: targets[i]!.id, detail: r.detail });
    }
  }
  if (results.some((r) => r.outcome === "ok")) return (await recordOutcome(db, row.id, { status: "sent" }), "sent");
  const errors = results.filter((r) => r.outcome === "error");
  if (errors.length > 0) {
    const outcome = retryOrFail(
      row,
      errors
        .map((r) => `${r.provider}: ${"detail" in r ? r.detail : ""}`)
        .join("; ")
        .slice(0, 1000),
    );
    await recordOutcome(db, row.id, outcome);
    return outcome.status === "failed" ? "failed" : "retrying";
  }
  return drop(results.every((r) => r.outcome === "dead") ? "no_device" : "not_configured");
}

/** Reads due Expo receipts: DeviceNotRegistered removes the device. */
async function readReceipts(db: Handle): Promise<number> {
  if (!configured("expo")) return 0;
  const due = await receiptsDue(db, env().PUSH_EXPO_RECEIPT_DELAY_SECONDS, 300);
  if (due.length === 0) return 0;
  let receipts: Awaited<ReturnType<typeof expoReceipts>>;
  try {
    receipts = await expoReceipts(due.map((d) => d.ticketId));
  } catch (error) {
    log("warn", { msg: "push: Expo receipts failed", error: String(error) });
    return 0;
  }
  const details = new Map<string, string>();
  for (const d of due) {
    const receipt = receipts[d.ticketId];
    if (!receipt) details.set(d.id, "receipt: none");
    else if (receipt.status === "error") {
      details.set(d.id, `receipt: ${receipt.details?.error ?? receipt.message}`.slice(0, 500));
      if (receipt.details?.error === "DeviceNotRegistered" && d.token) await deleteDeadDevice(db, { id: d.deviceId, provider: "expo", token: d.token });
    }
  }
  await markReceipts(
    db,
    due.map((d) => d.id),
    details,
  );
  return due.length;
}

/**
 * One delivery run: drops interrupted claims, claims up to `take` due rows and sends each (a few at a time), then
 * (unless `receipts: false`) reads due Expo receipts. Safe to run concurrently: every row is claimed once.
 */
export async function deliverDue(db: Db | Handle, opts: { take?: number; receipts?: boolean } = {}): Promise<DeliverResult> {
  const handle = db as Handle;
  await dropInterrupted(handle, CLAIM_LEASE_SECONDS);
  const claimed = await claimDue(handle, opts.take ?? DEFAULT_TAKE);
  const tally: Tally = { sent: 0, deferred: 0, retrying: 0, failed: 0, dropped: 0 };
  let next = 0;
  const worker = async () => {
    while (next < claimed.length) {
      const row = claimed[next++]!;
      try {
        tally[await deliverOne(handle, row)]++;
      } catch (error) {
        log("error", { msg: "push: delivery failed", outboxId: row.id, error: String(error) });
        const outcome = retryOrFail(row, String(error).slice(0, 1000));
        await recordOutcome(handle, row.id, outcome).catch(() => undefined);
        tally[outcome.status === "failed" ? "failed" : "retrying"]++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, claimed.length) }, worker));
  const receipts = opts.receipts === false ? 0 : await readReceipts(handle);
  return { claimed: claimed.length, ...tally, receipts };
}

// The immediate attempt: a producer that wrote a notification in a request notes it here, and once the handler
// succeeded (its transactions committed: the outbox rows are visible) the request hands a delivery run to Next's
// after(), so it runs after the answer is sent. It claims like the cron (FOR UPDATE SKIP LOCKED), so the two never
// send one row twice; whatever it leaves (quiet hours, failures, a crash) the cron picks up. Outside a request
// (crons, scripts) nothing is noted: the cron delivers.

const KEY = Symbol("push soon");
/** Rows one after-request run claims at most (the cron takes the rest). */
const TAKE = 20;

async function run() {
  const { db } = await import("../../db/client"); // the app's pool, opened only when a request wrote a notification
  await deliverDue(db, { take: TAKE, receipts: false }).catch((error) => log("error", { msg: "push: after-request delivery failed", error: String(error) }));
}

/** The current request wrote notifications: attempt their push once it has succeeded. */
export function notePushSoon(): void {
  requestState(KEY, (afterSuccess) => {
    afterSuccess(async () => {
      try {
        after(run);
      } catch {
        void run(); // outside Next's request context (a test harness): run it unawaited
      }
    });
    return true;
  });
}
