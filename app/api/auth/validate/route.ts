import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { validateResult } from "@/lib/features/mobile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Is this request signed in?",
      description:
        "Optional auth: no token → `{ authenticated: false }`; a valid token → `{ authenticated: true, userId, expiresAt }`; an invalid or expired token → 401 (refresh the session).",
      tags: ["Auth"],
      auth: "optional",
      response: validateResult,
    },
    async ({ user }) => (user ? { authenticated: true, userId: user.id, expiresAt: user.expiresAt.toISOString() } : { authenticated: false }),
  ),
});
