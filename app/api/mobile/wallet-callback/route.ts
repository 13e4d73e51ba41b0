import { z } from "zod";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { redirectResponse } from "@/lib/mobile/docs";
import { walletCallbackTarget } from "@/lib/mobile/flow";
import { walletCallbackQuery } from "@/lib/mobile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Return from wallet linking to the app",
      description:
        "The wallet app sends the browser here after the user approves or declines linking. Redirects to the allow-listed `redirect_uri` with `#wallet=<0x address>` or `#error=<code>` (`invalid_address`, or the wallet's error). Stores nothing: the app links the address through an authenticated call. A `redirect_uri` outside the allow-list is a 400 JSON error.",
      tags: ["Auth"],
      auth: "public",
      query: walletCallbackQuery,
      response: z.never(),
      openapi: { successResponses: redirectResponse("To the app: `#wallet=…` or `#error=…`.") },
    },
    async ({ query }) =>
      new Response(null, {
        status: 302,
        headers: { Location: walletCallbackTarget(query.redirect_uri, query.address, query.error), "Cache-Control": "no-store" },
      }),
  ),
});
