import { db } from "@/lib/db/client";
import { DomainError, sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { parse, route } from "@/lib/http/route";
import { IDENTITY_PROVIDER_TIMEOUT_MS } from "@/lib/features/mobile/config";
import { exchangeBody, mobileToken, signInTicket } from "@/lib/features/mobile/schemas";
import { exchangeMobileToken } from "@/lib/features/mobile/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Exchange a mobile session token for a sign-in ticket",
      description: `Public. The token comes in the body \`{ token }\` or as \`Authorization: Bearer <token>\`, with the PKCE \`code_verifier\` in the body. Not 128 hex characters, or a \`code_verifier\` that is not 43–128 characters of [A-Za-z0-9-._~] → 400 VALIDATION_ERROR; unknown, expired or already used → 401 UNAUTHORIZED. PKCE: when sign-in started with a \`code_challenge\`, a missing or non-matching \`code_verifier\` (S256) is 401 and does not consume the token; a token minted without a challenge (legacy clients, no PKCE) redeems without a verifier and refuses one (401), so PKCE cannot be silently dropped. The token is consumed atomically by one conditional update (of concurrent exchanges exactly one succeeds); the identity provider is then called outside any database transaction with a ${IDENTITY_PROVIDER_TIMEOUT_MS / 1000} s limit. If the provider fails the answer is 502 UPSTREAM_ERROR, if it does not answer in time 504 UPSTREAM_TIMEOUT; either way the token is given back (redeemable again until it expires). The client creates a session from the ticket with the ticket strategy. Rate-limited per client address.`,
      tags: ["Auth"],
      auth: "public",
      body: exchangeBody,
      bodyRequired: false,
      rateLimit: "exchange",
      response: signInTicket,
      errors: [sharedErrors.UNAUTHORIZED, sharedErrors.UPSTREAM_ERROR, sharedErrors.UPSTREAM_TIMEOUT],
    },
    async ({ body, req }) => {
      let token = body?.token;
      if (!token) {
        const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
        if (!bearer) {
          throw new DomainError(sharedErrors.VALIDATION_ERROR, "Send the token as { token } or as a Bearer token.", [
            { path: "body.token", message: "Required" },
          ]);
        }
        token = parse(mobileToken, bearer, "body");
      }
      return exchangeMobileToken(db, token, body?.code_verifier);
    },
  ),
});
