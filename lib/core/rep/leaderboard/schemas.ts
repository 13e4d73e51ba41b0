import { z } from "zod";
import { cursorQuery, intQuery, isoDateTime } from "../../../kernel/schemas";
import { SEASON_ID } from "./seasons";

export const AROUND_RADIUS = 5;

const boardQuery = z
  .string()
  .max(140)
  .regex(/^(global|team:[A-Za-z0-9_-]{1,128})$/, "global, or team:<teamId>")
  .default("global")
  .meta({ description: "`global` (every fan), or `team:<teamId>` (the fans who joined the team)." });
const periodQuery = z
  .string()
  .regex(/^(all|current|\d{4}-(0[1-9]|1[0-2]))$/, "all, current, or a season id YYYY-MM")
  .default("all")
  .meta({ description: "`all` (all time), `current` (this season), or a season id `YYYY-MM` (this season or the one before)." });

export const boardParams = { board: boardQuery, period: periodQuery };

export const leaderboardQuery = z.strictObject({ ...boardParams, cursor: cursorQuery, limit: intQuery(1, 100, 20) });
export const searchQuery = z.strictObject({
  ...boardParams,
  q: z
    .string()
    .trim()
    .min(1)
    .max(30)
    .regex(/^[A-Za-z0-9_]+$/, "letters, digits and underscores (the start of a handle)")
    .meta({ description: "The start of a handle, any case." }),
  limit: intQuery(1, 50, 20),
});
export const statsQuery = z.strictObject(boardParams);
export const winnersQuery = z.strictObject({
  board: boardQuery,
  season: z.string().regex(SEASON_ID, "a season id YYYY-MM").optional().meta({ description: "One season; omitted: every closed season, newest first." }),
  cursor: cursorQuery,
  limit: intQuery(1, 24, 6),
});

export const season = z
  .object({
    id: z.string().meta({ description: "YYYY-MM: seasons are UTC calendar months." }),
    name: z.string(),
    startsAt: isoDateTime,
    endsAt: isoDateTime,
    closed: z.boolean().meta({ description: "Its winners are written (GET /api/leaderboard/winners)." }),
  })
  .meta({ id: "LeaderboardSeason" });

const fan = z
  .object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable(), avatarUrl: z.string().nullable() })
  .meta({ id: "LeaderboardFan" });

export const entry = z
  .object({
    rank: z.number().int().meta({ description: "1 + the number of fans strictly ahead: equal points reached in the same minute share a rank." }),
    points: z.number().int(),
    reachedAt: isoDateTime.meta({ description: "When the fan reached these points (to the minute): the earlier, the higher." }),
    fan,
  })
  .meta({ id: "LeaderboardEntry" });

const boardInfo = z
  .object({
    board: z.string(),
    teamId: z.string().nullable(),
    period: z.string().meta({ description: "`all` or the season id." }),
    season: season.nullable(),
    participants: z.number().int(),
  })
  .meta({ id: "LeaderboardBoard" });

export const leaderboardPage = z
  .object({
    board: boardInfo,
    entries: z.array(entry),
    nextCursor: z.string().optional(),
    me: entry.nullable().meta({ description: "The caller's entry; null when signed out or not on this board." }),
    aroundMe: z
      .array(entry)
      .meta({ description: `Up to ${AROUND_RADIUS} entries on each side of the caller, the caller included; empty when \`me\` is null.` }),
  })
  .meta({ id: "LeaderboardPage" });

export const searchResult = z
  .object({
    board: boardInfo,
    results: z.array(z.object({ fan, rank: z.number().int().nullable(), points: z.number().int().nullable() })).meta({
      description: "Fans whose handle starts with q, by handle; rank and points are null for a fan not on this board.",
    }),
  })
  .meta({ id: "LeaderboardSearch" });

export const seasonsList = z.object({ current: season, seasons: z.array(season).meta({ description: "Newest first." }) }).meta({ id: "LeaderboardSeasons" });

export const winnersList = z
  .object({
    board: z.string(),
    seasons: z.array(
      z.object({
        season,
        winners: z.array(z.object({ rank: z.number().int(), points: z.number().int(), reachedAt: isoDateTime, fan })),
      }),
    ),
    nextCursor: z.string().optional(),
  })
  .meta({ id: "LeaderboardWinners" });

export const statsResult = z
  .object({
    board: boardInfo,
    me: z
      .object({
        rank: z.number().int(),
        points: z.number().int(),
        percentile: z.number().meta({ description: "Share of participants the caller is ahead of or level with, 0–100 (1 decimal)." }),
      })
      .nullable(),
    topPoints: z.number().int().nullable(),
    distribution: z
      .array(z.object({ minPoints: z.number().int(), maxPoints: z.number().int(), fans: z.number().int() }))
      .meta({ description: "Participants by points in ten equal bands from 0 to the top score." }),
  })
  .meta({ id: "LeaderboardStats" });

export const rebuildResult = z
  .object({ boards: z.array(z.object({ board: z.string(), period: z.string(), entries: z.number().int() })) })
  .meta({ id: "LeaderboardRebuild" });

export const driftReport = z
  .object({
    boards: z.array(
      z.object({
        board: z.string(),
        period: z.string(),
        expected: z.number().int(),
        missing: z.number().int(),
        extra: z.number().int(),
        wrong: z.number().int(),
      }),
    ),
    drift: z.boolean(),
  })
  .meta({ id: "LeaderboardDrift" });

export const closeResult = z.object({ closed: z.array(z.object({ seasonId: z.string(), winners: z.number().int() })) }).meta({ id: "LeaderboardClose" });

export type LeaderboardQuery = z.infer<typeof leaderboardQuery>;
