import type { DbTx } from "../../db/client";

/**
 * Ends the announcement now, unless it has already ended: how many rows changed (0 or 1). The database's clock, as
 * the list's "running" test reads it.
 */
export const endAnnouncementNow = (tx: DbTx, announcementId: string) =>
  tx.$executeRaw`UPDATE announcements SET ends_at = now() WHERE id = ${announcementId}::uuid AND (ends_at IS NULL OR ends_at > now())`;
