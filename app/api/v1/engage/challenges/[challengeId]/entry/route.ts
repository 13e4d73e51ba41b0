import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { challengeParams, entryBody, entryResponse } from "@/lib/features/challenges/schemas";
import { putEntry, withdrawEntry } from "@/lib/features/challenges/service";
import { errors as challengesErrors } from "@/lib/features/challenges/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Enter a collection challenge (or change my entry)",
      description:
        "Sets the caller's entry to `collectibleIds`: their own copies of the required cards, at most the count asked of each (an unknown or someone else's collectible: 404 naming it; a card not asked for or too many copies: 400 naming it). Only while the challenge is open (409 CHALLENGE_NOT_STARTED, CHALLENGE_ENDED). " +
        "In one transaction under the entry's row lock, then the items' (in id order, the marketplace's lock order), each item added is checked: not listed or in an auction (409 ENTRY_ITEM_LISTED), not minted or being minted (409 ENTRY_ITEM_MINTED), not in an entry of another challenge that has not ended (409 ITEM_LOCKED naming it): an item counts toward one entry at a time. " +
        "Items in an entry are locked until the challenge ends or the entry is withdrawn: they cannot be listed, offered-and-accepted, traded, bought in a checkout, minted or refunded away (409 ITEM_LOCKED, trades TRADE_ITEM_LOCKED). Items left out of a new PUT are unlocked. " +
        "When the items complete the set, the entry is completed and the reward granted in the same transaction, once per collector: the next rank, a copy of the reward card with the serial the committed shuffle gives that rank (while copies remain), and the Rep. A completed entry cannot change: the same items again answer it (200), others 409 ENTRY_COMPLETED. " +
        "Answers the challenge and the caller's progress. An optional `Idempotency-Key` replays the first answer.",
      tags: ["Challenges"],
      auth: "bearer",
      params: challengeParams,
      idempotency: "optional",
      body: entryBody,
      rateLimit: "write",
      response: entryResponse,
      errors: [
        sharedErrors.NOT_FOUND,
        challengesErrors.CHALLENGE_NOT_STARTED,
        challengesErrors.CHALLENGE_ENDED,
        challengesErrors.ENTRY_COMPLETED,
        challengesErrors.ENTRY_ITEM_LISTED,
        challengesErrors.ENTRY_ITEM_MINTED,
        challengesErrors.ITEM_LOCKED,
        sharedErrors.IDEMPOTENCY_KEY_REUSED,
      ],
    },
    ({ user, params, body, idempotency }) => putEntry(db, user.id, params.challengeId, body, idempotency),
  ),
  DELETE: route(
    {
      summary: "Withdraw my entry",
      description:
        "Withdraws the caller's incomplete entry: it is deleted and its items unlocked at once. A completed entry cannot be withdrawn (409 ENTRY_COMPLETED): its items unlock when the challenge ends. After the end: 409 CHALLENGE_ENDED (every entry's items are unlocked then). No entry or unknown challenge: 404. Answers the challenge and the caller's progress.",
      tags: ["Challenges"],
      auth: "bearer",
      params: challengeParams,
      rateLimit: "write",
      response: entryResponse,
      errors: [sharedErrors.NOT_FOUND, challengesErrors.ENTRY_COMPLETED, challengesErrors.CHALLENGE_ENDED],
    },
    ({ user, params }) => withdrawEntry(db, user.id, params.challengeId),
  ),
});
