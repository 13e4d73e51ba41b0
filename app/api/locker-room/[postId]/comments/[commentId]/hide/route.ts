import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { hideBody, postCommentParams, teamHideResult } from "@/lib/features/moderation/schemas";
import { teamHideComment } from "@/lib/features/moderation/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Hide a comment on my team's post (team staff)",
      description:
        "A team's staff (team_staff) hide a comment on a post of their team (posted as the team or tagged with it): the comment is hidden from everyone but staff, its open reports resolved, and the hide recorded as a moderation action against the comment's author that waits in platform staff's review queue (they uphold or revert it); the author sees it and may appeal. Optional body `{ note }` (at most 500 characters; the author sees it as the reason). Idempotent (`changed: false`). A post the caller cannot see, or a comment not of it or deleted, is 404; a caller not on the team's staff is 403.",
      tags: ["Locker room"],
      auth: "bearer",
      params: postCommentParams,
      body: hideBody,
      bodyRequired: false,
      rateLimit: "write",
      response: teamHideResult,
      errors: [sharedErrors.NOT_FOUND, sharedErrors.FORBIDDEN],
    },
    ({ user, params, body }) => teamHideComment(db, user, params.postId, params.commentId, body?.note),
  ),
});
