import { z } from "zod";
import { cursorQuery, intQuery } from "../../kernel/schemas";
import { card } from "../../core/collectibles/schemas";
import { post } from "../lockerroom/schemas";
import { teamSummary } from "../../core/teams/schemas";

// GET /api/v1/search: one type per call, keyset pages (docs/domains/search.md).

export const SEARCH_TYPES = ["posts", "users", "teams", "players", "cards"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
export const Q_MAX = 100;

/** An ISO 639-1 code (two lower-case letters): picks a text-search configuration (search_config() in SQL). */
export const languageCode = z.string().regex(/^[a-z]{2}$/, "Must be an ISO 639-1 code: two lower-case letters, e.g. en, de");

/**
 * The most `-` (not) operators a posts query may stack before one word. websearch_to_tsquery pushes each onto a
 * fixed stack of 32 and fails past it ("tsquery stack too small", once a 500): `-` counts as stacked when only white
 * space or the characters it skips (`! & | ( ) <`) stand between two of them.
 */
export const STACKED_NOTS_MAX = 16;

/** The longest run of `-` in q that websearch_to_tsquery would stack (counted conservatively: JS white space). */
export function stackedNots(q: string): number {
  let most = 0;
  for (const run of q.match(/[-\s!&|()<]+/g) ?? []) most = Math.max(most, run.split("-").length - 1);
  return most;
}

export const searchQuery = z
  .strictObject({
    q: z
      .string({ error: "q is required" })
      .transform((s) => s.trim())
      .pipe(z.string().min(1, "q must not be empty or only white space").max(Q_MAX, `q may be at most ${Q_MAX} characters (after trimming)`))
      .meta({
        description: `What to look for: 1..${Q_MAX} characters after trimming. Posts: web-search syntax (words, "a phrase", -word, or; at most ${STACKED_NOTS_MAX} - in a row).`,
      }),
    type: z.enum(SEARCH_TYPES, { error: `type must be one of ${SEARCH_TYPES.join(", ")}` }).meta({ description: "What to search: one type per call." }),
    language: languageCode.optional().meta({
      description:
        "Posts only: the query's language (ISO 639-1; default en). Words are stemmed by its configuration and also matched exactly, so a post in another language is found by its exact words.",
    }),
    cursor: cursorQuery,
    limit: intQuery(1, 50, 20),
  })
  .refine((query) => query.type !== "posts" || stackedNots(query.q) <= STACKED_NOTS_MAX, {
    path: ["q"],
    message: `A posts query may stack at most ${STACKED_NOTS_MAX} - (not) operators before a word`,
  });
export type SearchQuery = z.infer<typeof searchQuery>;

export const userHit = z
  .object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable(), avatarUrl: z.string().nullable() })
  .meta({ id: "SearchUser" });
export const teamHit = teamSummary.extend({ city: z.string().nullable(), sport: z.string() }).meta({ id: "SearchTeam" });
export const playerHit = z
  .object({
    id: z.string(),
    name: z.string(),
    jersey: z.string().nullable(),
    position: z.string().nullable(),
    photo: z.string().nullable(),
    team: teamSummary,
  })
  .meta({ id: "SearchPlayer" });

const nextCursor = z.string().optional().meta({ description: "Present only when more results remain." });
const page = <T extends SearchType, I extends z.ZodType>(type: T, item: I) => z.object({ type: z.literal(type), results: z.array(item), nextCursor });

export const searchResult = z
  .discriminatedUnion("type", [page("posts", post), page("users", userHit), page("teams", teamHit), page("players", playerHit), page("cards", card)])
  .meta({ id: "SearchResult", description: "One page of one type's results, under `results`; `type` echoes the query's." });
