import { z } from "zod";
import { pageSchema } from "../../kernel/page";
import { cursorQuery, idString, intQuery, isoDateTime, UUID_PATTERN } from "../../kernel/schemas";
import { leagueInfo, rosterPlayer, teamSummary } from "../../core/teams/schemas";

// Events (games of the caller's teams), lineups and player ratings; the guess-the-player mini-game; the daily spin.

// Events ------------------------------------------------------------------------------------------------------

export const EVENT_LISTS = ["upcoming", "finished", "all"] as const;
export type EventList = (typeof EVENT_LISTS)[number];

export const MIN_SCORE = 1;
export const MAX_SCORE = 10;
/** Most scores one submission may carry (a lineup is both rosters' available players, far fewer). */
export const MAX_RATINGS_PER_SUBMISSION = 100;

export const eventsQuery = z.strictObject({
  status: z.enum(EVENT_LISTS).default("upcoming").meta({
    description:
      "Which list (default upcoming). upcoming: games not decided yet (status scheduled, live or postponed), soonest first (startsAt asc, then id asc). finished: final games, most recent first (startsAt desc, then id desc). all: every game including canceled ones, chronological (startsAt asc, then id asc). A cursor continues only the list it came from.",
  }),
  cursor: cursorQuery,
  limit: intQuery(1, 50, 20),
});
export type EventsQuery = z.infer<typeof eventsQuery>;

export const gameIdParams = z.strictObject({ gameId: idString.meta({ description: "Game id (e.g. gm_nfl_007)." }) });

export const gameStatus = z.enum(["scheduled", "live", "final", "postponed", "canceled"]).meta({ id: "GameStatus" });

const eventLeague = leagueInfo.pick({ id: true, slug: true, name: true, shortName: true, sport: true }).meta({ id: "EventLeague" });

const score = z
  .object({
    home: z.number().int(),
    away: z.number().int(),
    overtime: z.boolean().meta({ description: "Decided after regulation (overtime or shootout)." }),
  })
  .nullable()
  .meta({ description: "null until both scores are known." });

const myRatingSummary = z.object({
  playersRated: z.number().int().meta({ description: "How many lineup players the caller scored in their current submission." }),
  ratedAt: isoDateTime.meta({ description: "The caller's first submission." }),
  updatedAt: isoDateTime.meta({ description: "The caller's latest submission (equals ratedAt until replaced)." }),
});

export const event = z
  .object({
    id: z.string(),
    league: eventLeague,
    season: z.string().nullable(),
    startsAt: isoDateTime,
    status: gameStatus,
    venue: z.string().nullable(),
    homeTeam: teamSummary,
    awayTeam: teamSummary,
    score,
    ratable: z.boolean().meta({
      description:
        "True when the game is final and its lineup exists or can be seeded (both teams have available, active players): POST /api/events/{gameId}/ratings will accept scores.",
    }),
    myRating: myRatingSummary.nullable().meta({ description: "The caller's rating of this game, or null when they have not rated it." }),
  })
  .meta({ id: "Event" });

export const eventsPage = pageSchema("events", event, { id: "EventsPage", nextCursor: "Present only when more events remain in this list." });

export const lineupPlayer = z
  .object({
    slot: z.number().int().meta({ description: "1..n: the home team's players first, then the away team's, each in roster order." }),
    side: z.enum(["home", "away"]),
    teamId: z.string().meta({ description: "The team the player played for in this game." }),
    playerId: z.string(),
    name: z.string(),
    jersey: z.string().nullable(),
    position: z.string().nullable(),
    photo: z.string().nullable(),
  })
  .meta({ id: "LineupPlayer" });

export const LINEUP_STATUSES = ["pending", "seeded", "unavailable"] as const;
export type LineupStatus = (typeof LINEUP_STATUSES)[number];
export const lineupStatus = z.enum(LINEUP_STATUSES).meta({
  id: "LineupStatus",
  description:
    "pending: the game is not final, so it has no lineup (a canceled game never gets one). seeded: the lineup exists (`players`). unavailable: the game is final but one or both teams have no available, active players, so no lineup could be seeded and ratings answer 409 LINEUP_UNAVAILABLE.",
});

const ratingScore = z
  .number()
  .int()
  .min(MIN_SCORE)
  .max(MAX_SCORE)
  .meta({ description: `Integer ${MIN_SCORE}..${MAX_SCORE}.` });

const playerScore = z.object({ playerId: z.string(), score: ratingScore }).meta({ id: "PlayerScore" });

const myRatingDetail = myRatingSummary
  .extend({ scores: z.array(playerScore).meta({ description: "The caller's current scores, in lineup slot order." }) })
  .meta({ id: "MyGameRating" });

export const eventDetail = event
  .extend({
    lineup: z
      .object({ status: lineupStatus, players: z.array(lineupPlayer).meta({ description: "In slot order; empty unless status is seeded." }) })
      .meta({ id: "EventLineup" }),
    myRating: myRatingDetail.nullable().meta({ description: "The caller's rating with their scores, or null when they have not rated this game." }),
  })
  .meta({ id: "EventDetail" });

export const eventDetailResult = z.object({ event: eventDetail }).meta({ id: "EventDetailResult" });

export const ratingsBody = z
  .strictObject({
    ratings: z
      .array(z.strictObject({ playerId: idString.meta({ description: "A player of the game's lineup." }), score: ratingScore }))
      .min(1, "Rate at least one player of the lineup")
      .max(MAX_RATINGS_PER_SUBMISSION)
      .superRefine((items, ctx) => {
        const seen = new Set<string>();
        items.forEach((item, i) => {
          if (seen.has(item.playerId)) ctx.addIssue({ code: "custom", path: [i, "playerId"], message: "Each player may be rated only once per submission" });
          seen.add(item.playerId);
        });
      })
      .meta({ description: `1..${MAX_RATINGS_PER_SUBMISSION} scores, each player at most once.` }),
  })
  .meta({ id: "GameRatingSubmission" });
export type RatingsInput = z.infer<typeof ratingsBody>;

const repAward = z
  .object({
    awarded: z.boolean().meta({ description: "True when this request credited the Rep (only the first successful rating of a game does)." }),
    amount: z.number().int().meta({ description: "Rep credited by this request (0 when none was)." }),
  })
  .meta({ id: "GameRepAward" });

export const ratingResult = z
  .object({
    gameId: z.string(),
    rating: myRatingDetail,
    replaced: z.boolean().meta({ description: "True when this submission replaced the caller's earlier scores (answered 200); false for the first (201)." }),
    rep: repAward,
  })
  .meta({ id: "GameRatingResult" });

export const crowdRatings = z
  .object({
    gameId: z.string(),
    lineupStatus,
    raters: z.number().int().meta({ description: "Fans who rated this game." }),
    players: z
      .array(
        lineupPlayer
          .extend({
            average: z.number().nullable().meta({ description: "Mean score rounded to 1 decimal, or null when nobody scored this player." }),
            count: z.number().int().meta({ description: "How many fans scored this player." }),
            myScore: z.number().int().nullable().meta({ description: "The caller's score (null when signed out or not scored)." }),
          })
          .meta({ id: "CrowdPlayerRating" }),
      )
      .meta({ description: "Every lineup player in slot order, rated or not." }),
  })
  .meta({ id: "CrowdRatings" });

// Guess the player --------------------------------------------------------------------------------------------

export const CLUE_KINDS = ["duty", "role", "availability", "position", "jersey", "initial"] as const;
export type ClueKind = (typeof CLUE_KINDS)[number];

export const guessStartBody = z
  .strictObject({
    teamId: idString
      .optional()
      .meta({ description: "Team id or slug to play with; default: one of the caller's followed or joined teams with players, else any such team." }),
  })
  .meta({ id: "GuessSessionStart" });

export const sessionIdParams = z.strictObject({
  sessionId: z
    .string()
    .regex(UUID_PATTERN, "Must be a session id (UUID)")
    .transform((id) => id.toLowerCase())
    .meta({ description: "Session id (UUID)." }),
});

export const guessBody = z
  .strictObject({ playerId: idString.meta({ description: "An active player of the session's team (GET /api/teams/{id}/roster)." }) })
  .meta({ id: "GuessPlayerGuess" });

const clue = z
  .object({
    kind: z.enum(CLUE_KINDS),
    label: z.string().meta({ description: "Human-readable name of the clue." }),
    value: z.string(),
  })
  .meta({ id: "GuessClue" });

export const guessSession = z
  .object({
    id: z.string(),
    status: z.enum(["active", "won", "lost"]),
    team: teamSummary,
    clues: z.array(clue).meta({ description: "Clues revealed so far, in order (one at the start, one more after each wrong guess; all once the game ended)." }),
    cluesTotal: z.number().int().meta({ description: "How many clues this mystery player has." }),
    guesses: z
      .array(z.object({ playerId: z.string(), name: z.string().nullable(), correct: z.boolean() }))
      .meta({ description: "Guesses so far, oldest first." }),
    guessesLeft: z.number().int(),
    maxGuesses: z.number().int(),
    startedAt: isoDateTime,
    endedAt: isoDateTime.nullable(),
    answer: rosterPlayer.optional().meta({ description: "The mystery player: present only once the session has ended (won or lost)." }),
  })
  .meta({ id: "GuessSession" });

export const guessSessionResult = z.object({ session: guessSession }).meta({ id: "GuessSessionResult" });

export const guessResult = z
  .object({
    session: guessSession,
    correct: z.boolean(),
    rep: repAward.meta({ description: "Rep for the caller's first win of the UTC day (credited with the winning guess)." }),
  })
  .meta({ id: "GuessResult" });

// Daily spin (deprecated) --------------------------------------------------------------------------------------

export const dailySpinResult = z
  .object({
    amount: z.number().int().meta({ description: "Rep credited by this spin (chosen by the server)." }),
    balance: z.number().int().meta({ description: "The caller's Rep balance after the spin." }),
    day: z.string().meta({ description: "The UTC day (YYYY-MM-DD) this spin used up." }),
    nextSpinAt: isoDateTime.meta({ description: "Start of the next UTC day, when the next spin is allowed." }),
  })
  .meta({ id: "DailySpinResult" });
