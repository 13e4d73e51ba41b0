import { methods } from "@/lib/http/methods";
import { redirect } from "@/lib/http/reply";
import { route } from "@/lib/http/route";
import { walletCallbackTarget } from "@/lib/features/mobile/service";
import { walletCallbackQuery } from "@/lib/features/mobile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Return from wallet linking to the app",
      description:
        "The wallet app sends the browser here after the user approves or declines linking. Requires `state`: an opaque value (16–256 characters of [A-Za-z0-9._~-]) the app generated when it started linking. Redirects to the allow-listed `redirect_uri` with `#wallet=<0x address>&state=<state>` or `#error=<code>&state=<state>` (`invalid_address`, or the wallet's error); the app must compare `state` with the one it created and drop any redirect that does not match (a link planted by someone else). Stores nothing: the app links the address through an authenticated call. A `redirect_uri` outside the allow-list, or a missing or malformed `state`, is a 400 JSON error, never a redirect.",
      tags: ["Auth"],
      auth: "public",
      query: walletCallbackQuery,
      redirect: "To the app: `#wallet=…&state=…` or `#error=…&state=…`.",
    },
    async ({ query }) => redirect(walletCallbackTarget(query.redirect_uri, query.state, query.address, query.error)),
  ),
});
