import { z } from "zod";
import { teamSummary } from "../teams/schemas";
import { idString } from "../../kernel/schemas";

const colors = z.object({ primary: z.string().nullable(), secondary: z.string().nullable() });
const named = z.object({ id: z.string(), name: z.string() });
const sportValue = z.string().meta({ description: 'Normalised sport; never null (unknown or empty becomes "other").' });

// ---------------------------------------------------------------------------------------------------------------
// GET /api/leagues

export const leaguesQuery = z.strictObject({
  sport: z
    .string()
    .min(1)
    .max(40)
    .optional()
    .meta({ description: "Only leagues of this sport, compared after normalisation (e.g. `Hockey` matches hockey; anything unusable matches other)." }),
});

export const leagueSummary = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    shortName: z.string().nullable(),
    sport: sportValue,
    season: z.string().nullable().meta({ description: "Current season; standings count the finished games of this season." }),
    logo: z.string().nullable(),
    colors,
    displayOrder: z.number().int(),
    teamCount: z.number().int().meta({ description: "Teams of the league that are not archived." }),
    conferences: z
      .array(named.extend({ divisions: z.array(named).meta({ description: "Ordered by name." }) }))
      .meta({ description: "Ordered by name; empty when the league has no conferences." }),
    divisions: z.array(named).meta({ description: "Divisions that belong to no conference (usually empty), ordered by name." }),
    href: z.string().meta({ description: "API path of the league's standings." }),
  })
  .meta({ id: "LeagueSummary" });

export const leaguesResult = z
  .object({ leagues: z.array(leagueSummary).meta({ description: "Non-archived leagues by displayOrder, then name, then id." }) })
  .meta({ id: "LeaguesResult" });

// ---------------------------------------------------------------------------------------------------------------
// GET /api/leagues/{leagueId}/standings

export const leagueIdParams = z.strictObject({
  leagueId: idString.meta({ description: "Internal league id (exact), else slug (case-insensitive)." }),
});

const scope = z.enum(["division", "conference", "league"]);

export const standingsRow = z
  .object({
    position: z.number().int().meta({ description: "1-based place in its group (in `rows`) or in its table (in `tables`)." }),
    team: teamSummary,
    group: z
      .object({ scope, id: z.string(), name: z.string() })
      .meta({ description: "The team's most specific group: its division, else its conference, else the league." }),
    gamesPlayed: z.number().int(),
    wins: z.number().int(),
    losses: z.number().int().meta({ description: "Includes defeats after regulation except in hockey, which counts them in overtimeLosses." }),
    ties: z.number().int().meta({ description: "Games that ended level (draws in soccer, ties in football)." }),
    overtimeLosses: z.number().int().meta({ description: "Hockey only: defeats in overtime or a shootout; 0 elsewhere." }),
    points: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Soccer 3 per win, 1 per draw; hockey 2 per win, 1 per overtime loss or tie. Null for sports ranked by win percentage." }),
    pointsPct: z.number().nullable().meta({ description: "points / (points for a win × gamesPlayed), 3 decimals; null where points are not used." }),
    winPct: z.number().meta({ description: "(wins + ties / 2) / gamesPlayed, 3 decimals; 0 before the first game." }),
    gamesBack: z
      .number()
      .nullable()
      .meta({ description: "((leader wins − wins) + (losses − leader losses)) / 2 against the first row of the same group or table; null for points sports." }),
    scoreFor: z.number().int().meta({ description: "Goals (soccer, hockey) or points (football, basketball) scored." }),
    scoreAgainst: z.number().int(),
    scoreDifferential: z.number().int(),
    streak: z
      .string()
      .nullable()
      .meta({ description: "Current run ending with the latest game: W3, L1, T1, or OT2 (hockey overtime losses); null without games." }),
    summary: z.string().meta({ description: "W-L, W-L-T or W-L-OTL, the same as the team detail's record." }),
  })
  .meta({ id: "StandingsRow" });

export const standingsTable = z.object({ scope, id: z.string(), name: z.string(), rows: z.array(standingsRow) }).meta({ id: "StandingsTable" });

export const standingsResult = z
  .object({
    rows: z.array(standingsRow).meta({
      description:
        "One row per non-archived team, grouped by division, else conference, else league (the most specific grouping the league's teams have). Groups by conference name, then name; rows by group, then position. Empty when the league cannot be scored.",
    }),
    tiebreakRules: z.array(z.enum(["pointsPct", "wins", "scoreDifferential", "scoreFor", "name"])).meta({
      description:
        "The fallback chain applied, in order, after the primary key (points in soccer and hockey, win percentage in football and basketball). `name` (then id) is the last resort. Empty for a sport that cannot be scored.",
    }),
    tables: z.array(standingsTable).meta({
      description:
        "Every coarser scope: with divisions, one table per conference and one for the league; with conferences only, the league table; otherwise none.",
    }),
  })
  .meta({ id: "Standings" });

// ---------------------------------------------------------------------------------------------------------------
// GET /api/config/sports

export const sportsCatalog = z
  .object({
    sports: z.array(
      z.object({
        id: sportValue,
        label: z.string().meta({ description: 'The id with words capitalised ("ice-hockey" → "Ice Hockey").' }),
        order: z.number().int().meta({ description: "1-based: by the smallest displayOrder of the sport's leagues, then id." }),
        leagues: z.array(
          z.object({
            id: z.string(),
            label: z.string().meta({ description: "The league's short name, else its name." }),
            order: z.number().int().meta({ description: "1-based within the sport: by displayOrder, then name, then id." }),
          }),
        ),
      }),
    ),
  })
  .meta({ id: "SportsCatalog" });

export type LeaguesQuery = z.infer<typeof leaguesQuery>;
export type LeagueSummary = z.infer<typeof leagueSummary>;
export type SportsCatalog = z.infer<typeof sportsCatalog>;
