import { readMayLag } from "@/lib/db/replica";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { Q_MAX, searchQuery, searchResult, STACKED_NOTS_MAX } from "@/lib/features/search/schemas";
import { search } from "@/lib/features/search/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Search posts, users, teams, players or cards",
      description:
        `One \`type\` per call (posts, users, teams, players, cards; another is 400 naming query.type); \`q\` 1..${Q_MAX} characters after trimming (else 400 naming query.q). ` +
        "Keyset pages: `limit` 1..50, default 20; `nextCursor` only when more remain (a cursor belongs to its type and q). " +
        "**posts**: full-text search, newest first among the matches (publish time, then id). Words are stemmed by the `language` configuration (ISO 639-1, default en: `goals` finds `goal`) and also matched exactly, so a post written in another language is found by its exact words; " +
        'web-search syntax (`"a phrase"`, `-word`, `or`). A q of only stop words or punctuation finds nothing (an empty page, not an error); ' +
        `one stacking more than ${STACKED_NOTS_MAX} \`-\` (not) operators before a word (\`- - - …\`; white space and \`!&|()<\` between them) is 400 naming query.q. ` +
        "Each post is the feed's post and the feed's visibility applies in the same statement: never deleted, hidden or scheduled posts, private posts only for the team's fans, never posts of users the caller blocked or who blocked the caller; " +
        "signed in, posts by accounts the caller mutes and posts matching the caller's `feed` keyword filters are left out of the page read (a page may come back short with a `nextCursor`). " +
        "**users**: by handle (typos tolerated; an exact handle first, then handles starting with q) or display name; never erased accounts or accounts awaiting deletion, nor users blocked either way. " +
        "**teams** (name, short name, city; not archived), **players** (name; active players), **cards** (catalog card names): ranked by trigram similarity, whole-name and prefix matches first. " +
        "Rate-limited per user, or per client address signed out (policy search).",
      tags: ["Search"],
      auth: "optional",
      query: searchQuery,
      response: searchResult,
      rateLimit: "search",
    },
    // Search tolerates a replica's lag; a fan who just wrote reads the primary.
    ({ user, query }) => readMayLag(user?.id ?? null, (db) => search(db, user, query)),
  ),
});
