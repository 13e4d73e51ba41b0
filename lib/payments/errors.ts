import { defineErrors } from "../http/errors";

// Error codes of payments (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/http/errors.ts).
export const errors = defineErrors({
  PAYMENTS_UNAVAILABLE: {
    status: 503,
    description: "This payment provider is not configured on this deployment (Stripe: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET); nothing was charged.",
  },
  PAYMENTS_PROVIDER_ERROR: {
    status: 502,
    description: "The payment provider refused or did not answer the request to start a checkout; nothing was charged. Retry with the same Idempotency-Key.",
  },
  CURRENCY_NOT_OFFERED: { status: 422, description: "The bundle has no price in the requested currency (see GET /api/v1/wallet/products)." },
  INVALID_SIGNATURE: {
    status: 400,
    description:
      "The Stripe-Signature header is missing or malformed, does not match the raw body (a tampered event), or its timestamp is more than 300 s old (a replay); nothing was processed.",
  },
});
