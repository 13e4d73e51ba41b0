import { z } from "zod";
import { cursorQuery, idString, intQuery, isoDateTime } from "../../kernel/schemas";

const colors = z.object({ primary: z.string().nullable(), secondary: z.string().nullable() });

export const leagueInfo = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    shortName: z.string().nullable(),
    sport: z.string().meta({ description: 'Never null; unknown or empty becomes "other".' }),
    season: z.string().nullable(),
    logo: z.string().nullable(),
    colors,
    href: z.string().meta({ description: "API path of the league's standings." }),
  })
  .meta({ id: "LeagueInfo" });

/** The short form of a team other resources embed (standings rows, favorite teams); serialized by toTeamSummary. */
export const teamSummary = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  shortName: z.string().nullable(),
  abbreviation: z.string().nullable(),
  logo: z.string().nullable(),
});

export const team = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    shortName: z.string().nullable(),
    abbreviation: z.string().nullable(),
    city: z.string().nullable(),
    sport: z.string().meta({ description: 'Never null; unknown or empty becomes "other".' }),
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
    summary: z.string().meta({ description: 'W-L, W-L-T or W-L-OTL as the record calls for, e.g. "7-3".' }),
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

// Search, follows, joins, roster, head-to-head, achievements -----------------------------------------------------

export const TEAM_SEARCH_SORTS = ["rank", "name", "fans"] as const;
export type TeamSearchSort = (typeof TEAM_SEARCH_SORTS)[number];

export const teamSearchQuery = z.strictObject({
  q: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: "1..100 characters (surrounding spaces ignored): case-insensitive substring of name, short name, city or abbreviation." }),
  sport: z.string().min(1).max(40).optional().meta({ description: 'Filter by sport, compared normalised (e.g. "Hockey " = hockey; unusable values = other).' }),
  league: z.string().min(1).max(128).optional().meta({ description: "Filter by league id or slug." }),
  cursor: cursorQuery.meta({ description: "Opaque cursor from the previous page's nextCursor; it remembers the sort (a cursor of another sort is 400)." }),
  limit: intQuery(1, 50, 20),
  sort: z
    .enum(TEAM_SEARCH_SORTS)
    .default("name")
    .meta({ description: "name: name, id. rank: rank ascending with unranked teams last, then id. fans: fanCount descending, then id. Default name." }),
});
export type TeamSearchQuery = z.infer<typeof teamSearchQuery>;

export const teamSearchResult = z
  .object({
    teams: z.array(team),
    nextCursor: z.string().optional().meta({ description: "Present when more teams match." }),
  })
  .meta({ id: "TeamSearchResult" });

export const followedTeamsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 50) });

export const followedTeam = team.extend({ followedAt: isoDateTime }).meta({ id: "FollowedTeam" });
export const followedTeamsResult = z
  .object({
    teams: z.array(followedTeam).meta({ description: "Newest follow first (followedAt desc, then team id desc). Archived teams are left out." }),
    nextCursor: z.string().optional().meta({ description: "Present when more follows remain." }),
  })
  .meta({ id: "FollowedTeamsResult" });

export const followResult = z
  .object({ following: z.literal(true), teamId: z.string(), followedAt: isoDateTime.meta({ description: "When the follow was first made." }) })
  .meta({ id: "TeamFollowResult" });
export const unfollowResult = z.object({ following: z.literal(false), teamId: z.string() }).meta({ id: "TeamUnfollowResult" });

const teamIds = z.object({
  joinedTeamIds: z.array(z.string()).meta({ description: "Teams joined (leaderboard entries), oldest join first." }),
  followedTeamIds: z.array(z.string()).meta({ description: "Teams followed (social follows), oldest follow first." }),
});
export const teamMembershipResult = teamIds.meta({ id: "TeamMembershipResult" });
/** GET /api/user/teams: the same lists as a join answers. */
export const userTeams = teamIds.meta({ id: "UserTeams" });

export const rosterPlayer = z
  .object({
    id: z.string(),
    name: z.string(),
    jersey: z.string().nullable(),
    position: z.string().nullable(),
    role: z.string().nullable(),
    duty: z.string().nullable(),
    photo: z.string().optional().meta({ description: "Omitted when the player has no art." }),
    availability: z.enum(["injured", "suspended", "unavailable"]).optional().meta({ description: "Omitted when the player is available." }),
  })
  .meta({ id: "RosterPlayer" });
export const rosterResult = z
  .object({ players: z.array(rosterPlayer).meta({ description: "Active players only; numeric jerseys ascending, then other jerseys, then name, then id." }) })
  .meta({ id: "RosterResult" });

export const headToHeadQuery = z.strictObject({
  opponentId: idString.meta({ description: "The other team's id or slug; required and not the same team as {id}." }),
});
export const headToHeadMeeting = z
  .object({
    gameId: z.string(),
    playedAt: isoDateTime.meta({ description: "Start time of the game." }),
    season: z.string().nullable(),
    venue: z.string().nullable(),
    homeTeamId: z.string(),
    awayTeamId: z.string(),
    homeScore: z.number().int(),
    awayScore: z.number().int(),
    overtime: z.boolean().meta({ description: "Decided after regulation (overtime or shootout)." }),
    winnerId: z.string().nullable().meta({ description: "null for a draw." }),
    result: z.enum(["win", "loss", "tie"]).meta({ description: "From {id}'s side." }),
  })
  .meta({ id: "HeadToHeadMeeting" });
export const headToHeadResult = z
  .object({
    team: team,
    opponent: team,
    record: z
      .object({
        gamesPlayed: z.number().int(),
        wins: z.number().int(),
        losses: z.number().int(),
        ties: z.number().int(),
      })
      .meta({ description: "{id}'s record against the opponent over every finished meeting with scores, all seasons." }),
    recentMeetings: z.array(headToHeadMeeting).meta({ description: "The five most recent finished meetings with scores, newest first." }),
  })
  .meta({ id: "HeadToHeadResult" });

export const teamAchievement = z
  .object({
    id: z.string(),
    key: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    icon: z.string().nullable(),
    season: z.string().nullable(),
    awardedAt: isoDateTime,
  })
  .meta({ id: "TeamAchievement" });
export const teamAchievementsResult = z
  .object({ achievements: z.array(teamAchievement).meta({ description: "Newest first (awardedAt desc, then id)." }) })
  .meta({ id: "TeamAchievementsResult" });

export const favoriteTeamSummary = teamSummary
  .extend({
    sport: z.string().meta({ description: 'Never null; unknown or empty becomes "other".' }),
    colors: z.object({ primary: z.string().nullable(), secondary: z.string().nullable() }),
    isOfficial: z.boolean().meta({ description: "Official teams do not count against the favorite-teams cap." }),
    archived: z.boolean().meta({ description: "The team was archived after it was picked; it stays listed until the list is replaced." }),
  })
  .meta({ id: "FavoriteTeamSummary" });

export const favoriteTeam = z
  .object({
    id: z.string().meta({ description: "Team id as stored on the profile." }),
    team: favoriteTeamSummary.nullable().meta({ description: "null when the team row no longer exists." }),
  })
  .meta({ id: "FavoriteTeam" });
