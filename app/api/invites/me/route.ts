import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { myInvite, myInviteOrNull } from "@/lib/features/invites/schemas";
import { getMyInvite } from "@/lib/features/invites/queries";
import { ensureMyInvite } from "@/lib/features/invites/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My invite code",
      description:
        "The caller's invite code with its redemption count, or `data: null` when the caller has none yet. Never creates one: call POST to create it.",
      tags: ["Invites"],
      auth: "bearer",
      response: myInviteOrNull,
    },
    ({ user }) => getMyInvite(db, user.id),
  ),
  POST: route(
    {
      summary: "Create my invite code",
      description:
        "Creates the caller's invite code when missing and returns it. Idempotent: every call answers 200 with the same code, and concurrent calls create exactly one. Codes are 8 characters from A-Z (without I and O) and 2-9, drawn from a cryptographic RNG. No request body.",
      tags: ["Invites"],
      auth: "bearer",
      rateLimit: "write",
      response: myInvite,
    },
    ({ user }) => ensureMyInvite(db, user.id),
  ),
});
