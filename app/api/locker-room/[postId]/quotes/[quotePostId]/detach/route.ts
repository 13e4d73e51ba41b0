import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { quoteDetached, quoteParams } from "@/lib/features/lockerroom/schemas";
import { detachQuote } from "@/lib/features/lockerroom/reposts";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Detach a quote of my post",
      description:
        "The quoted post's author (for a team's post, the team's staff) detaches a quote, as Bluesky's detach: the quote stays, but shows `quotedPost: { id, unavailable: true, detached: true }` to everyone, leaves the post's quotes list and no longer counts in `counts.quotes`. " +
        "Idempotent (the first time is kept). Others: 403. 404 when the caller may not see the post, or `quotePostId` is not a quote of it.",
      tags: ["Locker room"],
      auth: "bearer",
      params: quoteParams,
      rateLimit: "write",
      response: quoteDetached,
      errors: [sharedErrors.NOT_FOUND, sharedErrors.FORBIDDEN],
    },
    ({ user, params }) => detachQuote(db, user, params.postId, params.quotePostId),
  ),
});
