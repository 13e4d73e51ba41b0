import { z } from "zod";
import { cursorQuery, idString } from "../http/schemas";

const colors = z.object({ primary: z.string().nullable(), secondary: z.string().nullable() });

export const leagueInfo = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    shortName: z.string().nullable(),
    sport: z.string().meta({ description: "Never null; unknown or empty becomes \"other\"." }),
    season: z.string().nullable(),
    logo: z.string().nullable(),
    colors,
    href: z.string().meta({ description: "API path of the league's standings." }),
  })
  .meta({ id: "LeagueInfo" });

export const team = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    shortName: z.string().nullable(),
    abbreviation: z.string().nullable(),
    city: z.string().nullable(),
    sport: z.string().meta({ description: "Never null; unknown or empty becomes \"other\"." }),
    logo: z.string().nullable(),
    colors,
    rank: z.number().int().nullable(),
    fanCount: z.number().int(),
    isOfficial: z.boolean(),
    source: z.string(),
    providerId: z.string().nullable(),
    leagueInfo: leagueInfo.extend({ sport: z.string() }),
    conference: z.object({ id: z.string(), name: z.string() }).nullable(),
    division: z.object({ id: z.string(), name: z.string() }).nullable(),
  })
  .meta({ id: "Team" });

export const teamRecord = z
  .object({
    gamesPlayed: z.number().int(),
    wins: z.number().int(),
    losses: z.number().int(),
    ties: z.number().int(),
    overtimeLosses: z.number().int(),
    summary: z.string().meta({ description: "W-L, W-L-T or W-L-OTL as the record calls for, e.g. \"7-3\"." }),
  })
  .meta({ id: "TeamRecord" });

export const teamDetail = team
  .extend({
    teamRecord,
    foundedDate: z.string().nullable().meta({ description: "YYYY-MM-DD" }),
    viewerCanPostAsTeam: z.boolean().meta({ description: "Whether the caller may author locker-room posts as this team." }),
  })
  .meta({ id: "TeamDetail" });

export const teamsQuery = z.strictObject({
  slug: z.string().min(1).max(128).optional().meta({ description: "Look one team up by slug (case-insensitive); answers { team }." }),
  sport: z.string().min(1).max(40).optional().meta({ description: "Filter by sport (normalised value, e.g. basketball or other)." }),
  league: z.string().min(1).max(128).optional().meta({ description: "Filter by league id or slug." }),
  cursor: cursorQuery,
  limit: z
    .string()
    .regex(/^\d+$/, "Expected an integer")
    .transform(Number)
    .pipe(z.number().int().min(1).max(100))
    .optional()
    .meta({ description: "Page size 1..100 (default 50 when paginating)." }),
});

export const teamsListResult = z
  .union([
    z.object({ team: team }),
    z.object({
      teams: z.array(team),
      season: z.string().nullable(),
      total: z.number().int().optional().meta({ description: "Omitted for the unfiltered full list." }),
      nextCursor: z.string().optional(),
    }),
  ])
  .meta({ id: "TeamsListResult" });

export const teamIdParams = z.strictObject({ id: idString.meta({ description: "Team id or slug (id tried first)." }) });
export const teamDetailResult = z.object({ team: teamDetail }).meta({ id: "TeamDetailResult" });

export const DEFAULT_TEAM_PAGE = 50;
export type TeamsQuery = z.infer<typeof teamsQuery>;
