import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { fulfilmentErrors } from "@/lib/features/rewards/errors";
import { claimParams, staffClaimBody, staffClaimResult } from "@/lib/features/rewards/schemas";
import { setClaimStatus } from "@/lib/features/rewards/fulfilment";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Move a claim's fulfilment (staff)",
      description:
        "Moves a claim's fulfilment: a physical reward `pending` → `shipped` (with an optional `trackingCode`) → `delivered`; `pending` or `shipped` → `failed`; any `fulfilled` claim (voucher, digital) → `failed`. " +
        "`failed` gives back one item of stock (when the reward counts stock) and the Rep the claim spent (a compensating ledger credit, grant key `reward_refund:<claimId>`), once: " +
        "asking for the status the claim already has answers it unchanged (`changed: false`), so retries and concurrent actions refund once. Audited. Other moves: 409 FULFILMENT_TRANSITION_INVALID. Unknown claim: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "economy",
      params: claimParams,
      body: staffClaimBody,
      rateLimit: "write",
      response: staffClaimResult,
      errors: [sharedErrors.NOT_FOUND, fulfilmentErrors.FULFILMENT_TRANSITION_INVALID],
    },
    ({ user, params, body, requestId }) => setClaimStatus(db, params.claimId, body, apiActor(user, requestId)),
  ),
});
