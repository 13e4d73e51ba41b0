// Arena check-ins: at a game, by a fan, once per team and UTC day. Concurrent check-ins share their read and their
// write (lib/db/batch.ts); the write credits the check-in's Rep, completes the team's check-in quest and marks
// arena_check_in steps. Where the device must be is venue.ts's.
import { Prisma } from "../generated/prisma/client";
import type { Db } from "../db/client";
import { batchConcurrentCallsPerClient } from "../db/batch";
import { uuidv7 } from "../db/ids";
import { raw } from "../db/raw";
import { env } from "../env";
import { DomainError, notFound } from "../http/errors";
import { log } from "../kernel/log";
import { noteBoardsMoved } from "../leaderboard/moves";
import { awardRowsCtes, SERVER_AWARDS } from "../rep/grants";
import { utcDay } from "../time";
import { periodKeyOf, questCompletionRowsCtes } from "./engine";
import { checkInContextsOf, type CheckInAt, type QuestRow } from "./queries";
import type { CheckInBody } from "./schemas";
import { advanceConditionedSteps } from "./steps";
import { gameToCheckIn } from "./venue";
import { errors as questsErrors } from "./errors";

/** One check-in to write: its row, what it credits, and the team's check-in quest it completes (if any). */
interface CheckInWrite {
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
type CheckInWritten = { createdAt: Date; balance: number | null; questCompleted: boolean } | null;

/**
 * Writes check-ins in one statement: the unique (user, team, day) decides each (ON CONFLICT DO NOTHING); the Rep
 * (grant key arena_check_in:<teamId>:<day>) and the check-in quest's completion (its award is the check-in's Rep:
 * 0 more) follow only for the rows inserted. Each user appears once (batchConcurrentCalls's key), as awardRowsCtes needs.
 *
 * It also marks the arena_check_in steps of `stepQuests`, only where the Rep was credited: that UPDATE holds the
 * user's row lock until the statement commits, so a concurrent markSteps of the same user (under that lock) either
 * counts this step or commits before this statement does; the check-in then reads its quests afresh
 * (advanceConditionedSteps) and completes one whose steps are all done.
 */
async function writeCheckIns(db: Db, items: CheckInWrite[]): Promise<CheckInWritten[]> {
  const rule = SERVER_AWARDS.arena_check_in;
  const col = <T>(f: (c: CheckInWrite) => T) => items.map(f);
  const steps = items.flatMap((c) => c.stepQuests.map((q) => ({ checkInId: c.id, ...q })));
  const stepCol = <T>(f: (q: (typeof steps)[number]) => T) => steps.map(f);
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
    ), inserted AS (
      SELECT i.* FROM input i JOIN checkin c ON c.id = i.id
    ), ${awardRowsCtes(
      Prisma.sql`SELECT entry_id AS id, user_id, team_id AS target_id, 'arena_check_in:' || team_id || ':' || day AS grant_key, at AS created_at FROM inserted`,
      { earnKind: "arena_check_in", ...rule },
    )}, ${questCompletionRowsCtes(
      Prisma.sql`SELECT user_id, quest_id, day::text AS period_key, quest_daily AS daily, at FROM inserted WHERE quest_id IS NOT NULL`,
      0,
    )}, step_rows AS (
      SELECT i.user_id, s.quest_id, s.period_key, i.at
      FROM unnest(${stepCol((q) => q.checkInId)}::uuid[], ${stepCol((q) => q.id)}::text[], ${stepCol((q) => q.periodKey)}::text[]) AS s(check_in_id, quest_id, period_key)
      JOIN inserted i ON i.id = s.check_in_id JOIN rep_raised r ON r.id = i.user_id
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
           EXISTS (SELECT 1 FROM quest_done d WHERE d.user_id = i.user_id AND d.quest_id = i.quest_id) AS "questCompleted"
    FROM input i LEFT JOIN checkin c ON c.id = i.id LEFT JOIN rep_raised r ON r.id = i.user_id`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return items.map((c) => {
    const r = byId.get(c.id);
    return r?.createdAt ? { createdAt: r.createdAt, balance: r.balance === null ? null : Number(r.balance), questCompleted: r.questCompleted } : null;
  });
}

// Concurrent check-ins of a process share their statements (lib/db/batch.ts): one read of their contexts, then one
// write (a user's at most once per write).
const readCheckIn = batchConcurrentCallsPerClient(
  (db: Db, items: CheckInAt[]) =>
    checkInContextsOf(db, items, { opensBefore: env().CHECK_IN_OPENS_MINUTES_BEFORE, closesAfter: env().CHECK_IN_CLOSES_MINUTES_AFTER }),
  { max: 64 },
);
const writeCheckIn = batchConcurrentCallsPerClient(writeCheckIns, { keyOf: (c) => c.userId, max: 64 });

/**
 * At a game, by a fan: the caller follows or joined the team, the team has a game whose check-in window holds now,
 * and where the venue's position is known the device is there (lib/quests/venue.ts).
 * Once per user, team and UTC day (unique arena_check_ins (user_id, team_id, day), inserted ON CONFLICT DO NOTHING):
 * a second one is 409 ALREADY_CHECKED_IN. Credits SERVER_AWARDS.arena_check_in (grant key
 * arena_check_in:<teamId>:<day>) and completes the team's check-in quest for today with repAwarded 0: the check-in's
 * award is the quest's reward, credited once. Then marks arena_check_in steps the user now meets.
 */
export async function arenaCheckIn(db: Db, userId: string, body: CheckInBody, now = new Date()) {
  const today = utcDay(now);
  // One read: the team (and the game), and the quests this check-in completes or advances: the team's check-in quest
  // if the user may take it, and quests with a check-in step still to do that it can meet.
  const target = await readCheckIn(db, { userId, teamId: body.teamId, gameId: body.gameId ?? null, at: now, day: today });
  if (!target || target.archived) throw notFound("Team");
  if (!target.fan) throw new DomainError(questsErrors.NOT_FOLLOWING_TEAM, "Follow or join this team to check in for it.");
  const game = gameToCheckIn(target.game, body, now, { radiusMeters: env().CHECK_IN_RADIUS_METERS, maxAccuracyMeters: env().CHECK_IN_MAX_ACCURACY_METERS });
  const { quests } = target;
  const quest = quests.find((q) => q.kind === "check_in" && q.teamId === body.teamId) ?? null;
  const withStep = quests.filter((q) => q.kind === "multi_step");
  const rule = SERVER_AWARDS.arena_check_in;
  // One statement, shared with concurrent check-ins, so no transaction and no user lock.
  const id = uuidv7(now.getTime());
  const row = await writeCheckIn(db, {
    id,
    entryId: uuidv7(now.getTime()),
    userId,
    teamId: body.teamId,
    gameId: game.id,
    day: today,
    at: now,
    quest,
    stepQuests: withStep.map((q) => ({ id: q.id, periodKey: periodKeyOf(q.cadence, now) })),
  });
  if (!row) throw new DomainError(questsErrors.ALREADY_CHECKED_IN, "You already checked in for this team today (UTC).");
  if (row.balance !== null) noteBoardsMoved(userId);
  // The check-in's steps are marked; its quests' other conditioned steps follow, and the quests it completes. The
  // check-in and its Rep are committed by now: a failure here must not turn that into an error answer;
  // check-progress retries the steps later.
  if (withStep.length > 0) {
    await advanceConditionedSteps(db, userId, withStep, now).catch((error: unknown) =>
      log("warn", { msg: "quest steps after a check-in failed; check-progress will retry them", userId, error: String(error) }),
    );
  }
  // No credit only if the grant key was already used (e.g. a check-in row removed by staff): answer the balance as it is.
  const balance = row.balance ?? Number((await db.user.findUniqueOrThrow({ where: { id: userId }, select: { repBalance: true } })).repBalance);
  return {
    id,
    teamId: body.teamId,
    gameId: game.id,
    day: today,
    createdAt: row.createdAt.toISOString(),
    repAwarded: row.balance !== null ? rule.amount : 0,
    source: rule.source as QuestRow["repSource"],
    balance,
    questCompleted: row.questCompleted ? quest!.id : null,
  };
}
