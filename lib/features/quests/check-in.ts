// Arena check-ins: at a game, by a fan, once per team and UTC day. Concurrent check-ins share their read and their
// write (lib/db/batch.ts); the write credits the check-in's Rep, completes the team's check-in quest and marks
// arena_check_in steps. Where the device must be is venue.ts's.
import type { Db } from "../../db/client";
import { batchConcurrentCallsPerClient } from "../../db/batch";
import { uuidv7 } from "../../db/ids";
import { env } from "../../env";
import { DomainError, notFound } from "../../kernel/errors";
import { log } from "../../kernel/log";
import { batchRepWrites, SERVER_AWARDS } from "../../core/rep/service";
import { utcDay } from "../../time";
import { periodKeyOf } from "./engine";
import { writeCheckIns } from "./writes";
import { noteReferralProgress } from "../referrals/service";
import { checkInContextsOf, type CheckInAt, type QuestRow } from "./queries";
import type { CheckInBody } from "./schemas";
import { advanceConditionedSteps } from "./steps";
import { gameToCheckIn } from "./venue";
import { errors as questsErrors } from "./errors";

// Concurrent check-ins of a process share their statements (lib/db/batch.ts): one read of their contexts, then one
// write (a user's at most once per write).
const readCheckIn = batchConcurrentCallsPerClient(
  (db: Db, items: CheckInAt[]) =>
    checkInContextsOf(db, items, { opensBefore: env().CHECK_IN_OPENS_MINUTES_BEFORE, closesAfter: env().CHECK_IN_CLOSES_MINUTES_AFTER }),
  { max: 64 },
);
const writeCheckIn = batchRepWrites(writeCheckIns);

/**
 * At a game, by a fan: the caller follows or joined the team, the team has a game whose check-in window holds now,
 * and where the venue's position is known the device is there (lib/features/quests/venue.ts).
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
  if (row.questCompleted) noteReferralProgress(userId);
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
