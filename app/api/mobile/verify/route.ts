import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sessionInfo } from "@/lib/features/mobile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Check the app's session token",
      description: "The native app calls this after activating its session. 401 when the token is missing or invalid.",
      tags: ["Auth"],
      auth: "bearer",
      response: sessionInfo,
    },
    async ({ user }) => ({
      valid: true as const,
      userId: user.id,
      externalId: user.externalId,
      sessionId: user.sessionId,
      role: user.isAdmin ? ("admin" as const) : ("fan" as const),
      expiresAt: user.expiresAt.toISOString(),
    }),
  ),
});
