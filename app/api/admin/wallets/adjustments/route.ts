import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { adjustmentBody, adjustmentResult } from "@/lib/core/wallets/schemas";
import { adjust } from "@/lib/core/wallets/service";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Adjust a wallet (staff)",
      description:
        "Credits (amount > 0) or debits (< 0) a user's wallet by integer minor units with a `note`, as one ledger row (reason `adjustment`, referenceType `staff`, the staff member's identity-provider id as referenceId) and an audit entry (`wallet.adjust`, with the role and request id) in the same transaction. A debit larger than the balance is 409 INSUFFICIENT_FUNDS, a credit that would take the balance past the wallet ceiling (10^15 minor units) 409 BALANCE_LIMIT; either changes nothing. Staff other than admins may move at most 5,000 minor units per adjustment (403 ADJUSTMENT_OVER_LIMIT). Unknown user: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "wallets",
      body: adjustmentBody,
      rateLimit: "money",
      status: 201,
      response: adjustmentResult,
      errors: [sharedErrors.NOT_FOUND, walletsErrors.INSUFFICIENT_FUNDS, walletsErrors.BALANCE_LIMIT, walletsErrors.ADJUSTMENT_OVER_LIMIT],
    },
    ({ user, body, requestId }) => adjust(db, body, apiActor(user, requestId)),
  ),
});
