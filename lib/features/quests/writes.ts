// The quests' writes: a quest's completion (its statement parts and its statement), steps marked done, the quest
// points recomputed, and the multi-table check-ins (lib/db/fragments.ts: the rules of a statement made of other
// modules' parts).
import { Prisma } from "../../generated/prisma/client";
import type { Db, DbTx } from "../../db/client";
import { ctes, oncePerUser, type Ctes, type OncePerUser } from "../../db/fragments";
import { raw, type RawDb } from "../../db/raw";
import { awardRowsCtes, SERVER_AWARDS } from "../../core/rep/service";
import type { QuestRow } from "./queries";

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

/** The completion of (user, quest, period) in one statement (questCompletionCtes): false when it was already completed. */
export async function markQuestCompleted(
  tx: RawDb,
  userId: string,
  q: Pick<QuestRow, "id" | "cadence">,
  periodKey: string,
  amount: number,
  now: Date,
): Promise<boolean> {
  const completion = questCompletionCtes(userId, q, periodKey, amount, now);
  const [{ done }] = (await tx.$queryRaw<{ done: boolean }[]>`
    WITH ${completion.sql} SELECT EXISTS (SELECT 1 FROM ${completion.name.done}) AS done`) as [{ done: boolean }];
  return done;
}

/**
 * Starts the quest's period, marks `stepIds` done (skipping those already done) and counts the quest's steps, in one
 * statement: the steps it inserted, the quest's steps, and those done. Under the user's row lock nobody else marks
 * this user's steps, so the steps done before it (its snapshot) and those it inserted are all that are done.
 */
export async function markStepsDone(tx: RawDb, userId: string, questId: string, periodKey: string, stepIds: string[], now: Date) {
  const [marked] = await tx.$queryRaw<{ inserted: number; total: number; done: number }[]>`
    WITH started AS (
      INSERT INTO quest_progress (user_id, quest_id, period_key, started_at)
      VALUES (${userId}::uuid, ${questId}, ${periodKey}, ${now}::timestamptz)
      ON CONFLICT DO NOTHING
    ), inserted AS (
      INSERT INTO quest_step_progress (user_id, step_id, period_key, completed_at)
      SELECT ${userId}::uuid, step_id, ${periodKey}, ${now}::timestamptz FROM unnest(${stepIds}::text[]) AS step_id
      ON CONFLICT DO NOTHING
      RETURNING step_id
    )
    SELECT (SELECT count(*) FROM inserted)::int AS inserted, count(*)::int AS total, (count(sp.step_id) + count(i.step_id))::int AS done
    FROM quest_steps s
    LEFT JOIN quest_step_progress sp ON sp.step_id = s.id AND sp.user_id = ${userId}::uuid AND sp.period_key = ${periodKey}
    LEFT JOIN inserted i ON i.step_id = s.id
    WHERE s.quest_id = ${questId}`;
  return marked!;
}

/** Recomputes users.quest_points from the user's completions (quest_progress.rep_awarded), answering it. */
export async function recomputeQuestPoints(tx: DbTx, userId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ questPoints: bigint }[]>`
    UPDATE users SET quest_points = (SELECT COALESCE(sum(rep_awarded), 0)::int8 FROM quest_progress WHERE user_id = ${userId}::uuid AND completed_at IS NOT NULL)
    WHERE id = ${userId}::uuid RETURNING quest_points AS "questPoints"`;
  return Number(row!.questPoints);
}

/** One check-in to write: its row, what it credits, and the team's check-in quest it completes (if any). */
export interface CheckInWrite {
  id: string;
  entryId: string;
  userId: string;
  teamId: string;
  gameId: string | null;
  day: string;
  at: Date;
  quest: Pick<QuestRow, "id" | "cadence"> | null;
  /** Quests with an arena_check_in step the check-in meets, by the period key it marks them in. */
  stepQuests: { id: string; periodKey: string }[];
}

/** A check-in's row when it was inserted (else null: the day's check-in exists), with the balance its Rep raised. */
export type CheckInWritten = { createdAt: Date; balance: number | null; questCompleted: boolean } | null;

/**
 * Writes check-ins in one statement: the unique (user, team, day) decides each (ON CONFLICT DO NOTHING); the Rep
 * (grant key arena_check_in:<teamId>:<day>) and the check-in quest's completion (its award is the check-in's Rep:
 * 0 more) follow only for the rows inserted. Each user appears once (batchRepWrites keys the batch by user), as the
 * credit and the completion need (lib/db/fragments.ts).
 *
 * It also marks the arena_check_in steps of `stepQuests`, only where the Rep was credited: that UPDATE holds the
 * user's row lock until the statement commits, so a concurrent markSteps of the same user (under that lock) either
 * counts this step or commits before this statement does; the check-in then reads its quests afresh
 * (advanceConditionedSteps) and completes one whose steps are all done.
 */
export async function writeCheckIns(db: Db, items: CheckInWrite[]): Promise<CheckInWritten[]> {
  const rule = SERVER_AWARDS.arena_check_in;
  const col = <T>(f: (c: CheckInWrite) => T) => items.map(f);
  const steps = items.flatMap((c) => c.stepQuests.map((q) => ({ checkInId: c.id, ...q })));
  const stepCol = <T>(f: (q: (typeof steps)[number]) => T) => steps.map(f);
  const inserted = Prisma.raw("inserted");
  const credit = awardRowsCtes(
    oncePerUser(
      Prisma.sql`SELECT entry_id AS id, user_id, team_id AS target_id, 'arena_check_in:' || team_id || ':' || day AS grant_key, at AS created_at FROM ${inserted}`,
    ),
    { earnKind: "arena_check_in", ...rule },
  );
  const completion = questCompletionRowsCtes(
    oncePerUser(Prisma.sql`SELECT user_id, quest_id, day::text AS period_key, quest_daily AS daily, at FROM ${inserted} WHERE quest_id IS NOT NULL`),
    0,
  );
  const rows = await raw(db).$queryRaw<{ id: string; createdAt: Date | null; balance: bigint | null; questCompleted: boolean }[]>`
    WITH input AS (
      SELECT * FROM unnest(${col((c) => c.id)}::uuid[], ${col((c) => c.entryId)}::uuid[], ${col((c) => c.userId)}::uuid[],
                           ${col((c) => c.teamId)}::text[], ${col((c) => c.gameId)}::text[], ${col((c) => c.day)}::date[],
                           ${col((c) => c.at.toISOString())}::timestamptz[], ${col((c) => c.quest?.id ?? null)}::text[], ${col((c) => c.quest?.cadence === "daily")}::bool[])
        AS i(id, entry_id, user_id, team_id, game_id, day, at, quest_id, quest_daily)
    ), checkin AS (
      INSERT INTO arena_check_ins (id, user_id, team_id, game_id, day, created_at)
      SELECT id, user_id, team_id, game_id, day, at FROM input
      ON CONFLICT (user_id, team_id, day) DO NOTHING
      RETURNING id, created_at
    ), ${inserted} AS (
      SELECT i.* FROM input i JOIN checkin c ON c.id = i.id
    ), ${credit.sql}, ${completion.sql}, step_rows AS (
      SELECT i.user_id, s.quest_id, s.period_key, i.at
      FROM unnest(${stepCol((q) => q.checkInId)}::uuid[], ${stepCol((q) => q.id)}::text[], ${stepCol((q) => q.periodKey)}::text[]) AS s(check_in_id, quest_id, period_key)
      JOIN ${inserted} i ON i.id = s.check_in_id JOIN ${credit.name.raised} r ON r.id = i.user_id
    ), step_started AS (
      INSERT INTO quest_progress (user_id, quest_id, period_key, started_at)
      SELECT user_id, quest_id, period_key, at FROM step_rows
      ON CONFLICT DO NOTHING
    ), step_marked AS (
      INSERT INTO quest_step_progress (user_id, step_id, period_key, completed_at)
      SELECT r.user_id, s.id, r.period_key, r.at FROM step_rows r JOIN quest_steps s ON s.quest_id = r.quest_id AND s.condition = 'arena_check_in'
      ON CONFLICT DO NOTHING
    )
    SELECT i.id::text, c.created_at AS "createdAt", r.rep_balance AS balance,
           EXISTS (SELECT 1 FROM ${completion.name.done} d WHERE d.user_id = i.user_id AND d.quest_id = i.quest_id) AS "questCompleted"
    FROM input i LEFT JOIN checkin c ON c.id = i.id LEFT JOIN ${credit.name.raised} r ON r.id = i.user_id`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return items.map((c) => {
    const r = byId.get(c.id);
    return r?.createdAt ? { createdAt: r.createdAt, balance: r.balance === null ? null : Number(r.balance), questCompleted: r.questCompleted } : null;
  });
}
