import { z } from "zod";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { handleAppleNotification } from "@/lib/features/payments/app-store";
import { errors as paymentsErrors } from "@/lib/features/payments/errors";
import { webhookAnswer } from "@/lib/features/payments/schemas";

const body = z
  .looseObject({ signedPayload: z.string().min(1).max(200_000).meta({ description: "The notification, signed by the App Store (a JWS)." }) })
  .meta({ id: "AppStoreNotification" });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "App Store Server Notifications (iOS purchases)",
      description: [
        "The App Store's notifications (version 2) for the iOS app's coin bundles.",
        "",
        "**Signature.** The body's `signedPayload` is a JWS whose certificate chain must lead to Apple's root certificates (APPLE_IAP_ROOT_CERTIFICATES), checked with Apple's `@apple/app-store-server-library` for this app and environment, as its transaction is; anything else is 422 RECEIPT_INVALID (or RECEIPT_OTHER_APP, RECEIPT_OTHER_ENVIRONMENT) and nothing is processed. There is no header: the signature is in the body. App Store not configured: 503 PAYMENTS_UNAVAILABLE.",
        "",
        "**Notifications.** `ONE_TIME_CHARGE` credits the transaction's bundle to the fan its account token names, once per transaction id (as POST /api/v1/wallet/iap/apple does); `REFUND` and `REVOKE` claw the coins back (the balance first, the rest as the wallet's debt, which freezes its trading), held until the credit when it has not landed yet. Each notificationUUID is processed once (`duplicate: true` after); other types are acknowledged and ignored.",
      ].join("\n"),
      tags: ["Webhooks"],
      auth: "public",
      // A machine's endpoint like the other webhooks: in the internal document, not the public contract.
      internal: true,
      body,
      bodyLimit: 256 * 1024,
      // Not limited: the App Store's retries must not be refused; the signature is the gate.
      rateLimit: false,
      response: webhookAnswer,
      errors: [paymentsErrors.RECEIPT_INVALID, paymentsErrors.RECEIPT_OTHER_APP, paymentsErrors.RECEIPT_OTHER_ENVIRONMENT, paymentsErrors.PAYMENTS_UNAVAILABLE],
    },
    ({ body }) => handleAppleNotification(db, body.signedPayload),
  ),
});
