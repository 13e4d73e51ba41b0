import { constants } from "@clerk/backend/internal";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { SESSION_COOKIE } from "@/lib/auth/cookies";
import { parties, verifySessionToken } from "@/lib/auth/tokens";
import { resolveUser } from "@/lib/auth/users";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/kernel/errors";
import { identityProvider } from "@/lib/auth/identity-provider";

// Who is using the fans' account pages (/account/*): the identity provider's browser session, as in the staff
// console (Clerk's `__session` cookie, or the token Clerk's middleware refreshed for this request), verified in full
// on every page render and every server action. The session must come from one of CLERK_AUTHORIZED_PARTIES when set
// (a browser session names its page's origin). An erased account's session is refused (resolveUser).

export const ACCOUNT_DELETE_PATH = "/account/delete";

async function sessionToken(): Promise<string | undefined> {
  return (await headers()).get(constants.Headers.AuthToken) || (await cookies()).get(SESSION_COOKIE)?.value;
}

/** Where a signed-out visitor signs in, coming back to `path` (always one of this app's account pages). */
function signInUrl(path: string): string {
  const back = new URL(path, env().APP_URL).toString();
  if (identityProvider().name === "development") return `/dev/sign-in?provider=account&redirect_url=${encodeURIComponent(back)}`;
  const url = new URL(env().CLERK_SIGN_IN_URL);
  url.searchParams.set("redirect_url", back);
  return url.toString();
}

/** The signed-in fan's user id, or a redirect to sign in (a missing, expired, foreign or erased session). */
export async function requireFan(path: string = ACCOUNT_DELETE_PATH): Promise<{ userId: string; externalId: string }> {
  const token = await sessionToken();
  if (token) {
    try {
      const identity = await verifySessionToken(token);
      const allowed = parties();
      if (!allowed || allowed.includes(String(identity.claims.azp))) {
        const user = await resolveUser(identity);
        return { userId: user.id, externalId: user.externalId };
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error; // misconfiguration: fail loudly, never open
    }
  }
  redirect(signInUrl(path));
}
