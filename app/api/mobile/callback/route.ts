import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { redirect } from "@/lib/http/reply";
import { route } from "@/lib/http/route";
import { clearNonceCookie, completeSignIn } from "@/lib/features/mobile/service";
import { callbackQuery } from "@/lib/features/mobile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Finish native sign-in",
      description:
        "Reached from the identity provider after sign-in, with the provider's session (the `__session` cookie, or a Bearer token). Checks the signed `state` and the nonce cookie, mints a one-time mobile session token (128 hex characters, valid 5 minutes, stored hashed, with the PKCE `code_challenge` the sign-in started with, if any) and redirects to the app as `<redirect_uri>#token=…`. Every failure after a valid state redirects as `#error=<code>` (`access_denied` and other provider errors, `state_mismatch`, `not_signed_in`, `account_suspended` (staff suspended the account), `rate_limited`, `server_error`); a missing, forged or expired state answers 400 because it names no trusted redirect. Rate-limited per signed-in user (policy `mobileCallback`, 10 tokens a minute): past the limit the app gets `#error=rate_limited` and no token is minted (a redirect, not a 429, since this is the browser leg).",
      tags: ["Auth"],
      auth: "public",
      query: callbackQuery,
      redirect: "To the app: `#token=…` or `#error=…`.",
    },
    async ({ query, req }) => {
      const location = await completeSignIn(db, {
        state: query.state,
        error: query.error,
        cookieHeader: req.headers.get("cookie"),
        authorization: req.headers.get("authorization"),
      });
      return redirect(location, { cookies: [clearNonceCookie()] });
    },
  ),
});
