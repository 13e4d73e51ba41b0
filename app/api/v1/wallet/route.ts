import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { walletsResponse } from "@/lib/core/wallets/schemas";
import { getWallets } from "@/lib/core/wallets/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My wallets",
      description:
        "The caller's balance in every currency, in integer minor units (`decimals` digits: COIN has 2, so 1250 is 12.50 coins). A wallet that never moved shows 0. Balances never go negative and always equal the sum of the ledger (GET /api/v1/wallet/transactions). `debt`: coins a refunded or disputed top-up could not take back because they were spent; while it is above 0 the wallet is `frozen` (trading answers 409 WALLET_FROZEN) and later credits settle it first.",
      tags: ["Wallet"],
      auth: "bearer",
      response: walletsResponse,
    },
    ({ user }) => getWallets(db, user.id),
  ),
});
