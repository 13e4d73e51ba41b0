import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client";
import { DomainError } from "../http/errors";

// Shared-secret checks of the two machine triggers: the provider's signed webhook and Vercel Cron's Bearer secret.

/** Accepted distance between the signature's timestamp and our clock, in seconds. */
export const WEBHOOK_TOLERANCE_S = 300;
export const WEBHOOK_BODY_LIMIT = 64 * 1024;
export const WEBHOOK_SOURCE = "leagues-sync";

const unauthorized = (message: string) => new DomainError("UNAUTHORIZED", message);

const hmacHex = (secret: string, t: string, raw: Buffer) =>
  createHmac("sha256", secret).update(`${t}.`).update(raw).digest("hex");

/** The X-Signature value for a body: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export function signWebhook(secret: string, raw: Buffer | string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${hmacHex(secret, String(t), Buffer.isBuffer(raw) ? raw : Buffer.from(raw, "utf8"))}`;
}

/**
 * Verifies X-Signature over the raw body bytes (constant-time) and the timestamp window. Several v1 entries are
 * allowed (secret rotation); one must match. Answers the delivery id: the matching signature itself, so a replay of
 * the same request has the same id, and a different id needs the secret.
 */
export function verifyWebhook(secret: string | undefined, header: string | null, raw: Buffer, nowS = Date.now() / 1000): string {
  if (!secret) throw unauthorized("Webhook deliveries are not accepted: no secret is configured.");
  if (!header) throw unauthorized("Missing X-Signature header.");
  let t: string | undefined;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const [k, v] = part.trim().split("=", 2);
    if (k === "t" && v && /^\d{1,12}$/.test(v)) t = v;
    else if (k === "v1" && v && /^[0-9a-f]{64}$/i.test(v)) candidates.push(v.toLowerCase());
  }
  if (!t || !candidates.length || candidates.length > 5) throw unauthorized("Malformed X-Signature header: expected t=<unix seconds>,v1=<hex HMAC-SHA256>.");
  const expected = Buffer.from(hmacHex(secret, t, raw), "hex");
  const match = candidates.find((c) => timingSafeEqual(Buffer.from(c, "hex"), expected));
  if (!match) throw unauthorized("Invalid webhook signature.");
  if (Math.abs(nowS - Number(t)) > WEBHOOK_TOLERANCE_S) throw unauthorized(`Signature timestamp is more than ${WEBHOOK_TOLERANCE_S} s away from the server clock.`);
  return match;
}

/**
 * Claims a delivery id once (INSERT … ON CONFLICT DO NOTHING): true the first time, false for a replay. Claims older
 * than a day are dropped on the way: their timestamps are long outside the window, so they can no longer verify.
 */
export async function claimDelivery(db: PrismaClient, id: string): Promise<boolean> {
  await db.$executeRaw`DELETE FROM webhook_deliveries WHERE source = ${WEBHOOK_SOURCE} AND received_at < now() - interval '1 day'`;
  const rows = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO webhook_deliveries (id, source, received_at) VALUES (${id}, ${WEBHOOK_SOURCE}, now())
    ON CONFLICT (id) DO NOTHING RETURNING id`;
  return rows.length === 1;
}

/** Vercel Cron: exactly `Authorization: Bearer <CRON_SECRET>`, compared in constant time; no secret → refuse all. */
export function verifyCron(secret: string | undefined, header: string | null): void {
  if (!secret) throw unauthorized("Cron calls are not accepted: CRON_SECRET is not configured.");
  if (!header) throw unauthorized("Missing Authorization header.");
  const digest = (v: string) => createHash("sha256").update(v, "utf8").digest();
  if (!timingSafeEqual(digest(header), digest(`Bearer ${secret}`))) throw unauthorized("Invalid cron secret.");
}
