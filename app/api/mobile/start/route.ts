import { z } from "zod";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { redirectResponse } from "@/lib/mobile/docs";
import { startSignIn } from "@/lib/mobile/flow";
import { startQuery } from "@/lib/mobile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Begin native sign-in",
      description:
        "Checks `provider` against the configured providers and `redirect_uri` against the app allow-list (anything else is a 400 JSON error, never a redirect), sets a short-lived nonce cookie, and redirects the browser to the identity provider's sign-in with a signed `state` bound to the redirect URI.",
      tags: ["Auth"],
      auth: "public",
      query: startQuery,
      rateLimit: "public",
      response: z.never(),
      openapi: { successResponses: redirectResponse("To the identity provider's sign-in page.") },
    },
    async ({ query }) => {
      const { location, setCookie } = startSignIn(query.provider, query.redirect_uri);
      return new Response(null, { status: 302, headers: { Location: location, "Set-Cookie": setCookie, "Cache-Control": "no-store" } });
    },
  ),
});
