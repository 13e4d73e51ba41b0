import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { fulfilmentErrors } from "@/lib/features/rewards/errors";
import { voucherCodesBody, voucherCodesParams, voucherCodesResult } from "@/lib/features/rewards/schemas";
import { addVoucherCodes } from "@/lib/features/rewards/fulfilment";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Add voucher codes to a reward's pool (staff)",
      description:
        "Adds codes to a voucher reward's pool; codes already in it (or repeated in the request) are skipped. Each code is given to exactly one redemption. Audited. " +
        "Unknown reward: 404; a reward whose fulfilment is not voucher: 409 FULFILMENT_TRANSITION_INVALID.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "economy",
      params: voucherCodesParams,
      body: voucherCodesBody,
      bodyLimit: 256 * 1024,
      rateLimit: "write",
      response: voucherCodesResult,
      errors: [sharedErrors.NOT_FOUND, fulfilmentErrors.FULFILMENT_TRANSITION_INVALID],
    },
    ({ params, body, user, requestId }) => addVoucherCodes(db, params.rewardId, body.codes, apiActor(user, requestId)),
  ),
});
