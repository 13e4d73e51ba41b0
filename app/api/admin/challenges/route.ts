import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { challengeCreateBody, challengeResponse } from "@/lib/features/challenges/schemas";
import { createChallenge } from "@/lib/features/challenges/service";
import { errors as challengesErrors } from "@/lib/features/challenges/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Create a collection challenge (staff)",
      description:
        "A challenge: `title`, optional `description`, `startsAt`, `endsAt` (after the start, in the future, at most a year ahead), the `cards` to collect (each with a `count`, default 1) and the `reward`: a card with a `supply` of copies and/or `rep` per completing collector. " +
        "The reward copies' serials are taken from the card's edition at once (409 REWARD_CARD_SHORT when fewer are left) and a secret seed is drawn whose SHA-256 the challenge shows from the start: it orders the serials (docs/domains/challenges.md). Unknown cards: 400 naming them.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "economy",
      body: challengeCreateBody,
      rateLimit: "write",
      status: 201,
      response: challengeResponse,
      errors: [challengesErrors.REWARD_CARD_SHORT],
    },
    ({ user, body, requestId }) => createChallenge(db, body, apiActor(user, requestId)),
  ),
});
