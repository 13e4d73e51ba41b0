import { z } from "zod";
import { pageSchema } from "../../kernel/page";
import { cursorQuery, idString, intQuery, isoDateTime, UUID_PATTERN } from "../../kernel/schemas";
import { repSource } from "../../core/rep/schemas";

export const completedQuestsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });

export const completedQuest = z
  .object({
    questId: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    teamId: z.string().nullable().meta({ description: "Team the quest belongs to, or null for a global quest." }),
    repReward: z.number().int(),
    isDaily: z.boolean(),
    completedAt: isoDateTime,
  })
  .meta({ id: "CompletedQuest" });

export const completedQuestPage = pageSchema("quests", completedQuest, {
  id: "CompletedQuestPage",
  nextCursor: "Present only when more completions remain.",
});

// ---------------------------------------------------------------------------------------------------------------
// The quest engine

const questId = idString.meta({ description: "Quest id, e.g. `q_quiz_hch`." });
export const questParams = z.strictObject({ questId });
export const sessionParams = z.strictObject({
  sessionId: z.string().regex(UUID_PATTERN, "Must be a session id (UUID)").meta({ description: "Quiz session id (UUID)." }),
});

export const questKind = z.enum(["quiz", "check_in", "visit", "multi_step"]);
export const questScope = z.enum(["global", "team", "pass"]);
export const questCadence = z.enum(["daily", "once"]);
const quizSessionStatus = z.enum(["active", "completed", "forfeited"]);

export const questAward = z
  .object({
    amount: z.number().int().meta({ description: "Rep credited on completion (a quiz: at most this, scaled by correct answers)." }),
    source: repSource.meta({ description: "The Rep type the award is written with (the server's choice)." }),
    earnKind: z.enum(["quest_completion", "daily_quest_completion", "arena_check_in"]),
  })
  .meta({
    id: "QuestAward",
    description: "What completing the quest awards. A check-in quest's award is the arena check-in's own Rep, credited once by the check-in.",
  });

export const questStep = z
  .object({
    id: z.string(),
    position: z.number().int(),
    title: z.string(),
    condition: z
      .enum(["follows_three_teams", "joined_team", "handle_set", "display_name_set", "avatar_set", "arena_check_in", "game_rated"])
      .nullable()
      .meta({ description: "null: the app reports the step done (POST /api/quests/complete-step); else the server checks this condition." }),
    done: z.boolean().meta({ description: "Done in the quest's current period." }),
  })
  .meta({ id: "QuestStep" });

export const quest = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    kind: questKind,
    scope: questScope,
    cadence: questCadence,
    teamId: z.string().nullable(),
    passId: z.string().nullable(),
    repReward: z.number().int().meta({ description: "The quest's reward as configured (0 for check-in quests: their Rep is the check-in's)." }),
    award: questAward,
    periodKey: z.string().meta({ description: "The current period: the UTC day (YYYY-MM-DD) for daily quests, `once` otherwise." }),
    endsAt: isoDateTime.nullable().meta({ description: "When the current period or the quest's availability ends, whichever is first; null: open-ended." }),
    steps: z.array(questStep),
    stepsDone: z.number().int(),
    stepsTotal: z.number().int(),
    started: z.boolean(),
    completed: z.boolean().meta({ description: "Completed in the current period (today for daily quests)." }),
    completedAt: isoDateTime.nullable(),
    repAwarded: z.number().int().nullable().meta({ description: "Rep this period's completion credited; null until completed." }),
    completedEver: z.boolean(),
    timesCompleted: z.number().int(),
    quiz: z
      .object({
        length: z.number().int(),
        secondsPerQuestion: z.number().int(),
        sessionId: z.string().nullable().meta({ description: "Today's session, if one was started." }),
        sessionStatus: quizSessionStatus.nullable(),
      })
      .nullable()
      .meta({ description: "Quiz quests only." }),
  })
  .meta({ id: "Quest" });

export const questList = z
  .object({ day: z.string().meta({ description: "The caller's UTC day (YYYY-MM-DD)." }), quests: z.array(quest) })
  .meta({ id: "QuestList" });

export const quizQuestion = z
  .object({
    position: z.number().int().meta({ description: "0-based position in the session." }),
    prompt: z.string(),
    choices: z.array(z.string()),
    shownAt: isoDateTime,
    deadline: isoDateTime.meta({ description: "shownAt + secondsPerQuestion. The server still accepts an answer for a grace window after it (graceMs)." }),
  })
  .meta({ id: "QuizQuestion", description: "The current question, never with its answer." });

export const quizSession = z
  .object({
    id: z.string(),
    questId: z.string(),
    day: z.string().meta({ description: "The UTC day of the attempt (YYYY-MM-DD)." }),
    status: quizSessionStatus,
    total: z.number().int(),
    answered: z.number().int().meta({ description: "Questions answered or timed out so far." }),
    correctCount: z.number().int(),
    secondsPerQuestion: z.number().int(),
    graceMs: z.number().int().meta({ description: "QUIZ_GRACE_MS: how long after a deadline an answer still counts." }),
    startedAt: isoDateTime,
    endedAt: isoDateTime.nullable(),
    question: quizQuestion.nullable().meta({ description: "The current question while active; null once ended." }),
    repAwarded: z.number().int().meta({ description: "Rep credited on completion: floor(repReward × correct / total); 0 until completed and when forfeited." }),
  })
  .meta({ id: "QuizSession" });

export const submitBody = z.strictObject({
  answerIndex: z.number().int().min(0).max(15).meta({ description: "0-based index into the current question's choices." }),
  position: z.number().int().min(0).optional().meta({
    description: "Optional: the position of the question being answered. When given and not the current one, 409 QUIZ_POSITION_MISMATCH and nothing changes.",
  }),
});

export const submitResult = z
  .object({
    correct: z.boolean(),
    timedOut: z.boolean().meta({ description: "The answer came after its question's deadline plus the grace window: recorded as a miss." }),
    position: z.number().int().meta({ description: "The question this submit settled." }),
    correctIndex: z.number().int().meta({ description: "The answer of the question this submit settled (revealed only once it is settled)." }),
    session: quizSession,
  })
  .meta({ id: "QuizSubmitResult" });

export const deviceLocation = z
  .strictObject({
    latitude: z.number().min(-90).max(90).meta({ description: "WGS 84 degrees, as the device's location API reports it." }),
    longitude: z.number().min(-180).max(180).meta({ description: "WGS 84 degrees." }),
    accuracy: z.number().positive().max(1_000_000).meta({ description: "The reported horizontal accuracy, meters (radius of 68% confidence)." }),
    mocked: z
      .boolean()
      .optional()
      .meta({ description: "The platform's mock-location flag (Android's `isMock`, Expo's `mocked`): true is refused (409 LOCATION_MOCKED)." }),
  })
  .meta({ id: "DeviceLocation", description: "The device's position when checking in, from the platform's location API." });

export const checkInBody = z.strictObject({
  teamId: idString,
  gameId: idString
    .optional()
    .meta({ description: "Optional: a game of this team starting on today's UTC day; without it, the team's game whose check-in window is open now." }),
  location: deviceLocation
    .optional()
    .meta({ description: "Required when the game's venue has coordinates (else 400 naming `body.location`); ignored otherwise but for `mocked`." }),
});
export type CheckInBody = z.infer<typeof checkInBody>;

export const checkInResult = z
  .object({
    id: z.string(),
    teamId: z.string(),
    gameId: z.string().nullable(),
    day: z.string(),
    createdAt: isoDateTime,
    repAwarded: z.number().int(),
    source: repSource,
    balance: z.number().int().meta({ description: "The caller's Rep balance after the award." }),
    questCompleted: z.string().nullable().meta({ description: "The team's check-in quest this check-in completed today, if any (no second Rep)." }),
  })
  .meta({ id: "ArenaCheckIn" });

export const streak = z
  .object({
    current: z.number().int().meta({ description: "Consecutive UTC days, ending today or yesterday, with at least one completed daily quest; 0 otherwise." }),
    longest: z.number().int(),
    lastDay: z.string().nullable(),
  })
  .meta({ id: "DailyStreak" });

export const dailySummary = z
  .object({
    day: z.string(),
    teams: z.array(
      z.object({
        teamId: z.string(),
        slug: z.string(),
        name: z.string(),
        logo: z.string().nullable(),
        quiz: z
          .object({
            questId: z.string(),
            title: z.string(),
            completed: z.boolean(),
            sessionId: z.string().nullable(),
            sessionStatus: quizSessionStatus.nullable(),
            award: questAward,
            repAwarded: z.number().int().nullable(),
          })
          .nullable(),
        checkIn: z.object({
          done: z.boolean(),
          questId: z.string().nullable(),
          award: questAward,
        }),
      }),
    ),
    streak,
  })
  .meta({ id: "DailySummary" });

// Legacy routes (/api/quests/*)
export const questIdBody = z.strictObject({ questId });
export const completeStepBody = z.strictObject({ questId, stepId: idString });
export const checkProgressBody = z.strictObject({ questId: questId.optional() }).optional();

export const questUpdate = z
  .object({
    quest,
    stepCompleted: z.boolean().meta({ description: "This request completed the step (false when it was already done)." }),
    questCompleted: z.boolean().meta({ description: "This request completed the quest (and credited its award)." }),
  })
  .meta({ id: "QuestUpdate" });

export const questsUpdate = z
  .object({
    completed: z.array(z.string()).meta({ description: "Quests this request completed." }),
    quests: z.array(quest),
  })
  .meta({ id: "QuestsUpdate" });

export const questPoints = z
  .object({
    questPoints: z.number().int().meta({ description: "users.quest_points: the sum of rep_awarded over the caller's completed quests." }),
    previous: z.number().int(),
    entriesWritten: z.number().int().meta({ description: "Ledger entries written for completions that lacked one (0 on a re-run)." }),
  })
  .meta({ id: "QuestPoints" });
