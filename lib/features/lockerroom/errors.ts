import { defineErrors } from "../../kernel/errors";

// Error codes of the locker room (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts). The rules of who may post
// (lib/core/visibility) answer their own codes.
export const errors = defineErrors({
  CANNOT_POST_AS_TEAM: { status: 403, description: "The caller may not post as this team (only its staff accounts and staff can)." },
  EDIT_WINDOW_CLOSED: { status: 409, description: "The post can no longer be edited: the edit window after publication has passed." },
  ALREADY_PUBLISHED: { status: 409, description: "The scheduled post was already published: it can no longer be rescheduled or cancelled." },
  // Pins, reply controls, reposts and quotes (pins.ts, policy.ts, reposts.ts).
  PIN_LIMIT_REACHED: { status: 409, description: "The profile already has 3 pinned posts: unpin one first." },
  POST_NOT_PUBLISHED: { status: 409, description: "The post is scheduled and not published yet: it cannot be pinned until it is." },
  COMMENTS_RESTRICTED: {
    status: 403,
    description: "The post's interaction policy does not let the caller comment (followers, team fans or nobody; details name the policy).",
  },
  POST_NOT_SHAREABLE: {
    status: 409,
    description: "The post cannot be reposted or quoted: it is private (its team's fans only) or not published yet.",
  },
});
