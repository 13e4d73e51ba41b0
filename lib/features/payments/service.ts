import type { DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { notFound } from "../../kernel/errors";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { toTopup } from "./credit-and-clawback";
import { errors as paymentsErrors } from "./errors";
import { anyPaymentProvider } from "./modes";
import { activeProducts, purchaseOf, purchasesOf, type ProductRow } from "./queries";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { purchaseMismatches } from "./queries";
export { appStoreMode, googlePlayMode } from "./modes";

// Money in: the reads every provider shares (the bundles, the caller's top-ups) and the public face of the rest. What
// happens when money lands or is taken back is credit-and-clawback.ts; each provider's own handler is its file
// (stripe.ts: card checkouts and the webhook; app-store.ts; google-play.ts), built on it.

export { clawBack, creditPurchase, restoreDispute, toTopup } from "./credit-and-clawback";
export { createTopup, handleStripeEvent, stripeMode, stripeSignature } from "./stripe";

export const toProduct = (p: ProductRow) => ({
  id: p.id,
  name: p.name,
  coins: p.coins,
  prices: Object.entries(p.prices)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]) => ({ currency, amount })),
  appStoreProductId: p.appStoreProductId,
  googlePlayProductId: p.googlePlayProductId,
});

export async function listProducts(db: RawDb | DbTx) {
  return { products: (await activeProducts(db)).map(toProduct) };
}

export async function getTopup(db: RawDb | DbTx, userId: string, id: string) {
  const row = await purchaseOf(db, userId, id);
  if (!row) throw notFound("Top-up");
  return { topup: toTopup(row) };
}

export async function listTopups(db: RawDb | DbTx, userId: string, q: { cursor?: string; limit: number }) {
  const rows = await purchasesOf(db, userId, q.cursor ? decodeIdCursor(q.cursor) : undefined, q.limit + 1);
  return keysetPage("topups", rows, q.limit, (r) => encodeIdCursor(r.id), toTopup);
}

/**
 * Why no coins can be bought on this deployment at all (no provider is configured), as GET /api/v1/me/eligibility
 * gives it (lib/features/spending eligibilityOf, which is handed it: spending sits below payments), or null.
 */
export const noPaymentProviderReason = () =>
  anyPaymentProvider() ? null : { code: paymentsErrors.PAYMENTS_UNAVAILABLE.code, message: "No payment provider is configured on this deployment." };
