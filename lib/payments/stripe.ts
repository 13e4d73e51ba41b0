import Stripe from "stripe";
import { env } from "../env";
import { DomainError } from "../http/errors";
import type { WebhookVerifier } from "../http/route";
import { errors as paymentsErrors } from "./errors";
import { stripeMode } from "./modes";

// Stripe through its official library. Configured by STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (both, or its
// routes answer 503 PAYMENTS_UNAVAILABLE); STRIPE_API_URL points the client at another address (the local stand-in,
// lib/payments/standin.ts, under `npm run dev` and in tests). Webhook signatures are checked by the library.

/** Accepted age of a Stripe-Signature timestamp, in seconds (Stripe's own default). */
export const STRIPE_TOLERANCE_S = 300;

export { stripeMode, type StripeMode } from "./modes";

export const paymentsUnavailable = () =>
  new DomainError(paymentsErrors.PAYMENTS_UNAVAILABLE, "Card top-ups are not available on this deployment (Stripe is not configured).");

let client: Stripe | undefined;

/** The Stripe client (one per process), or 503 PAYMENTS_UNAVAILABLE when Stripe is not configured. */
export function stripe(): Stripe {
  if (stripeMode() === "unconfigured") throw paymentsUnavailable();
  return (client ??= createClient());
}

function createClient(): Stripe {
  const e = env();
  const config: NonNullable<ConstructorParameters<typeof Stripe>[1]> = { maxNetworkRetries: 1, timeout: 5_000, telemetry: false };
  if (e.STRIPE_API_URL) {
    const api = new URL(e.STRIPE_API_URL);
    config.protocol = api.protocol === "https:" ? "https" : "http";
    config.host = api.hostname;
    config.port = api.port || (config.protocol === "https" ? 443 : 80);
  }
  return new Stripe(e.STRIPE_SECRET_KEY!, config);
}

const invalid = (why: string) => new DomainError(paymentsErrors.INVALID_SIGNATURE, why);

/**
 * The Stripe webhook's auth (route option `webhook.verifier`): `Stripe-Signature` checked by stripe.webhooks
 * .constructEvent over the raw body, with STRIPE_WEBHOOK_SECRET and a 300 s tolerance. Answers the event id.
 */
export const stripeSignature: WebhookVerifier = {
  scheme: {
    name: "stripeSignature",
    header: "Stripe-Signature",
    description: `Stripe's webhook signature (\`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\`) keyed with the endpoint's signing secret STRIPE_WEBHOOK_SECRET, checked by the stripe library; \`t\` at most ${STRIPE_TOLERANCE_S} s old.`,
  },
  errors: [paymentsErrors.INVALID_SIGNATURE, paymentsErrors.PAYMENTS_UNAVAILABLE],
  verify(headers, rawBody) {
    if (stripeMode() === "unconfigured") throw paymentsUnavailable();
    const header = headers.get("stripe-signature");
    if (!header) throw invalid("Missing Stripe-Signature header.");
    try {
      const event = Stripe.webhooks.constructEvent(rawBody, header, env().STRIPE_WEBHOOK_SECRET!, STRIPE_TOLERANCE_S);
      return event.id;
    } catch (error) {
      throw invalid(`Invalid Stripe-Signature: ${(error as Error).message.split("\n")[0]!.slice(0, 200)}`);
    }
  },
};
