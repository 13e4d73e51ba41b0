import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { transactionPage, transactionsQuery } from "@/lib/core/wallets/schemas";
import { listTransactions } from "@/lib/core/wallets/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My wallet's transactions",
      description:
        "The append-only ledger of one of the caller's wallets (default COIN), newest first: each credit (amount > 0) and debit (< 0) with its reason (purchase, sale, fee, refund, reward, adjustment, hold, topup: coins bought, clawback: coins taken back for a refunded or disputed top-up or a debt settled), what it was for (`referenceType`, `referenceId`) and the balance after it. Keyset: `limit` 1..100 (default 20), `nextCursor` back as `cursor`.",
      tags: ["Wallet"],
      auth: "bearer",
      query: transactionsQuery,
      response: transactionPage,
    },
    ({ user, query }) => listTransactions(db, user.id, query),
  ),
});
