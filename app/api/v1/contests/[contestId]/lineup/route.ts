import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { contestParams, lineupBody, lineupDeleted, lineupResponse } from "@/lib/features/contests/schemas";
import { deleteLineup, getLineup, putLineup } from "@/lib/features/contests/service";
import { errors as contestsErrors } from "@/lib/features/contests/errors";
import { errors as challengesErrors } from "@/lib/features/challenges/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My lineup in a contest",
      description: "The caller's lineup with the contest. No lineup, or an unknown contest: 404.",
      tags: ["Contests"],
      auth: "bearer",
      params: contestParams,
      response: lineupResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getLineup(db, params.contestId, user.id),
  ),
  PUT: route(
    {
      summary: "Enter a contest (or change my lineup)",
      description:
        "Sets the caller's lineup to `cards`: each a collectible of the caller's in a `slot` of the contest, exactly one `captain` (none or two: 400 VALIDATION_ERROR naming the card; a card or slot twice: 400). Only until the lock (409 CONTEST_LOCKED): the earlier of the contest's set lock and its covered games' kick-offs, or as soon as a covered game is no longer scheduled. " +
        "In one transaction under the contest's row (shared), the lineup's row, then the cards' rows (id order, the marketplace's lock order), every rule is checked: each card the caller's (404 naming it); exactly the contest's lineupSize cards, slots in range (422 LINEUP_SIZE); each a player card whose player's team plays in a covered game (422 LINEUP_PLAYER_NOT_COVERED); each player's position accepted by its slot (422 LINEUP_POSITION); no more cards of a rarity than its cap (422 LINEUP_RARITY_CAP); not listed (409 ENTRY_ITEM_LISTED), not minted (409 ENTRY_ITEM_MINTED), not in another unsettled lineup or a running challenge's entry (409 ITEM_LOCKED naming it). " +
        "The cards are then locked until the contest settles: they cannot be listed, offered-and-accepted, traded, bought in a checkout, minted or refunded away (409 ITEM_LOCKED naming the contest; trades TRADE_ITEM_LOCKED). Cards left out of a new PUT are unlocked. Each PUT sets the lineup's submission time (the third tie-break). Answers the contest and the lineup.",
      tags: ["Contests"],
      auth: "bearer",
      params: contestParams,
      body: lineupBody,
      rateLimit: "write",
      response: lineupResponse,
      errors: [
        sharedErrors.NOT_FOUND,
        contestsErrors.CONTEST_LOCKED,
        contestsErrors.LINEUP_SIZE,
        contestsErrors.LINEUP_POSITION,
        contestsErrors.LINEUP_RARITY_CAP,
        contestsErrors.LINEUP_PLAYER_NOT_COVERED,
        challengesErrors.ENTRY_ITEM_LISTED,
        challengesErrors.ENTRY_ITEM_MINTED,
        challengesErrors.ITEM_LOCKED,
      ],
    },
    ({ user, params, body }) => putLineup(db, user.id, params.contestId, body),
  ),
  DELETE: route(
    {
      summary: "Withdraw my lineup",
      description:
        "Withdraws the caller's lineup before the lock: it is deleted and its cards unlocked at once. After the lock: 409 CONTEST_LOCKED (the cards unlock when the contest settles). No lineup or unknown contest: 404. Answers the contest and `lineup: null`.",
      tags: ["Contests"],
      auth: "bearer",
      params: contestParams,
      rateLimit: "write",
      response: lineupDeleted,
      errors: [sharedErrors.NOT_FOUND, contestsErrors.CONTEST_LOCKED],
    },
    ({ user, params }) => deleteLineup(db, user.id, params.contestId),
  ),
});
