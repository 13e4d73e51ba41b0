import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { env, type Env } from "../env";
import { DomainError, sharedErrors } from "../kernel/errors";

// The two machine credentials a route can declare (RouteConfig.auth): "cron", Vercel Cron's Bearer secret, and
// "webhook", an HMAC-SHA256 signature over the raw request body keyed with a secret the route names.

/** Accepted distance between a signature's timestamp and our clock, in seconds. */
export const SIGNATURE_TOLERANCE_S = 300;
/** The request header that carries a webhook signature. */
export const SIGNATURE_HEADER = "X-Signature";

/** Environment variables that may key a webhook route (lib/env.ts): `*_WEBHOOK_SECRET`. */
export type WebhookSecretName = Extract<keyof Env, `${string}_WEBHOOK_SECRET`>;

const unauthorized = (message: string) => new DomainError(sharedErrors.UNAUTHORIZED, message);

const hmacHex = (secret: string, t: string, raw: Buffer) => createHmac("sha256", secret).update(`${t}.`).update(raw).digest("hex");

/** The X-Signature value for a body: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export function signWebhook(secret: string, raw: Buffer | string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${hmacHex(secret, String(t), Buffer.isBuffer(raw) ? raw : Buffer.from(raw, "utf8"))}`;
}

/**
 * Verifies X-Signature over the raw body bytes (constant-time) and the timestamp window. Several v1 entries are
 * allowed (secret rotation); one must match. Answers the delivery id: the matching signature itself, so a replay of
 * the same request has the same id, and a different id needs the secret.
 */
export function verifySignature(secret: string | undefined, header: string | null, raw: Buffer, nowS = Date.now() / 1000): string {
  if (!secret) throw unauthorized("Webhook deliveries are not accepted: no secret is configured.");
  if (!header) throw unauthorized(`Missing ${SIGNATURE_HEADER} header.`);
  let t: string | undefined;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const [k, v] = part.trim().split("=", 2);
    if (k === "t" && v && /^\d{1,12}$/.test(v)) t = v;
    else if (k === "v1" && v && /^[0-9a-f]{64}$/i.test(v)) candidates.push(v.toLowerCase());
  }
  if (!t || !candidates.length || candidates.length > 5) {
    throw unauthorized(`Malformed ${SIGNATURE_HEADER} header: expected t=<unix seconds>,v1=<hex HMAC-SHA256>.`);
  }
  const expected = Buffer.from(hmacHex(secret, t, raw), "hex");
  const match = candidates.find((c) => timingSafeEqual(Buffer.from(c, "hex"), expected));
  if (!match) throw unauthorized("Invalid webhook signature.");
  if (Math.abs(nowS - Number(t)) > SIGNATURE_TOLERANCE_S) {
    throw unauthorized(`Signature timestamp is more than ${SIGNATURE_TOLERANCE_S} s away from the server clock.`);
  }
  return match;
}

/** The secret a webhook route names; unset answers every delivery 401. */
export const webhookSecret = (name: WebhookSecretName): string | undefined => env()[name];

/** Vercel Cron: exactly `Authorization: Bearer <CRON_SECRET>`, compared in constant time; no secret → refuse all. */
export function verifyCron(secret: string | undefined, header: string | null): void {
  if (!secret) throw unauthorized("Cron calls are not accepted: CRON_SECRET is not configured.");
  if (!header) throw unauthorized("Missing Authorization header.");
  const digest = (v: string) => createHash("sha256").update(v, "utf8").digest();
  if (!timingSafeEqual(digest(header), digest(`Bearer ${secret}`))) throw unauthorized("Invalid cron secret.");
}
