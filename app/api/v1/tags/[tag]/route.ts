import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { tagPage, tagPageQuery, tagParams } from "@/lib/features/tags/schemas";
import { tagPage as readTagPage } from "@/lib/features/tags/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A hashtag and its posts",
      description:
        "The tag (`tag` key, display `name`, whether the caller follows it) and its posts newest first by publish time, then id (keyset: `limit` 1..50, default 20; `nextCursor` only when more remain), each as the feed serializes it. " +
        "The path's tag may be written in any case and with compatibility characters: it is NFKC-normalized and lower-cased (`Fußball` → `fußball`); not a hashtag (no letter, other characters, longer than 64) is 400. A tag nobody used or followed is 404. " +
        "The same rules as the feed, in the statement that reads: signed out, public posts only; never deleted or hidden posts, posts of users the caller blocked or who blocked the caller, or private posts of teams the caller neither follows nor joined. " +
        "Signed in, posts by accounts the caller mutes and posts matching the caller's `feed` keyword filters are left out of the page read: a page may come back short (even empty) with a `nextCursor` that continues after the last post read.",
      tags: ["Tags"],
      auth: "optional",
      params: tagParams,
      query: tagPageQuery,
      response: tagPage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, query }) => readTagPage(db, user, params.tag, query),
  ),
});
