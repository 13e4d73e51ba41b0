import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { reply } from "@/lib/http/reply";
import { route } from "@/lib/http/route";
import { errors as mutesErrors } from "@/lib/core/mutes/errors";
import { muteBody, muteListQuery, mutePage, muteResult, MUTES_MAX } from "@/lib/core/mutes/schemas";
import { listMutes, muteUser } from "@/lib/core/mutes/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Accounts I mute",
      description:
        "The caller's mutes in force, most recent first (mutedAt desc, then user id desc), keyset-paginated: `limit` 1..100 (default 20); `nextCursor` is present only when more remain. A timed mute is gone from the list from its expiresAt on.",
      tags: ["Users"],
      auth: "bearer",
      query: muteListQuery,
      response: mutePage,
    },
    ({ user, query }) => listMutes(db, user.id, query),
  ),
  POST: route(
    {
      summary: "Mute an account",
      description:
        "Body `{ userId, expiresAt?, notifications? }`. The account's posts leave the caller's locker-room feed, its comments and replies the caller's comment lists, its reactions the caller's reaction lists; with `notifications` (default true) its comments, replies, reactions and team posts notify the caller of nothing. " +
        "One-way and invisible to the muted account: nothing it reads or does changes. A timed mute ends exactly at `expiresAt` (in the future), with no job. " +
        `201 when the account was not muted; 200 when it was (the expiry and flag are replaced, mutedAt kept). At most ${MUTES_MAX} mutes per account (409 MUTE_LIMIT). Yourself: 400 CANNOT_MUTE_SELF; an unknown user: 404.`,
      tags: ["Users"],
      auth: "bearer",
      body: muteBody,
      rateLimit: "write",
      status: 201,
      response: muteResult,
      responses: { 200: { description: "The account was muted already: the mute, updated", schema: muteResult } },
      errors: [sharedErrors.NOT_FOUND, mutesErrors.CANNOT_MUTE_SELF, mutesErrors.MUTE_LIMIT],
    },
    async ({ user, body }) => {
      const { created, mute } = await muteUser(db, user.id, body);
      return reply({ mute }, { status: created ? 201 : 200 });
    },
  ),
});
