import { Prisma } from "../generated/prisma/client";
import { db } from "../db/client";
import { uuidv7 } from "../db/ids";
import { raw } from "../db/raw";
import { env } from "../env";
import { DomainError, sharedErrors } from "../kernel/errors";
import type { StaffRole } from "./roles";
import type { Identity } from "./tokens";

export interface AuthUser {
  id: string;
  externalId: string;
  isAdmin: boolean;
  /** The staff role of the session (lib/auth/roles.ts), null for a fan. */
  staffRole: StaffRole | null;
  /** The identity-provider session (sid claim) and when its token expires. */
  sessionId: string | null;
  expiresAt: Date;
  /** When the session token was issued (iat claim), if it says. */
  issuedAt: Date | null;
  /**
   * The end of the user's full suspension (users.suspended_until, kept by lib/features/moderation with each sanction), read in
   * the same statement that resolves the row; the request pipeline refuses a suspended caller (ACCOUNT_SUSPENDED).
   */
  suspendedUntil: Date | null;
}

const session = (identity: Identity) => ({
  sessionId: typeof identity.claims.sid === "string" ? identity.claims.sid : null,
  expiresAt: new Date(identity.claims.exp * 1000),
  issuedAt: typeof identity.claims.iat === "number" ? new Date(identity.claims.iat * 1000) : null,
});

// externalId → user id and suspension end. Users are never re-keyed, so a short-lived in-process cache saves a query
// per request. lib/features/moderation forgets an entry when it suspends or reinstates the user (this process at once; other
// processes within USER_CACHE_TTL_MS: tests/multi/suspension.test.ts).
const CACHE_MAX = 10_000;
// One map per process (on globalThis), whichever route bundle imports this module, so forgetUser reaches it.
const cache: Map<string, { id: string; suspendedUntil: Date | null; expires: number }> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for("fan.auth.userCache")
] ??= new Map()) as Map<string, { id: string; suspendedUntil: Date | null; expires: number }>;

/** The user row for a verified identity, created just in time the first time a subject is seen. */
export async function resolveUser(identity: Identity): Promise<AuthUser> {
  const now = Date.now();
  const hit = cache.get(identity.externalId);
  if (hit && hit.expires > now)
    return {
      id: hit.id,
      externalId: identity.externalId,
      isAdmin: identity.isAdmin,
      staffRole: identity.role,
      suspendedUntil: hit.suspendedUntil,
      ...session(identity),
    };

  const externalId = identity.externalId;
  // One statement finds the row or creates it (a miss is every new process's first request of each fan). A
  // concurrent first request of the same new fan may insert it first: then ours inserts nothing (ON CONFLICT DO
  // NOTHING) and reads the row the other committed.
  // An erased account (lib/core/accounts) keeps its row as a tombstone, external_id included, so its subject never
  // signs in again nor creates a new row: a token of it that still verifies is refused here.
  type Row = { id: string; suspendedUntil: Date | null; erased: boolean };
  const erased = (alias: string) => Prisma.sql`EXISTS (SELECT 1 FROM account_deletions d WHERE d.user_id = ${Prisma.raw(alias)}.id AND d.state = 'erased')`;
  let [row] = await raw(db).$queryRaw<Row[]>`
    WITH found AS (SELECT id, suspended_until FROM users WHERE external_id = ${externalId}),
    created AS (
      INSERT INTO users (id, external_id, updated_at) SELECT ${uuidv7(now)}::uuid, ${externalId}, ${new Date(now)}::timestamptz
      WHERE NOT EXISTS (SELECT 1 FROM found)
      ON CONFLICT (external_id) DO NOTHING
      RETURNING id, suspended_until
    )
    SELECT id::text, suspended_until AS "suspendedUntil", ${erased("found")} AS erased FROM found
    UNION ALL SELECT id::text, suspended_until, false FROM created`;
  row ??= (
    await raw(db).$queryRaw<Row[]>`
      SELECT u.id::text, u.suspended_until AS "suspendedUntil", ${erased("u")} AS erased FROM users u WHERE u.external_id = ${externalId}`
  )[0];
  if (!row) throw new Error(`user ${externalId} neither found nor created`);
  if (row.erased) throw new DomainError(sharedErrors.UNAUTHORIZED, "This account has been deleted.");
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(externalId, { id: row.id, suspendedUntil: row.suspendedUntil, expires: now + env().USER_CACHE_TTL_MS });
  return { id: row.id, externalId, isAdmin: identity.isAdmin, staffRole: identity.role, suspendedUntil: row.suspendedUntil, ...session(identity) };
}

/** Whether staff suspended the user's whole account (a full suspension in force now). */
export const isSuspended = (user: Pick<AuthUser, "suspendedUntil">, now = Date.now()) => user.suspendedUntil !== null && user.suspendedUntil.getTime() > now;

/** Forget a cached mapping (tests, account deletion, and a suspension imposed or lifted). */
export function forgetUser(externalId: string): void {
  cache.delete(externalId);
}
