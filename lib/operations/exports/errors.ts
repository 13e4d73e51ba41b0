import { defineErrors } from "../../kernel/errors";

// Error codes of data exports (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  EXPORT_TOO_SOON: {
    status: 429,
    description: "One data export per 7 days: the caller asked for one less than 7 days ago. Retry after the seconds in Retry-After.",
  },
  EXPORT_LINK_INVALID: {
    status: 403,
    description:
      "The download link is not one this service signed (a changed export id, expiry or signature): ask for the export's status again for a fresh link.",
  },
  EXPORT_LINK_EXPIRED: {
    status: 410,
    description: "The download link's 15 minutes are over: ask for the export's status again (GET /api/v1/me/exports/{exportId}) for a fresh link.",
  },
  EXPORT_EXPIRED: { status: 410, description: "The export is no longer available: its 7 days are over and its file was deleted. Request a new export." },
});
