import { errors as accountsErrors } from "@/lib/core/accounts/errors";
import { deletionBody, deletionCancelled, deletionResult } from "@/lib/core/accounts/schemas";
import { cancelDeletion, getDeletion, scheduleDeletion } from "@/lib/core/accounts/service";
import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

const FORFEIT =
  "`coins` says what the erasure forfeits: the COIN balance plus what the caller's open offers and leading bids hold (released at the erasure, then forfeited); no refund, no transfer.";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My scheduled account deletion",
      description: `The caller's scheduled deletion, or \`deletion: null\` when none is scheduled (200 either way). ${FORFEIT}`,
      tags: ["Account"],
      auth: "bearer",
      response: deletionResult,
      errors: [accountsErrors.DELETION_IN_PROGRESS],
    },
    ({ user }) => getDeletion(db, user.id),
  ),
  POST: route(
    {
      summary: "Schedule my account's deletion",
      description:
        `Schedules the erasure of the caller's account after a grace period (ACCOUNT_DELETION_GRACE_DAYS, default 7 days): 202 with the date. The body must be \`{"confirm": true}\`, acknowledging that the account's content goes and its coins are forfeited. ${FORFEIT} ` +
        "Asking again answers the same schedule (the date does not move). Until the date the account works but cannot trade (409 ACCOUNT_DELETION_PENDING on listing, bidding, offering, buying, trading, topping up); DELETE cancels. " +
        "The erasure removes posts, comments, reactions, poll votes, uploads, follows, memberships, blocks, mutes, devices, signals and the profile, keeps every ledger row, sale and transfer on an anonymous tombstone, deletes the identity-provider user and keeps the handle reserved forever. An auction of the caller's with bids makes it wait until the auction settles.",
      tags: ["Account"],
      auth: "bearer",
      body: deletionBody,
      rateLimit: "write",
      status: 202,
      response: deletionResult,
      errors: [accountsErrors.DELETION_IN_PROGRESS],
    },
    ({ user }) => scheduleDeletion(db, user.id),
  ),
  DELETE: route(
    {
      summary: "Cancel my account's deletion",
      description:
        "Cancels the caller's scheduled deletion (trading works again at once). 404 when none is scheduled; 409 DELETION_IN_PROGRESS once the erasure cron has claimed it.",
      tags: ["Account"],
      auth: "bearer",
      rateLimit: "write",
      response: deletionCancelled,
      errors: [sharedErrors.NOT_FOUND, accountsErrors.DELETION_IN_PROGRESS],
    },
    ({ user }) => cancelDeletion(db, user.id),
  ),
});
