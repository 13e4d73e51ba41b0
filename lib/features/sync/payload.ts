import { z } from "zod";

// The provider feed, validated with zod before anything is written. Ids are the provider's own; the engine maps
// them to row ids in this database. References (team → league/conference/division, game → league/teams) must
// resolve inside the same feed.

const providerId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "1–64 letters, digits, '_', '.' or '-'");
const slug = z
  .string()
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "lower-case words joined by '-'");
const color = z.string().regex(/^#[0-9A-Fa-f]{6}$/, "#RRGGBB");
const url = z.string().url().max(2_000);
const text = (max: number) => z.string().trim().min(1).max(max);
/** Provider status: "inactive" (defunct, suspended) rows are kept archived. */
const status = z.enum(["active", "inactive"]).default("active");

export const feedDivisionSchema = z.object({ id: providerId, name: text(200) }).strict();

export const feedConferenceSchema = z.object({ id: providerId, name: text(200), divisions: z.array(feedDivisionSchema).max(100).default([]) }).strict();

export const feedLeagueSchema = z
  .object({
    id: providerId,
    slug,
    name: text(200),
    shortName: text(50).optional(),
    sport: z.string().trim().max(50).default(""),
    season: text(20).optional(),
    logo: url.optional(),
    primaryColor: color.optional(),
    secondaryColor: color.optional(),
    displayOrder: z.number().int().min(0).max(100_000).default(0),
    status,
    conferences: z.array(feedConferenceSchema).max(100).default([]),
    /** Divisions that belong to no conference. */
    divisions: z.array(feedDivisionSchema).max(100).default([]),
  })
  .strict();

export const feedPlayerSchema = z
  .object({
    id: providerId,
    name: text(200),
    jersey: text(10).optional(),
    position: text(50).optional(),
    role: text(50).optional(),
    duty: text(50).optional(),
    photo: url.optional(),
    availability: z.enum(["available", "injured", "suspended", "unavailable"]).default("available"),
    active: z.boolean().default(true),
  })
  .strict();

export const feedTeamSchema = z
  .object({
    id: providerId,
    leagueId: providerId,
    conferenceId: providerId.optional(),
    divisionId: providerId.optional(),
    /** Defaults to the name, slugified. */
    slug: slug.optional(),
    name: text(200),
    shortName: text(100).optional(),
    abbreviation: text(10).optional(),
    city: text(100).optional(),
    /** Defaults to the league's sport. */
    sport: z.string().trim().max(50).optional(),
    logo: url.optional(),
    primaryColor: color.optional(),
    secondaryColor: color.optional(),
    foundedDate: z.iso.date().optional(),
    rank: z.number().int().min(1).max(100_000).optional(),
    status,
    players: z.array(feedPlayerSchema).max(200).default([]),
  })
  .strict();

export const feedGameSchema = z
  .object({
    id: providerId,
    leagueId: providerId,
    /** Defaults to the league's season. */
    season: text(20).optional(),
    homeTeamId: providerId,
    awayTeamId: providerId,
    startsAt: z.iso.datetime({ offset: true }),
    status: z.enum(["scheduled", "live", "final", "postponed", "canceled"]),
    homeScore: z.number().int().min(0).max(100_000).nullable().optional(),
    awayScore: z.number().int().min(0).max(100_000).nullable().optional(),
    overtime: z.boolean().default(false),
    venue: text(200).optional(),
    /** The venue's position (WGS 84 degrees): arena check-ins at this game must then be made there. */
    venueLocation: z
      .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
      .strict()
      .optional(),
  })
  .strict();

export const feedSchema = z
  .object({
    version: z.literal(1),
    generatedAt: z.iso.datetime({ offset: true }).optional(),
    leagues: z.array(feedLeagueSchema).max(100),
    teams: z.array(feedTeamSchema).max(5_000).default([]),
    games: z.array(feedGameSchema).max(50_000).default([]),
  })
  .strict()
  .superRefine((feed, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    const unique = (ids: { id: string; path: (string | number)[] }[], what: string) => {
      const seen = new Set<string>();
      for (const { id, path } of ids) {
        if (seen.has(id)) issue(path, `Duplicate ${what} id ${id}`);
        seen.add(id);
      }
    };
    const leagues = new Map(feed.leagues.map((l) => [l.id, l]));
    unique(
      feed.leagues.map((l, i) => ({ id: l.id, path: ["leagues", i, "id"] })),
      "league",
    );
    unique(
      feed.leagues.map((l, i) => ({ id: l.slug, path: ["leagues", i, "slug"] })),
      "league slug",
    );
    unique(
      feed.leagues.flatMap((l, i) => l.conferences.map((c, j) => ({ id: c.id, path: ["leagues", i, "conferences", j, "id"] }))),
      "conference",
    );
    unique(
      feed.leagues.flatMap((l, i) => [
        ...l.divisions.map((d, k) => ({ id: d.id, path: ["leagues", i, "divisions", k, "id"] })),
        ...l.conferences.flatMap((c, j) => c.divisions.map((d, k) => ({ id: d.id, path: ["leagues", i, "conferences", j, "divisions", k, "id"] }))),
      ]),
      "division",
    );
    unique(
      feed.teams.map((t, i) => ({ id: t.id, path: ["teams", i, "id"] })),
      "team",
    );
    unique(
      feed.teams.map((t, i) => ({ id: t.slug ?? slugify(t.name), path: ["teams", i, "slug"] })),
      "team slug",
    );
    unique(
      feed.teams.flatMap((t, i) => t.players.map((p, j) => ({ id: p.id, path: ["teams", i, "players", j, "id"] }))),
      "player",
    );
    unique(
      feed.games.map((g, i) => ({ id: g.id, path: ["games", i, "id"] })),
      "game",
    );

    feed.teams.forEach((t, i) => {
      const league = leagues.get(t.leagueId);
      if (!league) return issue(["teams", i, "leagueId"], `Unknown league ${t.leagueId}`);
      if (!t.slug && !slugify(t.name)) issue(["teams", i, "slug"], "Required when the name has no letters or digits");
      const conference = t.conferenceId ? league.conferences.find((c) => c.id === t.conferenceId) : undefined;
      if (t.conferenceId && !conference) issue(["teams", i, "conferenceId"], `Unknown conference ${t.conferenceId} in league ${t.leagueId}`);
      if (t.divisionId) {
        const pool = conference ? conference.divisions : t.conferenceId ? [] : [...league.divisions, ...league.conferences.flatMap((c) => c.divisions)];
        if (!pool.some((d) => d.id === t.divisionId)) issue(["teams", i, "divisionId"], `Unknown division ${t.divisionId} for this team's league/conference`);
      }
    });
    const teamLeague = new Map(feed.teams.map((t) => [t.id, t.leagueId]));
    feed.games.forEach((g, i) => {
      if (!leagues.has(g.leagueId)) issue(["games", i, "leagueId"], `Unknown league ${g.leagueId}`);
      for (const side of ["homeTeamId", "awayTeamId"] as const) {
        const league = teamLeague.get(g[side]);
        if (league === undefined) issue(["games", i, side], `Unknown team ${g[side]}`);
        else if (league !== g.leagueId) issue(["games", i, side], `Team ${g[side]} is not in league ${g.leagueId}`);
      }
      if (g.homeTeamId === g.awayTeamId) issue(["games", i, "awayTeamId"], "A team cannot play itself");
      if ((g.homeScore == null) !== (g.awayScore == null)) issue(["games", i], "Give both scores or neither");
    });
  });

export type Feed = z.infer<typeof feedSchema>;
/** A feed as the provider hands it over (defaults not applied yet). */
export type FeedInput = z.input<typeof feedSchema>;

export function slugify(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100)
    .replace(/-+$/, "");
}

/** Validates a raw feed; a malformed feed throws (the run is recorded as failed, nothing is written). */
export function parseFeed(raw: unknown): Feed {
  const result = feedSchema.safeParse(raw);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 10).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  const more = result.error.issues.length > 10 ? ` (+${result.error.issues.length - 10} more)` : "";
  throw new FeedError(`Invalid feed: ${issues.join("; ")}${more}`);
}

export class FeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FeedError";
  }
}
