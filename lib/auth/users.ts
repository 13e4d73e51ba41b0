import { db } from "../db/client";
import type { Identity } from "./tokens";

export interface AuthUser {
  id: string;
  externalId: string;
  isAdmin: boolean;
  /** The identity-provider session (sid claim) and when its token expires. */
  sessionId: string | null;
  expiresAt: Date;
  /** When the session token was issued (iat claim), if it says. */
  issuedAt: Date | null;
}

const session = (identity: Identity) => ({
  sessionId: typeof identity.claims.sid === "string" ? identity.claims.sid : null,
  expiresAt: new Date(identity.claims.exp * 1000),
  issuedAt: typeof identity.claims.iat === "number" ? new Date(identity.claims.iat * 1000) : null,
});

// externalId → user id. Users are never re-keyed, so a short-lived in-process cache saves a query per request.
const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 10_000;
const cache = new Map<string, { id: string; expires: number }>();

/** The user row for a verified identity, created just in time the first time a subject is seen. */
export async function resolveUser(identity: Identity): Promise<AuthUser> {
  const now = Date.now();
  const hit = cache.get(identity.externalId);
  if (hit && hit.expires > now) return { id: hit.id, externalId: identity.externalId, isAdmin: identity.isAdmin, ...session(identity) };

  const externalId = identity.externalId;
  let row = await db.user.findUnique({ where: { externalId }, select: { id: true } });
  if (!row) {
    // ON CONFLICT DO NOTHING: concurrent first requests of one new user all end on the same row.
    await db.user.createMany({ data: [{ externalId }], skipDuplicates: true });
    row = await db.user.findUniqueOrThrow({ where: { externalId }, select: { id: true } });
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(externalId, { id: row.id, expires: now + CACHE_TTL_MS });
  return { id: row.id, externalId, isAdmin: identity.isAdmin, ...session(identity) };
}

/** Forget a cached mapping (tests and account deletion). */
export function forgetUser(externalId: string): void {
  cache.delete(externalId);
}
