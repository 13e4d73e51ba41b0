import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { blockUser, listBlocks } from "@/lib/core/users/service";
import { blockBody, blockListQuery, blockPage, blockResult } from "@/lib/core/users/schemas";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as usersErrors } from "@/lib/core/users/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Users I blocked",
      description:
        "The caller's blocks, most recent first (blockedAt desc, then user id desc), keyset-paginated: `limit` 1..100 (default 20); `nextCursor` is present only when more remain.",
      tags: ["Users"],
      auth: "bearer",
      query: blockListQuery,
      response: blockPage,
    },
    ({ user, query }) => listBlocks(db, user.id, query),
  ),
  POST: route(
    {
      summary: "Block a user",
      description:
        "Body `{ blockedUserId?, handle? }`: at least one; empty strings are rejected (400 naming the field); when both are sent they must name the same user (else 400). " +
        "Idempotent: blocking an already blocked user answers the same 200 with the original blockedAt, and only one block row ever exists (also under concurrent requests). " +
        "Unknown user: 404 NOT_FOUND. Blocking yourself: 400 CANNOT_BLOCK_SELF. " +
        "The block ends the follows between the two users both ways, and their pending follow requests both ways, in the same transaction; unblocking restores none of them.",
      tags: ["Users"],
      auth: "bearer",
      body: blockBody,
      rateLimit: "write",
      response: blockResult,
      errors: [sharedErrors.NOT_FOUND, usersErrors.CANNOT_BLOCK_SELF],
    },
    ({ user, body }) => blockUser(db, user.id, body),
  ),
});
