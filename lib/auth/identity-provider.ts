import { createClerkClient, type ClerkClient } from "@clerk/backend";
import { staffRoleOf, type StaffRole } from "./roles";
import { ensureDevKeyPair } from "./keys";
import { signSessionToken } from "./sign";
import { env } from "../env";

// The identity provider behind one small interface. Production: Clerk's Backend API (CLERK_SECRET_KEY;
// CLERK_API_URL overrides its address, which tests point at a local stand-in). Without a secret key outside
// production: a built-in development provider, so the whole mobile flow can be walked on a laptop.

export interface IdpUser {
  externalId: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  imageUrl: string | null;
  /** The staff role the provider holds (Clerk: public metadata role); "none" for a fan; null when the provider keeps none. */
  role: StaffRole | "none" | null;
}

/** One sign-in session the provider reports (Clerk: a session with its latest activity). */
export interface IdpSignIn {
  sessionId: string;
  status: string;
  createdAt: Date;
  lastActiveAt: Date;
  ipAddress: string | null;
  location: string | null;
  client: string | null;
}

export interface IdentityProvider {
  readonly name: "clerk" | "development";
  /** Where the browser signs in with `provider` (e.g. google, apple) and then returns to `returnUrl`. */
  signInUrl(provider: string, returnUrl: string): string;
  /** A one-time ticket the native app turns into a session (Clerk: a sign-in token). */
  createSignInTicket(externalId: string, ttlSeconds: number): Promise<{ ticket: string; expiresAt: Date }>;
  getUser(externalId: string): Promise<IdpUser | null>;
  revokeSession(sessionId: string): Promise<void>;
  /** The user's newest sign-in sessions, newest first; null when the provider keeps none (development). */
  listSignIns(externalId: string, limit: number): Promise<IdpSignIn[] | null>;
  /** Sets or removes (null) the staff role (Clerk: public metadata role, copied into the session claims). */
  setRole(externalId: string, role: StaffRole | null): Promise<void>;
  /** Deletes the user at the provider (account erasure); one already gone counts as deleted. */
  deleteUser(externalId: string): Promise<void>;
}

export class ClerkProvider implements IdentityProvider {
  readonly name = "clerk" as const;
  private readonly clerk: ClerkClient;

  constructor(
    secretKey: string,
    apiUrl: string | undefined,
    private readonly signInPage: string,
  ) {
    this.clerk = createClerkClient({ secretKey, ...(apiUrl ? { apiUrl } : {}) });
  }

  signInUrl(provider: string, returnUrl: string): string {
    const url = new URL(this.signInPage);
    url.searchParams.set("redirect_url", returnUrl);
    url.searchParams.set("strategy", `oauth_${provider}`);
    return url.toString();
  }

  async createSignInTicket(externalId: string, ttlSeconds: number) {
    const token = await this.clerk.signInTokens.createSignInToken({ userId: externalId, expiresInSeconds: ttlSeconds });
    if (!token?.token) throw new Error("Clerk returned no sign-in token");
    return { ticket: token.token, expiresAt: new Date(Date.now() + ttlSeconds * 1000) };
  }

  async getUser(externalId: string): Promise<IdpUser | null> {
    try {
      const u = await this.clerk.users.getUser(externalId);
      const email = u.emailAddresses.find((e) => e.id === u.primaryEmailAddressId) ?? u.emailAddresses[0];
      return {
        externalId: u.id,
        email: email?.emailAddress ?? null,
        firstName: u.firstName,
        lastName: u.lastName,
        username: u.username,
        imageUrl: u.imageUrl || null,
        role: staffRoleOf((u.publicMetadata as { role?: unknown } | null)?.role) ?? "none",
      };
    } catch (error) {
      if ((error as { status?: number }).status === 404) return null;
      throw error;
    }
  }

  async revokeSession(sessionId: string) {
    await this.clerk.sessions.revokeSession(sessionId);
  }

  async listSignIns(externalId: string, limit: number): Promise<IdpSignIn[]> {
    const { data } = await this.clerk.sessions.getSessionList({ userId: externalId, limit });
    return data
      .map((s) => {
        const a = s.latestActivity;
        const location = [a?.city, a?.country].filter(Boolean).join(", ");
        const client = [a?.browserName, a?.browserVersion, a?.deviceType, a?.isMobile ? "mobile" : null].filter(Boolean).join(" ");
        return {
          sessionId: s.id,
          status: s.status,
          createdAt: new Date(s.createdAt),
          lastActiveAt: new Date(s.lastActiveAt),
          ipAddress: a?.ipAddress ?? null,
          location: location || null,
          client: client || null,
        };
      })
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }

  async setRole(externalId: string, role: StaffRole | null) {
    await this.clerk.users.updateUserMetadata(externalId, { publicMetadata: { role } });
  }

  async deleteUser(externalId: string) {
    try {
      await this.clerk.users.deleteUser(externalId);
    } catch (error) {
      if ((error as { status?: number }).status !== 404) throw error;
    }
  }
}

/** Laptop-only provider: signs in anyone by user id at /dev/sign-in and mints tickets that are session tokens. */
export class DevelopmentProvider implements IdentityProvider {
  readonly name = "development" as const;

  signInUrl(provider: string, returnUrl: string): string {
    return `/dev/sign-in?provider=${encodeURIComponent(provider)}&redirect_url=${encodeURIComponent(returnUrl)}`;
  }

  async createSignInTicket(externalId: string, ttlSeconds: number) {
    const ticket = signSessionToken(ensureDevKeyPair().privateKey, externalId, { ttlSeconds });
    return { ticket, expiresAt: new Date(Date.now() + ttlSeconds * 1000) };
  }

  async getUser(externalId: string): Promise<IdpUser> {
    return { externalId, email: `${externalId}@dev.local`, firstName: null, lastName: null, username: null, imageUrl: null, role: null };
  }

  async revokeSession() {}

  // Development sessions are self-signed tokens: the provider records no sign-ins.
  async listSignIns() {
    return null;
  }

  // Development tokens carry the role they were minted with (npm run token -- <id> --admin); nothing to store.
  async setRole() {}

  // The development provider keeps no users.
  async deleteUser() {}
}

let instance: IdentityProvider | undefined;

export function identityProvider(): IdentityProvider {
  if (instance) return instance;
  const e = env();
  if (e.CLERK_SECRET_KEY) {
    instance = new ClerkProvider(e.CLERK_SECRET_KEY, e.CLERK_API_URL, e.CLERK_SIGN_IN_URL);
  } else if (e.NODE_ENV !== "production") {
    instance = new DevelopmentProvider();
  } else {
    throw new Error("CLERK_SECRET_KEY is required in production (identity provider).");
  }
  return instance;
}
