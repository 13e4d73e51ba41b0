import { defineErrors } from "../../kernel/errors";

// Error codes of the feeds (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  FEED_SNAPSHOT_EXPIRED: {
    status: 410,
    description:
      "The ranked feed's snapshot this cursor pages over has expired (snapshots live an hour) or is not the caller's: load the feed again without a cursor (a new ranking).",
  },
});
