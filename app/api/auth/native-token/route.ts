import { identityProvider } from "@/lib/identity/provider";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { SIGN_IN_TICKET_TTL_SECONDS } from "@/lib/mobile/config";
import { signInTicket } from "@/lib/mobile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Mint a sign-in ticket for the signed-in user (legacy)",
      description:
        "Older path: a client holding a session (e.g. a web view) gets a sign-in ticket so the native app can open its own session. Prefer the mobile flow (`/api/mobile/start` → `/api/mobile/exchange`).",
      tags: ["Auth"],
      auth: "bearer",
      rateLimit: "write",
      deprecated: true,
      response: signInTicket,
    },
    async ({ user }) => {
      const { ticket, expiresAt } = await identityProvider().createSignInTicket(user.externalId, SIGN_IN_TICKET_TTL_SECONDS);
      return { ticket, expiresAt: expiresAt.toISOString() };
    },
  ),
});
