import { z } from "zod";
import { pageSchema } from "../../kernel/page";
import { cursorQuery, idString, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";
import { gameStatus } from "../games/schemas";

// Predictions and private leagues: requests and answers (lib/features/predictions/service.ts, private-leagues.ts, settle.ts).

/** Goals a predicted score may name per side. */
export const MAX_PREDICTED_GOALS = 30;
/** The points table (docs/domains/predictions.md): 1 point is 1 Club Rep. */
export const POINTS = { exact: 10, goalDifference: 6, outcome: 3, miss: 0 } as const;
/** Members a private league may hold (the owner included). */
export const LEAGUE_MEMBER_CAP = 50;
/** Private leagues a fan may be a member of (owned ones included), and own. */
export const LEAGUES_PER_USER = 20;
export const LEAGUES_OWNED_PER_USER = 5;
/** Most popular exact scores shown in a crowd split. */
export const CROWD_TOP_SCORES = 5;

export const OUTCOMES = ["home", "draw", "away"] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const outcomeOf = (home: number, away: number): Outcome => (home > away ? "home" : home < away ? "away" : "draw");

export const gameParams = z.strictObject({ gameId: idString.meta({ description: "Game id (e.g. gm_nfl_007)." }) });

const goals = z.number().int().min(0).max(MAX_PREDICTED_GOALS);

export const predictionBody = z
  .strictObject({
    outcome: z.enum(OUTCOMES).meta({ description: "home win, draw or away win; must agree with the score." }),
    homeScore: goals.meta({ description: `Predicted home goals (0..${MAX_PREDICTED_GOALS}).` }),
    awayScore: goals.meta({ description: `Predicted away goals (0..${MAX_PREDICTED_GOALS}).` }),
  })
  .superRefine((b, ctx) => {
    if (outcomeOf(b.homeScore, b.awayScore) !== b.outcome)
      ctx.addIssue({ code: "custom", path: ["outcome"], message: `Does not agree with the score ${b.homeScore}-${b.awayScore}` });
  })
  .meta({ id: "PredictionPut" });
export type PredictionInput = z.infer<typeof predictionBody>;

export const PREDICTION_STATES = ["open", "locked", "void", "settled"] as const;

export const prediction = z
  .object({
    gameId: z.string(),
    outcome: z.enum(OUTCOMES),
    homeScore: z.number().int(),
    awayScore: z.number().int(),
    state: z.enum(PREDICTION_STATES).meta({
      description:
        "open: editable (before kick-off); locked: kicked off, waiting for the final score; void: made or last edited at or after the real kick-off, or the game was postponed or canceled (never scores); settled: points awarded.",
    }),
    points: z.number().int().nullable().meta({ description: "Points (= Club Rep) once settled; null before." }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime.meta({ description: "The last edit: a prediction whose last edit is at or after the game's startsAt is void." }),
    settledAt: isoDateTime.nullable(),
  })
  .meta({ id: "Prediction" });

const gameSummary = z
  .object({
    id: z.string(),
    homeTeamId: z.string(),
    awayTeamId: z.string(),
    startsAt: isoDateTime,
    status: gameStatus,
    homeScore: z.number().int().nullable(),
    awayScore: z.number().int().nullable(),
  })
  .meta({ id: "PredictionGame" });

export const myPrediction = z
  .object({
    game: gameSummary,
    locked: z.boolean().meta({ description: "True once the game kicked off (server clock) or is no longer scheduled: no more edits." }),
    locksAt: isoDateTime.meta({ description: "The lock: the game's startsAt." }),
    prediction: prediction.nullable().meta({ description: "The caller's prediction; null when none was made." }),
  })
  .meta({ id: "MyPrediction" });

export const predictionSaved = z
  .object({ created: z.boolean().meta({ description: "True for the first prediction of this game (201), false for an edit (200)." }), prediction })
  .meta({ id: "PredictionSaved" });

const share = z.object({ count: z.number().int(), percent: z.number().meta({ description: "Share of the counted predictions, 1 decimal." }) });

export const crowdSplitSchema = z
  .object({
    gameId: z.string(),
    total: z.number().int().meta({ description: "Predictions counted (void ones left out)." }),
    outcomes: z.object({ home: share, draw: share, away: share }),
    topScores: z
      .array(z.object({ homeScore: z.number().int(), awayScore: z.number().int(), count: z.number().int(), percent: z.number() }))
      .meta({ description: `The ${CROWD_TOP_SCORES} most predicted exact scores, most first (ties: lower home then away goals first).` }),
  })
  .meta({ id: "CrowdSplit" });
export type CrowdSplit = z.infer<typeof crowdSplitSchema>;

export const historyQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });

export const historyPage = pageSchema("predictions", prediction.extend({ game: gameSummary }), { nextCursor: "Present only when more predictions remain." })
  .extend({
    totalPoints: z.number().int().meta({ description: "All the caller's settled prediction points." }),
    settled: z.number().int().meta({ description: "How many of the caller's predictions are settled." }),
  })
  .meta({ id: "PredictionHistoryPage" });

export const cronResult = z
  .object({
    games: z.number().int().meta({ description: "Games settled by this run (first settlements and re-settlements)." }),
    resettled: z.number().int().meta({ description: "Of those, games settled again after their final score (or kick-off, or status) changed." }),
    predictions: z.number().int().meta({ description: "Predictions whose points were written." }),
  })
  .meta({ id: "PredictionsSettleResult" });

// Private leagues -------------------------------------------------------------------------------------------------

export const leagueParams = z.strictObject({ leagueId: uuidString("Private league id (UUID).") });

export const leagueCreateBody = z
  .strictObject({ name: z.string().trim().min(1).max(60).meta({ description: "The league's name (1..60 characters)." }) })
  .meta({ id: "PrivateLeagueCreate" });

export const JOIN_CODE_LENGTH = 8;
export const joinBody = z
  .strictObject({
    code: z
      .string()
      .trim()
      .transform((c) => c.toUpperCase())
      .pipe(z.string().regex(/^[0-9A-Z]{8}$/, "Must be an 8-character join code"))
      .meta({ description: "The league's join code (8 letters and digits, any case)." }),
  })
  .meta({ id: "PrivateLeagueJoin" });

export const membershipQuery = z.strictObject({
  userId: uuidString("Owner only: the member to remove. Omitted (or the caller's own id): the caller leaves.").optional(),
});

const member = z.object({ userId: z.string(), handle: z.string().nullable(), displayName: z.string().nullable(), joinedAt: isoDateTime });

export const privateLeague = z
  .object({
    id: z.string(),
    name: z.string(),
    ownerId: z.string(),
    isOwner: z.boolean(),
    code: z.string().meta({ description: "The join code (members see it; the owner can rotate it)." }),
    memberCount: z.number().int(),
    memberCap: z.number().int(),
    joinedAt: isoDateTime.meta({ description: "When the caller joined: standings count games kicked off after a member joined." }),
    createdAt: isoDateTime,
    admin: z
      .object({ codeRotatedAt: isoDateTime, members: z.array(member).meta({ description: "Every member, first joined first." }) })
      .nullable()
      .meta({ description: "Owner only (null for other members)." }),
  })
  .meta({ id: "PrivateLeague" });

export const leagueList = z.object({ leagues: z.array(privateLeague.omit({ admin: true })) }).meta({ id: "PrivateLeagueList" });
export const leagueResult = z.object({ league: privateLeague }).meta({ id: "PrivateLeagueResult" });
export const joinResult = z
  .object({ joined: z.boolean().meta({ description: "False when the caller was already a member (nothing changed)." }), league: privateLeague })
  .meta({ id: "PrivateLeagueJoinResult" });
export const leaveResult = z
  .object({
    leagueId: z.string(),
    userId: z.string().meta({ description: "Who left or was removed." }),
    removed: z.boolean().meta({ description: "True when the owner removed another member." }),
    leagueDeleted: z.boolean().meta({ description: "True when the owner left as the last member: the league is gone." }),
  })
  .meta({ id: "PrivateLeagueLeft" });
export const codeResult = z.object({ code: z.string(), codeRotatedAt: isoDateTime }).meta({ id: "PrivateLeagueCode" });

export const standings = z
  .object({
    leagueId: z.string(),
    standings: z.array(
      member.extend({
        rank: z.number().int().meta({ description: "1 + members strictly ahead on points then exact scores (equal on both: equal rank)." }),
        points: z.number().int(),
        exactScores: z.number().int(),
        settled: z.number().int().meta({ description: "Settled predictions counted." }),
      }),
    ),
  })
  .meta({ id: "PrivateLeagueStandings" });
