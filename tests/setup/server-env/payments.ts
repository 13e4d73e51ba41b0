import { startStripeStandIn } from "../../../dev/standins/stripe";
import type { Fixture } from "../test-server";

// Stripe for the server under test: the stand-in of dev/standins/stripe.ts (the official client pointed at it with
// STRIPE_API_URL). Tests register the server's webhook endpoint with it (POST /__control/endpoint), complete
// checkouts, refund and dispute through it, and sign their own events with the webhook secret handed to them.
export default async function paymentsStandIn(): Promise<Fixture> {
  const standIn = await startStripeStandIn();
  return {
    env: {
      STRIPE_SECRET_KEY: standIn.secretKey,
      STRIPE_WEBHOOK_SECRET: standIn.webhookSecret,
      STRIPE_API_URL: standIn.url,
      STRIPE_RETURN_URL: "https://app.example.com/wallet",
      // The reconciliation reports differences at once (tests/api/payments-reconciliation.test.ts).
      PAYMENTS_RECONCILE_SETTLE_MINUTES: "0",
    },
    provided: { url: standIn.url, webhookSecret: standIn.webhookSecret },
    teardown: () => standIn.close(),
  };
}
