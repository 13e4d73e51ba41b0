import { defineErrors } from "../../kernel/errors";

// Error codes of payments (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  PAYMENTS_UNAVAILABLE: {
    status: 503,
    description: "This payment provider is not configured on this deployment (Stripe: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET); nothing was charged.",
  },
  PAYMENTS_PROVIDER_ERROR: {
    status: 502,
    description: "The payment provider refused or did not answer the request to start a checkout; nothing was charged. Retry with the same Idempotency-Key.",
  },
  RECEIPT_INVALID: {
    status: 422,
    description:
      "The signed transaction or notification does not verify against the store's root certificates (chain, signature or content); nothing was credited.",
  },
  RECEIPT_OTHER_APP: { status: 422, description: "The transaction was made in another app (its bundle id is not this deployment's); nothing was credited." },
  RECEIPT_OTHER_ENVIRONMENT: {
    status: 422,
    description: "The transaction is from another store environment than this deployment's (sandbox against production, or the reverse); nothing was credited.",
  },
  RECEIPT_OTHER_USER: {
    status: 403,
    description: "The transaction was made for another fan: its account token (StoreKit's appAccountToken) is not the caller's user id; nothing was credited.",
  },
  RECEIPT_PENDING: {
    status: 409,
    description: "The Play purchase is pending (a deferred payment, not paid yet); nothing was credited. Send it again once it completes.",
  },
  RECEIPT_REVOKED: { status: 409, description: "The store refunded or revoked the transaction; nothing was credited." },
  UNKNOWN_PRODUCT: {
    status: 422,
    description: "The transaction is for a product that is not a coin bundle on sale here (GET /api/v1/wallet/products); nothing was credited.",
  },
  CURRENCY_NOT_OFFERED: { status: 422, description: "The bundle has no price in the requested currency (see GET /api/v1/wallet/products)." },
  INVALID_EVENT: {
    status: 400,
    description:
      "The body carries a valid Stripe-Signature but is not a Stripe event (a JSON object with a string id and type: not JSON, an array, {}); nothing was processed.",
  },
  INVALID_SIGNATURE: {
    status: 400,
    description:
      "The Stripe-Signature header is missing or malformed, does not match the raw body (a tampered event), or its timestamp is more than 300 s old (a replay); nothing was processed.",
  },
});
