import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { webhookAnswer } from "@/lib/features/payments/schemas";
import { handleStripeEvent, stripeSignature } from "@/lib/features/payments/service";
import { STRIPE_TOLERANCE_S } from "@/lib/features/payments/stripe";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Stripe events (web top-ups)",
      description: [
        "Stripe's webhook endpoint for card top-ups; the only place a top-up is credited.",
        "",
        `**Signature.** \`Stripe-Signature\` is checked by the stripe library (\`stripe.webhooks.signature.verifyHeader\`) over the raw body with the endpoint's signing secret STRIPE_WEBHOOK_SECRET; a missing, malformed or wrong signature (a tampered body) or a timestamp more than ${STRIPE_TOLERANCE_S} s old (a replay) is 400 INVALID_SIGNATURE and nothing is processed. A correctly signed body that is not an event (not JSON, an array, \`{}\`, no string \`id\` and \`type\`) is 400 INVALID_EVENT, logged, nothing processed (nothing Stripe sends; its retries of it would be refused the same way). Stripe not configured: 503 PAYMENTS_UNAVAILABLE.`,
        "",
        "**Events.** `checkout.session.completed` (paid) and `checkout.session.async_payment_succeeded` credit the top-up's coins, once per PaymentIntent however many deliveries arrive at once; `checkout.session.expired` and `checkout.session.async_payment_failed` mark it failed; `charge.refunded` and `charge.dispute.created` claw the coins back in proportion to the money returned (what the balance holds is taken, the rest becomes the wallet's debt and freezes its trading until later credits settle it). A refund or dispute that arrives before its payment's credit is held and applied when the credit lands. `charge.dispute.closed` with status `won` (or `warning_closed`, an inquiry) returns the coins the dispute took (settling the wallet's debt first), once; a lost dispute changes nothing. Other event types, and an event whose `data.object` is missing or unusable, are acknowledged and ignored (recorded once).",
        "",
        "**Re-deliveries.** Each event id is processed once: a re-delivery answers 200 with `duplicate: true` and changes nothing. A failure answers 5xx, storing nothing, so Stripe retries it.",
      ].join("\n"),
      tags: ["Webhooks"],
      auth: "webhook",
      webhook: { verifier: stripeSignature },
      bodyLimit: 256 * 1024,
      // Not limited: Stripe's retries and bursts must not be refused; the signature check is the gate.
      rateLimit: false,
      response: webhookAnswer,
      // A credit past the wallet ceiling (10^15 minor units) is refused; Stripe retries the event.
      errors: [walletsErrors.BALANCE_LIMIT],
      openapi: {
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: { type: "object", description: "A Stripe Event object (id, type, data.object).", required: ["id", "type", "data"] } },
          },
        },
      },
    },
    async ({ delivery }) => handleStripeEvent(db, delivery.rawBody),
  ),
});
