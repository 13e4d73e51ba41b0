import * as adjustments from "@/app/api/admin/wallets/adjustments/route";
import * as invariant from "@/app/api/admin/wallets/invariant/route";
import * as transactions from "@/app/api/v1/wallet/transactions/route";
import * as wallet from "@/app/api/v1/wallet/route";

// Wallets: the caller's balances and ledger; staff adjustments and the ledger invariant.
export const routes = {
  "/api/v1/wallet": wallet,
  "/api/v1/wallet/transactions": transactions,
};

export const internalRoutes = {
  "/api/admin/wallets/adjustments": adjustments,
  "/api/admin/wallets/invariant": invariant,
};
