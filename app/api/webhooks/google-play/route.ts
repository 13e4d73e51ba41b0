import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { handleGooglePlayPush, pubSubOidc } from "@/lib/features/payments/google-play";
import { webhookAnswer } from "@/lib/features/payments/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Google Play Real-time Developer Notifications (Android purchases)",
      description: [
        "Google Play's Real-time Developer Notifications for the Android app's coin bundles, pushed by a Pub/Sub push subscription.",
        "",
        "**Authentication.** The push's `Authorization: Bearer <OIDC token>` is verified with google-auth-library (`OAuth2Client.verifyIdToken`) against Google's certificates for the audience GOOGLE_PLAY_PUSH_AUDIENCE, and its verified email must be the subscription's service account GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT; anything else is 401 UNAUTHORIZED and nothing is processed. Google Play or the push settings not configured: 503 PAYMENTS_UNAVAILABLE.",
        "",
        "**Notifications.** `message.data` is the base64 JSON DeveloperNotification, for this app's package name only. `oneTimeProductNotification` ONE_TIME_PRODUCT_PURCHASED (1) reads the purchase from the Play Developer API and credits its bundle to the fan its obfuscated account id names, once per order id (as POST /api/v1/wallet/iap/google does), then acknowledges and consumes it; `voidedPurchaseNotification` for a one-time product (a refund or chargeback) claws the coins back (the balance first, the rest as the wallet's debt, which freezes its trading), held until the credit when it has not landed yet. Other notifications, unknown products and fans, and tokens Play does not know are acknowledged and ignored.",
        "",
        "**Re-deliveries.** Each Pub/Sub message id is processed once: a re-delivery answers 200 with `duplicate: true` and changes nothing. A failure answers 5xx, storing nothing, so Pub/Sub retries it.",
      ].join("\n"),
      tags: ["Webhooks"],
      auth: "webhook",
      webhook: { verifier: pubSubOidc },
      bodyLimit: 64 * 1024,
      // Not limited: Pub/Sub's retries must not be refused; the OIDC token is the gate.
      rateLimit: false,
      response: webhookAnswer,
      openapi: {
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                description: "A Pub/Sub push: `message.data` (base64 JSON DeveloperNotification), `message.messageId`, `subscription`.",
                required: ["message"],
              },
            },
          },
        },
      },
    },
    async ({ delivery }) => handleGooglePlayPush(db, delivery.id, delivery.rawBody),
  ),
});
