import { z } from "zod";
import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { errors as paymentsErrors } from "@/lib/features/payments/errors";
import { redeemGooglePurchase } from "@/lib/features/payments/google-play";
import { topupResponse } from "@/lib/features/payments/schemas";

const body = z
  .strictObject({
    productId: z
      .string()
      .min(1)
      .max(150)
      .meta({ description: "The Play Billing product id (`ProductDetails.getProductId()`), a bundle's `googlePlayProductId`." }),
    purchaseToken: z.string().min(1).max(4_000).meta({ description: "The purchase's token (`Purchase.getPurchaseToken()`)." }),
  })
  .meta({ id: "GooglePlayPurchaseRedeem" });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Redeem a Google Play purchase",
      description:
        "Credits a coin bundle bought in the Android app. The app starts the purchase with `BillingFlowParams.setObfuscatedAccountId` set to the fan's user id (GET /api/user), then sends the product id and purchase token here; the server reads the purchase from the Google Play Developer API (purchases.products.get, with this deployment's service account through google-auth-library) for this app (package name), credits the bundle's coins once per order id, whichever of this call and the Real-time Developer Notification (POST /api/webhooks/google-play) comes first, however often either is retried, then acknowledges and consumes the purchase (so the bundle can be bought again; the app does not consume it itself). " +
        "A purchase the fan completes while they may not buy coins (restricted from trading, or deletion pending: GET /api/v1/me/eligibility, which the app asks before showing the store's sheet) cannot be refused once the store took the money: it is credited and the top-up is flagged (`flag`: the eligibility code) for staff to review. " +
        "Answers the top-up (its state `credited`, or `refunded` once Play voided it) on every call for the purchase. Play's purchase carries no price: the top-up records the bundle's list price (USD, else its first currency). " +
        "Refusals credit nothing: 422 RECEIPT_INVALID (Play does not know the token for this product and app), UNKNOWN_PRODUCT (not a coin bundle here), RECEIPT_OTHER_ENVIRONMENT (a license tester's test purchase, unless GOOGLE_PLAY_ALLOW_TEST_PURCHASES); 403 RECEIPT_OTHER_USER (another fan's account id, or none); 409 RECEIPT_REVOKED (canceled or refunded), RECEIPT_PENDING (not paid yet); 502 UPSTREAM_ERROR when Play does not answer; 503 PAYMENTS_UNAVAILABLE when Google Play is not configured.",
      tags: ["Wallet"],
      auth: "bearer",
      body,
      bodyLimit: 16 * 1024,
      rateLimit: "money",
      response: topupResponse,
      errors: [
        paymentsErrors.RECEIPT_INVALID,
        paymentsErrors.RECEIPT_OTHER_ENVIRONMENT,
        paymentsErrors.RECEIPT_OTHER_USER,
        paymentsErrors.RECEIPT_REVOKED,
        paymentsErrors.RECEIPT_PENDING,
        paymentsErrors.UNKNOWN_PRODUCT,
        sharedErrors.UPSTREAM_ERROR,
        paymentsErrors.PAYMENTS_UNAVAILABLE,
      ],
    },
    ({ user, body }) => redeemGooglePurchase(db, user.id, body.productId, body.purchaseToken),
  ),
});
