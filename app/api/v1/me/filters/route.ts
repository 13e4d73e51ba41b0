import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { errors as mutesErrors } from "@/lib/core/mutes/errors";
import { filterBody, filterList, filterResult, FILTERS_MAX, KEYWORDS_MAX, KEYWORDS_PER_FILTER_MAX } from "@/lib/core/mutes/schemas";
import { createFilter, listFilters } from "@/lib/core/mutes/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My keyword filters",
      description: `The caller's keyword filters, oldest first (at most ${FILTERS_MAX}), expired ones too (\`expired\`: they hide nothing until given a new expiresAt).`,
      tags: ["Users"],
      auth: "bearer",
      response: filterList,
    },
    ({ user }) => listFilters(db, user.id),
  ),
  POST: route(
    {
      summary: "Add a keyword filter",
      description:
        `Hides, for the caller only, what matches any of the filter's keywords in its \`contexts\`: \`feed\` (locker-room posts), \`comments\` (comments and replies), \`notifications\` (the inbox, by the notification's text). The server leaves matching items out (hide, not warn); the caller's own posts and comments are never hidden. ` +
        "Matching is case-insensitive and Unicode-aware; a keyword is literal text (no wildcards or regular expressions), a space in it matches any run of white space, and `wholeWord` (default true) matches only whole words. " +
        "A list the filter applies to may answer a short page: its `nextCursor` continues after the last item read, so paging never skips or repeats one. " +
        `Optional \`expiresAt\` (in the future): the filter stops applying then. At most ${FILTERS_MAX} filters, ${KEYWORDS_PER_FILTER_MAX} keywords each and ${KEYWORDS_MAX} in all (409 FILTER_LIMIT).`,
      tags: ["Users"],
      auth: "bearer",
      body: filterBody,
      rateLimit: "write",
      status: 201,
      response: filterResult,
      errors: [mutesErrors.FILTER_LIMIT],
    },
    ({ user, body }) => createFilter(db, user.id, body),
  ),
});
