// The quest engine's core: a quest's period and award, eligibility (eligibleOrThrow over eligibleQuests) and
// completion (completeQuest and its statement parts, questCompletionCtes and questCompletionRowsCtes), which every
// other quest feature goes through.
import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { ctes, oncePerUser, type Ctes, type OncePerUser } from "../../db/fragments";
import { notFound } from "../../kernel/errors";
import { award, SERVER_AWARDS } from "../../core/rep/service";
import { utcDay } from "../../time";
import { noteReferralProgress } from "../referrals/service";
import { eligibleQuests, type QuestRow } from "./queries";

// The quest engine. Quests are data (kind, scope, cadence, steps, reward); eligibility is resolved here only
// (eligibleQuests). Completion is one function (completeQuest): the quest_progress row of (user, quest, period) is
// completed at most once (an upsert that only fills completed_at while it is null), and its Rep goes through
// award() under the grant key quest:<questId>:<periodKey>, so a retry or a race credits once.

export const periodKeyOf = (cadence: "daily" | "once", now: Date) => (cadence === "daily" ? utcDay(now) : "once");

/** What completing `q` credits. A check-in quest's Rep is the arena check-in's own award (credited by the check-in). */
export function awardOf(q: Pick<QuestRow, "kind" | "cadence" | "repReward" | "repSource">) {
  if (q.kind === "check_in") {
    const a = SERVER_AWARDS.arena_check_in;
    return { amount: a.amount, source: a.source as QuestRow["repSource"], earnKind: "arena_check_in" as const };
  }
  return { amount: q.repReward, source: q.repSource, earnKind: q.cadence === "daily" ? ("daily_quest_completion" as const) : ("quest_completion" as const) };
}

export async function eligibleOrThrow(db: DbTx, userId: string, questId: string, now: Date): Promise<QuestRow> {
  const [q] = await eligibleQuests(db, userId, now, questId);
  if (!q) throw notFound("Quest");
  return q;
}

/**
 * A quest's completion as CTEs for a statement: `quest_done` fills completed_at only while it is null (ON CONFLICT …
 * WHERE), and only then `quest_points` raises users.quest_points (left out for 0) and, for daily quests,
 * `quest_streak` moves the streak on the day's first completion (it grows if the last such day was the day before,
 * else restarts at 1; a later completion the same day leaves the row unwritten). `when`
 * gates it on the rest of the statement. Each part is atomic on its own row: no user lock needed.
 */
export function questCompletionCtes(
  userId: string,
  q: Pick<QuestRow, "id" | "cadence">,
  periodKey: string,
  amount: number,
  now: Date,
  when: Prisma.Sql = Prisma.sql`true`,
): Ctes<"done"> {
  return questCompletionRowsCtes(
    oncePerUser(Prisma.sql`SELECT ${userId}::uuid AS user_id, ${q.id}::text AS quest_id, ${periodKey}::text AS period_key,
                      ${q.cadence === "daily"}::boolean AS daily, ${now}::timestamptz AS at WHERE ${when}`),
    amount,
  );
}

/**
 * questCompletionCtes for many completions at once (lib/db/fragments.ts): `rows` is a query with columns user_id,
 * quest_id, period_key, daily (the quest's cadence is daily) and at, each user at most once (quest points and the
 * streak are one row per user). `done` answers (user_id, quest_id) per completion.
 */
export function questCompletionRowsCtes(rows: OncePerUser, amount: number): Ctes<"done"> {
  return ctes({ done: "quest_done" }, (name) => {
    const points =
      amount > 0
        ? Prisma.sql`, quest_points AS (
          UPDATE users u SET quest_points = quest_points + ${amount} FROM ${name.done} d WHERE u.id = d.user_id)`
        : Prisma.empty;
    return questCompletionSql(rows, amount, name.done, points);
  });
}

function questCompletionSql(rows: Prisma.Sql, amount: number, done: Prisma.Sql, points: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`quest_rows AS (${rows}), ${done} AS (
      INSERT INTO quest_progress (user_id, quest_id, period_key, started_at, completed_at, rep_awarded)
      SELECT user_id, quest_id, period_key, at, at, ${amount} FROM quest_rows
      ON CONFLICT (user_id, quest_id, period_key) DO UPDATE SET completed_at = EXCLUDED.completed_at, rep_awarded = EXCLUDED.rep_awarded
      WHERE quest_progress.completed_at IS NULL
      RETURNING user_id, quest_id
    )${points}, quest_streak AS (
      INSERT INTO user_streaks (user_id, current, longest, last_day, updated_at)
      SELECT r.user_id, 1, 1, CASE WHEN r.daily THEN r.period_key::date END, r.at FROM quest_rows r JOIN ${done} d ON d.user_id = r.user_id AND d.quest_id = r.quest_id
      WHERE r.daily
      ON CONFLICT (user_id) DO UPDATE SET
        current = CASE WHEN user_streaks.last_day = EXCLUDED.last_day - 1 THEN user_streaks.current + 1 ELSE 1 END,
        longest = GREATEST(user_streaks.longest, CASE WHEN user_streaks.last_day = EXCLUDED.last_day - 1 THEN user_streaks.current + 1 ELSE 1 END),
        last_day = EXCLUDED.last_day,
        updated_at = EXCLUDED.updated_at
      WHERE user_streaks.last_day < EXCLUDED.last_day
    )`;
}

/**
 * Completes (user, quest, period) once (questCompletionCtes, one statement), then credits `amount` through award()
 * (grant key quest:<questId>:<periodKey>; nothing written for 0), so concurrent completions credit once. False when
 * it was already completed.
 */
export async function completeQuest(
  tx: RawDb,
  userId: string,
  q: Pick<QuestRow, "id" | "title" | "cadence" | "repSource">,
  periodKey: string,
  amount: number,
  now: Date,
): Promise<boolean> {
  const completion = questCompletionCtes(userId, q, periodKey, amount, now);
  const [{ done }] = (await tx.$queryRaw<{ done: boolean }[]>`
    WITH ${completion.sql} SELECT EXISTS (SELECT 1 FROM ${completion.name.done}) AS done`) as [{ done: boolean }];
  if (!done) return false;
  // A first completed quest may qualify a referral (lib/features/referrals): settled once this request's writes committed.
  noteReferralProgress(userId);
  if (amount > 0) {
    await award(tx, userId, {
      earnKind: q.cadence === "daily" ? "daily_quest_completion" : "quest_completion",
      amount,
      source: q.repSource,
      reason: `Quest completed: ${q.title}`,
      grantKey: `quest:${q.id}:${periodKey}`,
      targetId: q.id,
      createdAt: now,
    });
  }
  return true;
}
