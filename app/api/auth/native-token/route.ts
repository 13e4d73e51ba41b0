import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { IDENTITY_PROVIDER_TIMEOUT_MS, NATIVE_TOKEN_MAX_AGE_SECONDS } from "@/lib/features/mobile/config";
import { assertFreshSession } from "@/lib/features/mobile/service";
import { signInTicket } from "@/lib/features/mobile/schemas";
import { issueSignInTicket } from "@/lib/features/mobile/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Mint a sign-in ticket for the signed-in user (legacy)",
      description: `Older path: a client holding a session (e.g. a web view) gets a sign-in ticket so the native app can open its own session. Prefer the mobile flow (\`/api/mobile/start\` → \`/api/mobile/exchange\`, with PKCE). Since a ticket is a new, independent session, the Bearer session token must be fresh: issued (\`iat\`) at most ${NATIVE_TOKEN_MAX_AGE_SECONDS} s ago (plus the configured clock skew), otherwise 401 UNAUTHORIZED — a leaked older token cannot be turned into a session. The identity provider has ${IDENTITY_PROVIDER_TIMEOUT_MS / 1000} s: its failure is 502 UPSTREAM_ERROR, no answer in time 504 UPSTREAM_TIMEOUT.`,
      tags: ["Auth"],
      auth: "bearer",
      rateLimit: "write",
      deprecated: { since: "2026-06-01", successor: "/api/mobile/exchange" },
      response: signInTicket,
      errors: [sharedErrors.UPSTREAM_ERROR, sharedErrors.UPSTREAM_TIMEOUT],
    },
    async ({ user }) => {
      assertFreshSession(user.issuedAt);
      return issueSignInTicket(user.externalId);
    },
  ),
});
