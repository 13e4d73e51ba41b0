import { env } from "../../env";
import { DomainError } from "../../kernel/errors";
import { SIGNATURE_HEADER, verifySignature } from "../../http/machine-auth";
import type { WebhookVerifier } from "../../http/route";
import { sharedErrors } from "../../kernel/errors";
import { errors as liveErrors } from "./errors";

// The live events webhook's auth: X-Signature exactly as the league sync's (lib/http/machine-auth.ts verifySignature:
// HMAC-SHA256 of "<t>.<raw body>", ±300 s, several v1 for rotation), keyed with LIVE_EVENTS_WEBHOOK_SECRET. The data
// provider is optional: unset in production, the route answers 503 LIVE_FEED_UNAVAILABLE; outside production a
// development secret stands in so the console and local tools work without configuration.

/** The secret outside production when LIVE_EVENTS_WEBHOOK_SECRET is unset (never accepted in production). */
export const DEV_LIVE_EVENTS_SECRET = "live-events-development-secret";

export function liveEventsSecret(): string | null {
  const e = env();
  return e.LIVE_EVENTS_WEBHOOK_SECRET ?? (e.NODE_ENV === "production" ? null : DEV_LIVE_EVENTS_SECRET);
}

export const liveFeedUnavailable = () =>
  new DomainError(liveErrors.LIVE_FEED_UNAVAILABLE, "The live events feed is not configured on this server (LIVE_EVENTS_WEBHOOK_SECRET).");

export const liveEventsSignature: WebhookVerifier = {
  scheme: {
    name: "liveEventsSignature",
    header: "X-Signature",
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with LIVE_EVENTS_WEBHOOK_SECRET (the league sync webhook\'s scheme); `t` within ±300 s; several `v1` allowed (rotation).',
  },
  errors: [sharedErrors.UNAUTHORIZED, liveErrors.LIVE_FEED_UNAVAILABLE],
  verify(headers, rawBody) {
    const secret = liveEventsSecret();
    if (!secret) throw liveFeedUnavailable();
    return verifySignature(secret, headers.get(SIGNATURE_HEADER), rawBody);
  },
};
