import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { errors as paymentsErrors } from "@/lib/features/payments/errors";
import { errors as spendingErrors } from "@/lib/features/spending/errors";
import { createdTopup, createTopupBody, topupPage, topupsQuery } from "@/lib/features/payments/schemas";
import { createTopup, listTopups } from "@/lib/features/payments/service";
import { coinGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My top-ups",
      description:
        "The caller's coin purchases, newest first, with their state: pending (checkout started), credited, refunded or disputed (coins clawed back), failed (the checkout expired or the payment failed). Keyset: `limit` 1..100 (default 20), `nextCursor` back as `cursor`.",
      tags: ["Wallet"],
      auth: "bearer",
      query: topupsQuery,
      response: topupPage,
    },
    ({ user, query }) => listTopups(db, user.id, query),
  ),
  POST: route(
    {
      summary: "Start a card top-up",
      description:
        "Starts buying a coin bundle by card: creates a Stripe Checkout Session for `productId` in `currency` (default usd) and answers the pending top-up and `checkoutUrl`, where the buyer pays. The coins are credited when Stripe tells this service the payment succeeded (POST /api/webhooks/stripe), never on the browser's return; poll GET /api/v1/wallet/topups/{topupId}. " +
        "`Idempotency-Key` is required: a retry with the same key answers the same top-up and checkout (with `Idempotent-Replayed: true`); the same key with another body is 409 IDEMPOTENCY_KEY_REUSED. A frozen wallet may top up (that settles its debt). " +
        "A fan who may not buy coins (GET /api/v1/me/eligibility's `coins`) is refused with the same code: 403 TRADING_RESTRICTED (restricted from trading or suspended, the end in details), 409 ACCOUNT_DELETION_PENDING (coins are forfeited at erasure: cancel the deletion first). " +
        "Unknown or withdrawn bundle: 404. No price in that currency: 422 CURRENCY_NOT_OFFERED. The bundle's coins would pass the caller's daily or monthly limit on coins bought (checked under the wallet's lock, counting started and paid top-ups): 409 SPENDING_LIMIT_REACHED (GET /api/v1/me/spending-limits). Stripe not configured here: 503 PAYMENTS_UNAVAILABLE; Stripe failing: 502 PAYMENTS_PROVIDER_ERROR (nothing stored, retry with the same key).",
      tags: ["Wallet"],
      auth: "bearer",
      feature: "topups",
      body: createTopupBody,
      idempotency: "required",
      rateLimit: "money",
      status: 201,
      response: createdTopup,
      errors: [
        sharedErrors.NOT_FOUND,
        sharedErrors.IDEMPOTENCY_KEY_REUSED,
        paymentsErrors.CURRENCY_NOT_OFFERED,
        spendingErrors.SPENDING_LIMIT_REACHED,
        ...coinGateErrors,
        paymentsErrors.PAYMENTS_UNAVAILABLE,
        paymentsErrors.PAYMENTS_PROVIDER_ERROR,
      ],
    },
    ({ user, body, idempotency }) => createTopup(db, user.id, body, idempotency),
  ),
});
