import { methods } from "@/lib/http/methods";
import { redirect } from "@/lib/http/reply";
import { route } from "@/lib/http/route";
import { startSignIn } from "@/lib/features/mobile/service";
import { startQuery } from "@/lib/features/mobile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Begin native sign-in",
      description:
        "Checks `provider` against the configured providers and `redirect_uri` against the app allow-list (anything else is a 400 JSON error, never a redirect), sets a short-lived nonce cookie, and redirects the browser to the identity provider's sign-in with a signed `state` bound to the redirect URI. PKCE (RFC 7636/8252): the app should send `code_challenge` = BASE64URL(SHA-256(code_verifier)) (43 characters) with `code_challenge_method=S256`; the challenge rides in the signed state to the callback and is stored with the minted token, and `/api/mobile/exchange` then requires the matching `code_verifier`, so a token intercepted on its way to the app is useless. `plain` or any other method, a method without a challenge, a challenge without a method or a malformed challenge is a 400. Without PKCE (legacy clients) the flow still works, protected by the token alone.",
      tags: ["Auth"],
      auth: "public",
      query: startQuery,
      rateLimit: "public",
      database: false,
      redirect: "To the identity provider's sign-in page.",
    },
    async ({ query }) => {
      const { location, setCookie } = startSignIn(query.provider, query.redirect_uri, query.code_challenge);
      return redirect(location, { cookies: [setCookie] });
    },
  ),
});
