import type { Db } from "../../db/client";
import type { CreditedPurchase } from "./queries";

// What each payment provider's module (stripe.ts, app-store-api.ts, google-play-orders.ts) gives the daily
// reconciliation (reconciliation.ts), which imports them: declared here so that no provider imports the
// reconciliation back.

/** One transaction as the provider settled it. */
export interface Settled {
  txnId: string;
  /** What was paid, minor units of the currency, when the provider says. */
  amount: number | null;
  /** Refunded so far: minor units (Stripe), or whether it was refunded or revoked (the stores refund whole purchases). */
  refunded: number | boolean;
  disputed: boolean;
  /** When it was paid (ms). */
  created: number;
}

/**
 * A provider's side of one run: its settled transactions and ours, gathered so that every one of ours the provider
 * knows is among `theirs` (a credit of ours it does not know is `not_paid`).
 */
export interface ProviderReconciliation {
  provider: string;
  configured(): boolean;
  gather(db: Db, since: Date, now: Date): Promise<{ theirs: Settled[]; ours: CreditedPurchase[] }>;
}
