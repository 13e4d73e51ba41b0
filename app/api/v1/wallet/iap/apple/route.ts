import { z } from "zod";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { redeemAppleTransaction } from "@/lib/features/payments/app-store";
import { errors as paymentsErrors } from "@/lib/features/payments/errors";
import { topupResponse } from "@/lib/features/payments/schemas";

const body = z
  .strictObject({
    signedTransaction: z.string().min(1).max(20_000).meta({ description: "StoreKit 2's `Transaction.jwsRepresentation` of the purchase (a JWS)." }),
  })
  .meta({ id: "AppleTransactionRedeem" });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Redeem an App Store purchase",
      description:
        "Credits a coin bundle bought in the iOS app. The app starts the purchase with `appAccountToken` set to the fan's user id (GET /api/user), then sends the transaction's signed JWS here; the server verifies it with Apple's library against Apple's root certificates, for this app (bundle id) and this deployment's environment, and credits the bundle's coins once per transaction id, whichever of this call and the App Store's notification (POST /api/webhooks/app-store) comes first, however often either is retried. " +
        "A purchase the fan completes while they may not buy coins (restricted from trading, or deletion pending: GET /api/v1/me/eligibility, which the app asks before showing the store's sheet) cannot be refused once the store took the money: it is credited and the top-up is flagged (`flag`: the eligibility code) for staff to review. " +
        "Answers the top-up (its state `credited`, or `refunded` once the App Store refunded it) on every call for the transaction. The app finishes the transaction once it has this answer. " +
        "Refusals credit nothing: 422 RECEIPT_INVALID (chain, signature or content), RECEIPT_OTHER_APP, RECEIPT_OTHER_ENVIRONMENT, UNKNOWN_PRODUCT (not a coin bundle here, or not consumable); 403 RECEIPT_OTHER_USER (another fan's account token); 409 RECEIPT_REVOKED; 503 PAYMENTS_UNAVAILABLE when the App Store is not configured.",
      tags: ["Wallet"],
      auth: "bearer",
      body,
      bodyLimit: 32 * 1024,
      rateLimit: "money",
      response: topupResponse,
      errors: [
        paymentsErrors.RECEIPT_INVALID,
        paymentsErrors.RECEIPT_OTHER_APP,
        paymentsErrors.RECEIPT_OTHER_ENVIRONMENT,
        paymentsErrors.RECEIPT_OTHER_USER,
        paymentsErrors.RECEIPT_REVOKED,
        paymentsErrors.UNKNOWN_PRODUCT,
        paymentsErrors.PAYMENTS_UNAVAILABLE,
      ],
    },
    ({ user, body }) => redeemAppleTransaction(db, user.id, body.signedTransaction),
  ),
});
