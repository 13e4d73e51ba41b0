import type { StaffRole } from "./roles";
import { parties, verifySessionToken } from "./tokens";
import { env } from "../env";
import { DomainError } from "../kernel/errors";
import { identityProvider } from "./identity-provider";

// Who may use the staff console: a valid identity-provider session (Clerk's `__session` cookie holds the same
// session JWT the API takes as a Bearer token) whose claims carry a staff role in metadata.role (lib/auth/roles.ts:
// which areas each role opens is checked page by page and action by action). Networkless: the
// JWT is verified with the PEM key already imported for the API. The API lets a token without azp through (native
// apps have no origin); the console does not: when CLERK_AUTHORIZED_PARTIES is set (always in production), its
// session must come from one of those origins.

export type ConsoleSession = { kind: "anonymous" } | { kind: "forbidden"; externalId: string } | { kind: "staff"; externalId: string; role: StaffRole };

export type Staff = Extract<ConsoleSession, { kind: "staff" }>;

/** Classifies the session cookie's value. A missing, malformed or expired token means "sign in (again)". */
export async function checkStaff(token: string | undefined | null): Promise<ConsoleSession> {
  if (!token) return { kind: "anonymous" };
  try {
    const identity = await verifySessionToken(token);
    const allowed = parties();
    if (allowed && !allowed.includes(String(identity.claims.azp))) return { kind: "anonymous" };
    return identity.role ? { kind: "staff", externalId: identity.externalId, role: identity.role } : { kind: "forbidden", externalId: identity.externalId };
  } catch (error) {
    if (error instanceof DomainError) return { kind: "anonymous" };
    throw error; // misconfiguration (no verification key): fail loudly, never open
  }
}

/** Only console paths may be returned to after sign-in (no open redirect). */
export function safeConsolePath(path: string | null | undefined): string {
  return typeof path === "string" && /^\/admin(\/[\w\-/]*)?(\?[\w\-=&%.]*)?$/.test(path) ? path : "/admin";
}

/**
 * Where an anonymous visitor signs in: the hosted sign-in page (CLERK_SIGN_IN_URL) with `redirect_url` back to
 * the console, or the development sign-in page while the development identity provider is in use.
 */
export function signInUrl(returnPath: string): string {
  const e = env();
  const back = new URL(safeConsolePath(returnPath), e.APP_URL).toString();
  if (identityProvider().name === "development") return `/dev/sign-in?provider=console&redirect_url=${encodeURIComponent(back)}`;
  const url = new URL(e.CLERK_SIGN_IN_URL);
  url.searchParams.set("redirect_url", back);
  return url.toString();
}
