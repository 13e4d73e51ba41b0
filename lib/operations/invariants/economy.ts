import type { DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { dropLedgerMismatches } from "../../features/drops/service";
import { staleListings } from "../../features/marketplace/service";
import { tradeLedgerMismatches } from "../../features/marketplace/service";
import { purchaseMismatches } from "../../features/payments/service";
import { ledgerInvariant } from "../../core/wallets/service";

// An operations module: it looks across the economy's domains (wallets, marketplace, payments, drops), so it sits
// above all of them; lib/core/wallets, which they build on, no longer reads them (docs/decisions/0068).

/**
 * The economy invariant: every wallet's balance is the sum of its ledger, no active listing outlives its seller's
 * ownership of the item (lib/features/marketplace: a change of owner withdraws the item's listings), and the money-in books
 * agree (lib/features/payments: top-up credits = the coins of credited purchases; coins clawed back = taken + debt; no wallet
 * both in debt and holding a balance), and every trade's coins are where its state says (lib/features/marketplace/trades.ts:
 * held while open, back once closed unaccepted, moved less the fees once accepted), and every drop entry's coins likewise
 * (lib/features/drops: held while entered, the packs won paid, the rest back).
 */
export async function checkInvariant(db: RawDb | DbTx) {
  const report = await ledgerInvariant(db);
  const stale = await staleListings(db);
  const payments = await purchaseMismatches(db);
  const trades = await tradeLedgerMismatches(db);
  const drops = await dropLedgerMismatches(db);
  return {
    ok: report.mismatches.length === 0 && stale.length === 0 && payments.length === 0 && trades.length === 0 && drops.length === 0,
    ...report,
    staleListings: stale,
    paymentMismatches: payments,
    tradeMismatches: trades,
    dropMismatches: drops,
    checkedAt: new Date().toISOString(),
  };
}
