import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { env } from "../../env";
import { EXPORT_LINK_TTL_S } from "./schemas";

// Download links of data exports: GET /api/v1/me/exports/{id}/download?expires=<unix s>&signature=<HMAC>, the
// signature an HMAC-SHA256 over the export id and the expiry with EXPORT_LINK_SECRET. The link alone is the
// credential (no session: a mobile app opens it in a browser), so it is short-lived (15 minutes) and names one export.

let devSecret: string | undefined;
/**
 * EXPORT_LINK_SECRET; unset, a key derived from MOBILE_STATE_SECRET (required in production, so a production server
 * always signs links every instance accepts); neither (development): a random key per process.
 */
function secret(): string {
  const { EXPORT_LINK_SECRET, MOBILE_STATE_SECRET } = env();
  if (EXPORT_LINK_SECRET) return EXPORT_LINK_SECRET;
  if (MOBILE_STATE_SECRET) return createHmac("sha256", MOBILE_STATE_SECRET).update("export-download-links").digest("hex");
  return (devSecret ??= randomBytes(32).toString("hex"));
}

/** The signature of a download link (also used by the tests, with the test run's secret). */
export const linkSignature = (exportId: string, expires: number, key = secret()) =>
  createHmac("sha256", key).update(`export-download:v1:${exportId}:${expires}`).digest("base64url");

export function downloadPath(exportId: string, expires: number): string {
  return `/api/v1/me/exports/${exportId}/download?expires=${expires}&signature=${linkSignature(exportId, expires)}`;
}

/** A link valid EXPORT_LINK_TTL_S from now, absolute on APP_URL. */
export function signDownloadLink(exportId: string, now = Date.now()): { url: string; expiresAt: Date } {
  const expires = Math.floor(now / 1000) + EXPORT_LINK_TTL_S;
  return { url: new URL(downloadPath(exportId, expires), env().APP_URL).toString(), expiresAt: new Date(expires * 1000) };
}

/** "invalid" when the signature is not ours for this id and expiry (checked first), "expired" when its time is over. */
export function checkDownloadLink(exportId: string, expires: string, signature: string, now = Date.now()): "ok" | "invalid" | "expired" {
  const expected = Buffer.from(linkSignature(exportId, Number(expires)));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
  return Number(expires) * 1000 <= now ? "expired" : "ok";
}
