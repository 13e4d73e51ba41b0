// The daily streak as the fan sees it, with freezes: reading it, buying a freeze with Rep, using freezes for missed
// days, and the streak-at-risk notification in the fan's local evening. The streak itself is the quests' user_streaks
// row (UTC days, moved by a daily quest's completion in lib/features/quests/engine.ts); nothing here adds a second one.
//
// Where a freeze is used (docs/decisions/0041): a missed UTC day takes one held freeze acquired before that day began.
// Two writers apply it, both idempotent and both under the streak row's lock:
// - the trigger user_streaks_use_freezes (migration "progress"), when the quests' completion statement would restart
//   the streak after a gap: it uses the freezes and the streak goes on instead (so no cron timing can lose a streak);
// - applyFreezes, for days already past: the streaks cron (every 15 minutes) for everyone, and GET streak for the
//   caller, so the quests' daily summary and this route show the saved streak the next day, not 0.
import type { Db, DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { lockUser, txOptions } from "../../db/tx";
import { idempotent, type IdempotencyKey } from "../../db/idempotency";
import { DomainError, notFound } from "../../kernel/errors";
import { toStreak } from "../quests/service";
import { debit } from "../../core/rep/service";
import { STREAK_FREEZE } from "../../core/rep/service";
import { addUtcDays, utcDay } from "../../time";
import { errors as progressErrors } from "./errors";
import { repBalanceOf, streakRow, type StreakRow } from "./queries";
import { FREEZE_PRICE_REP, FREEZES_HELD_MAX } from "./schemas";
import { insertFreeze, notifyStreaksAtRisk, setFreezeEntry, takeFreezesForNextDay } from "./writes";

/** `at` as local date and time in `timeZone` (YYYY-MM-DDTHH:MM:SS, no offset). */
export function localDateTime(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * Uses held freezes for missed UTC days already past (each day: the oldest freeze acquired before it began), one day
 * per statement for every streak (or `userId`'s) whose last counted day is before yesterday; a saved day becomes the
 * streak's last day without adding to it. Answers how many freezes it used. Safe concurrently: the streak row is
 * locked first, the freeze taken only while still held, and one freeze per (user, day) is unique.
 */
export async function applyFreezes(db: RawDb | DbTx, now: Date, userId?: string): Promise<number> {
  const today = utcDay(now);
  let used = 0;
  for (let day = 0; day < FREEZES_HELD_MAX; day++) {
    const n = await takeFreezesForNextDay(db, today, now, userId);
    used += n;
    if (n === 0) break;
  }
  return used;
}

function toStreakView(row: StreakRow, now: Date) {
  const s = toStreak(row.lastDay ? { current: row.current ?? 0, longest: row.longest ?? 0, lastDay: row.lastDay } : null, now);
  const timezone = row.timezone ?? "UTC";
  const dayEndsAt = addUtcDays(now, 1);
  return {
    ...s,
    freezesHeld: row.held,
    freezePrice: FREEZE_PRICE_REP,
    atRisk: s.current > 0 && s.lastDay !== utcDay(now),
    today: utcDay(now),
    dayEndsAt: dayEndsAt.toISOString(),
    dayEndsLocal: localDateTime(dayEndsAt, timezone),
    timezone,
  };
}

/** GET /api/v1/engage/streak: freezes for days already past are used first, then the streak as of `now`. */
export async function getStreak(db: Db, userId: string, now = new Date()) {
  await applyFreezes(db, now, userId);
  const row = await streakRow(db, userId);
  if (!row) throw notFound("User");
  return toStreakView(row, now);
}

/**
 * POST /api/v1/engage/streak/freezes: one freeze for FREEZE_PRICE_REP spendable Rep (debit, a spending kind: Rep
 * earned and the tier are untouched), under the user's row lock so the cap of FREEZES_HELD_MAX holds under
 * concurrency. With an Idempotency-Key a retry answers the first purchase again.
 */
export async function buyFreeze(db: Db, userId: string, idempotency: IdempotencyKey | null, now = new Date()) {
  const work = async (tx: DbTx) => {
    if (!(await lockUser(tx, userId))) throw notFound("User");
    await applyFreezes(tx, now, userId);
    const before = await streakRow(tx, userId);
    if ((before?.held ?? 0) >= FREEZES_HELD_MAX) {
      throw new DomainError(
        progressErrors.FREEZE_LIMIT_REACHED,
        `You already hold ${FREEZES_HELD_MAX} streak freezes, the most allowed; one is used for each missed day.`,
      );
    }
    const freeze = await insertFreeze(tx, userId, now);
    const spent = await debit(tx, userId, {
      earnKind: STREAK_FREEZE,
      amount: FREEZE_PRICE_REP,
      source: "serviceDirect",
      reason: "Streak freeze",
      grantKey: `${STREAK_FREEZE}:${freeze!.id}`,
      targetId: freeze!.id,
      createdAt: now,
    });
    if (!spent) {
      const balance = await repBalanceOf(tx, userId);
      throw new DomainError(progressErrors.INSUFFICIENT_REP, `A streak freeze costs ${FREEZE_PRICE_REP} Rep; your balance is ${balance}.`);
    }
    await setFreezeEntry(tx, freeze!.id, spent.entry.id);
    const after = await streakRow(tx, userId);
    return {
      freeze: { id: freeze!.id, acquiredAt: freeze!.acquiredAt.toISOString() },
      repSpent: FREEZE_PRICE_REP,
      balance: spent.balance,
      streak: toStreakView(after!, now),
    };
  };
  if (idempotency) return idempotent(db, { userId, ...idempotency, request: {} }, work);
  return { data: await db.$transaction(work, txOptions()), replayed: false };
}

/** The streaks cron: freezes for days past, then the at-risk notifications. */
export async function runStreaksCron(db: Db, now = new Date()) {
  const freezesUsed = await applyFreezes(db, now);
  const notified = await notifyStreaksAtRisk(db, now);
  return { freezesUsed, notified };
}
