import { decodeJwt } from "@clerk/backend/jwt";
import { env } from "../env";
import { DomainError, sharedErrors } from "../kernel/errors";
import { ensureDevKeyPair } from "./keys";
import { staffRoleOf, type StaffRole } from "./roles";
import { DEV_ISSUER } from "./sign";

// Clerk session JWTs verified with no network call: RS256 over the PEM public key in CLERK_JWT_KEY.
// Clerk's own verifyToken re-imports the key on every call (~0.3 ms); we import it once and check
// the claims Clerk checks (sub, exp, nbf, iat, azp) with the same clock skew, plus two Clerk's SDK leaves to
// options: iss must be our instance's issuer, and sid must be present (a session token always names its session;
// a token without one is some other kind of JWT signed by the same key).

export interface SessionClaims {
  sub: string;
  sid?: string;
  iss?: string;
  azp?: string;
  exp: number;
  nbf?: number;
  iat?: number;
  metadata?: { role?: unknown } & Record<string, unknown>;
  [claim: string]: unknown;
}

export interface Identity {
  externalId: string;
  /** The staff role the claims name (metadata.role), or null for a fan. */
  role: StaffRole | null;
  /** role === "admin": every staff area, and the admin's view of fan content. */
  isAdmin: boolean;
  claims: SessionClaims;
}

let keyPromise: Promise<CryptoKey> | undefined;

function publicKeyPem(): string {
  const configured = env().CLERK_JWT_KEY;
  if (configured) return configured.replace(/\\n/g, "\n");
  if (env().NODE_ENV === "production") {
    throw new Error("CLERK_JWT_KEY is required in production (the PEM public key of the Clerk instance).");
  }
  return ensureDevKeyPair().publicKey;
}

function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, "").replace(/\s+/g, "");
  return Uint8Array.from(Buffer.from(body, "base64"));
}

function verificationKey(): Promise<CryptoKey> {
  keyPromise ??= crypto.subtle.importKey("spki", pemToDer(publicKeyPem()), { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["verify"]);
  return keyPromise;
}

const unauthorized = (message: string) => new DomainError(sharedErrors.UNAUTHORIZED, message);

let authorizedParties: string[] | undefined | null = null;
/** The azp values CLERK_AUTHORIZED_PARTIES allows, or undefined when it is unset (no azp check; never in production). */
export function parties(): string[] | undefined {
  if (authorizedParties === null) {
    const raw = env().CLERK_AUTHORIZED_PARTIES;
    authorizedParties = raw
      ? raw
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
  }
  return authorizedParties;
}

// Claims reach PostgreSQL (sub as users.external_id, sid, the staff id in the audit log), which refuses a NUL in
// text and an index entry past ~2.7 kB: a token with either is malformed (401), never a 500. Identity-provider user
// ids are about 32 characters.
const SUBJECT_MAX = 255;

/** Whether any string in the claims (at any depth: metadata too) holds U+0000. */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (typeof value !== "object" || value === null || depth > 8) return false;
  return Object.entries(value).some(([k, v]) => k.includes("\u0000") || holdsNul(v, depth + 1));
}

const issuer = () => env().CLERK_ISSUER?.replace(/\/+$/, "") ?? DEV_ISSUER;

// Tokens already verified, until they expire: a client sends the same session token on every request for its
// minute-long life, and the RSA check (~70 µs of CPU) need not run again for it. Keyed by the whole token, so a
// changed byte is a miss; only successes are kept, and expiry is checked again on every hit.
const VERIFIED_MAX = 10_000;
const verified = new Map<string, Identity>();

const expired = (claims: SessionClaims, now: number) => claims.exp * 1000 + env().CLERK_CLOCK_SKEW_MS <= now;

export async function verifySessionToken(token: string): Promise<Identity> {
  const hit = verified.get(token);
  if (hit) {
    if (!expired(hit.claims, Date.now())) return hit;
    verified.delete(token);
  }
  const identity = await verifyUncached(token);
  if (verified.size >= VERIFIED_MAX) verified.clear();
  verified.set(token, identity);
  return identity;
}

async function verifyUncached(token: string): Promise<Identity> {
  let decoded: ReturnType<typeof decodeJwt>;
  try {
    decoded = decodeJwt(token);
  } catch {
    throw unauthorized("The bearer token is not a valid JWT.");
  }
  const { header, payload, signature, raw } = decoded;
  if (header.alg !== "RS256") throw unauthorized("The bearer token must be signed with RS256.");
  const data = new TextEncoder().encode(`${raw.header}.${raw.payload}`);
  const valid = await crypto.subtle.verify("RSASSA-PKCS1-v1_5", await verificationKey(), new Uint8Array(signature), data).catch(() => false);
  if (!valid) throw unauthorized("The bearer token's signature is invalid.");

  const claims = payload as unknown as SessionClaims;
  const now = Date.now();
  const skew = env().CLERK_CLOCK_SKEW_MS;
  if (typeof claims.sub !== "string" || claims.sub.length === 0) throw unauthorized("The bearer token has no subject.");
  if (claims.sub.length > SUBJECT_MAX) throw unauthorized(`The bearer token's subject is longer than ${SUBJECT_MAX} characters.`);
  if (holdsNul(claims)) throw unauthorized("The bearer token's claims hold a NUL character.");
  if (typeof claims.exp !== "number") throw unauthorized("The bearer token has no expiry.");
  if (expired(claims, now)) throw unauthorized("The bearer token has expired.");
  if (typeof claims.nbf === "number" && claims.nbf * 1000 - skew > now) throw unauthorized("The bearer token is not valid yet.");
  if (typeof claims.iat === "number" && claims.iat * 1000 - skew > now) throw unauthorized("The bearer token was issued in the future.");
  if (typeof claims.sid !== "string" || claims.sid.length === 0) throw unauthorized("The bearer token is not a session token (no sid).");
  if (claims.iss !== issuer()) throw unauthorized("The bearer token was issued by another identity provider instance.");
  const allowed = parties();
  if (allowed && claims.azp && !allowed.includes(claims.azp)) throw unauthorized("The bearer token's authorized party is not allowed.");

  const role = staffRoleOf(claims.metadata?.role);
  return { externalId: claims.sub, role, isAdmin: role === "admin", claims };
}

/** Imports the verification key now (start-up), so a missing or malformed key fails fast. */
export async function assertVerificationKey(): Promise<void> {
  try {
    await verificationKey();
  } catch (error) {
    keyPromise = undefined;
    throw new Error(`Cannot load the session-token verification key: ${error instanceof Error ? error.message : error}`);
  }
}
