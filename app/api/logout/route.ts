import { db } from "@/lib/db/client";
import { logoutBody } from "@/lib/core/devices/schemas";
import { forgetDevice } from "@/lib/core/devices/service";
import { identityProvider } from "@/lib/auth/identity-provider";
import { log } from "@/lib/kernel/log";
import { methods } from "@/lib/http/methods";
import { reply } from "@/lib/http/reply";
import { route } from "@/lib/http/route";
import { logoutResult } from "@/lib/features/mobile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Sign out",
      description:
        "Revokes the identity-provider session of the token (its `sid`) and clears the session cookie. Best effort toward the provider: if it cannot be reached the answer is still 200 with `sessionRevoked: false`, and the client should drop its token anyway. " +
        "With `deviceId` (optional body), the caller's push device registration is removed too, so the signed-out device gets no pushes (a device that is not the caller's is left alone).",
      tags: ["Auth"],
      auth: "bearer",
      body: logoutBody,
      bodyRequired: false,
      rateLimit: "write",
      response: logoutResult,
    },
    async ({ user, body, requestId }) => {
      if (body?.deviceId) await forgetDevice(db, user.id, body.deviceId);
      let sessionRevoked = false;
      if (user.sessionId) {
        try {
          await identityProvider().revokeSession(user.sessionId);
          sessionRevoked = true;
        } catch (error) {
          log("warn", { msg: "session revoke failed", requestId, error: String(error) });
        }
      }
      return reply(
        { loggedOut: true as const, sessionRevoked },
        { cookies: [{ name: "__session", value: "", path: "/", maxAge: 0, httpOnly: true, sameSite: "Lax" }] },
      );
    },
  ),
});
