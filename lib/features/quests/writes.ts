// The quests' multi-table writes (lib/db/fragments.ts: the rules of a statement made of other modules' parts).
import { Prisma } from "../../generated/prisma/client";
import type { Db } from "../../db/client";
import { oncePerUser } from "../../db/fragments";
import { raw } from "../../db/raw";
import { awardRowsCtes, SERVER_AWARDS } from "../../core/rep/service";
import { questCompletionRowsCtes } from "./engine";
import type { QuestRow } from "./queries";

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
