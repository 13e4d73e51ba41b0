import { z } from "zod";
import { cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";
import { pageSchema } from "../../kernel/page";

export const CURRENCIES = ["COIN"] as const;
/** Minor units per currency: a COIN balance of 1250 is 12.50 coins. */
export const DECIMALS: Record<(typeof CURRENCIES)[number], number> = { COIN: 2 };
export const ADJUSTMENT_MAX = 100_000_000;
/**
 * The wallet ceiling: a credit that would take a balance past 10^15 minor units (10 trillion coins) is refused with
 * 409 BALANCE_LIMIT (a refund only past 2^53 - 1). Far below 2^53, so every amount stays an exact JSON integer.
 */
export const WALLET_BALANCE_MAX = 1_000_000_000_000_000;

const currency = z.enum(CURRENCIES).meta({ description: "The wallet's currency (COIN: the in-app coin, 2 decimals)." });

export const wallet = z
  .object({
    currency,
    balance: z
      .number()
      .int()
      .meta({ description: `Integer minor units (hundredths of a coin); 0..${WALLET_BALANCE_MAX} (a refund may pass that ceiling), below 2^53.` }),
    debt: z.number().int().meta({
      description:
        "Minor units a claw-back (a refunded or disputed top-up) could not take because the coins were spent; later credits settle it first. 0 for most wallets.",
    }),
    frozen: z.boolean().meta({
      description: "True while `debt` > 0: listing, bidding, offering, buying and accepting offers answer 409 WALLET_FROZEN until it is settled.",
    }),
    decimals: z.number().int().meta({ description: "Minor-unit digits: show balance / 10^decimals." }),
    updatedAt: isoDateTime.nullable().meta({ description: "Last movement; null for a wallet that never moved." }),
  })
  .meta({ id: "Wallet" });

export const walletsResponse = z.object({ wallets: z.array(wallet) }).meta({ id: "Wallets" });

export const REASONS = ["purchase", "sale", "fee", "refund", "reward", "adjustment", "hold", "topup", "clawback", "trade"] as const;

export const walletTransaction = z
  .object({
    id: z.string().meta({ description: "UUIDv7: time-ordered." }),
    currency,
    amount: z.number().int().meta({ description: "Integer minor units: positive credits, negative debits; never 0." }),
    balanceAfter: z.number().int().meta({ description: "The balance right after this transaction." }),
    reason: z.enum(REASONS),
    referenceType: z.string().meta({ description: "What the money moved for: pack_purchase, staff, …" }),
    referenceId: z.string().meta({ description: "The id of that thing (a pack purchase id, …)." }),
    note: z.string().nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: "WalletTransaction" });

export const transactionsQuery = z.strictObject({
  currency: z.enum(CURRENCIES).optional().default("COIN").meta({ description: "Default COIN." }),
  cursor: cursorQuery,
  limit: intQuery(1, 100, 20),
});

export const transactionPage = pageSchema("transactions", walletTransaction, { id: "WalletTransactionPage" });

export const adjustmentBody = z
  .strictObject({
    userId: uuidString("The user's id."),
    currency: currency.optional().default("COIN"),
    amount: z
      .number()
      .int()
      .min(-ADJUSTMENT_MAX)
      .max(ADJUSTMENT_MAX)
      .refine((n) => n !== 0, "Must not be 0")
      .meta({
        description: `Minor units, ±${ADJUSTMENT_MAX}, not 0: positive credits (never past the wallet ceiling, ${WALLET_BALANCE_MAX}), negative debits (never below a 0 balance).`,
      }),
    note: z.string().trim().min(1).max(500).meta({ description: "Why (kept on the ledger row)." }),
  })
  .meta({ id: "WalletAdjustment" });
export type AdjustmentInput = z.infer<typeof adjustmentBody>;

export const adjustmentResult = z.object({ userId: z.string(), transaction: walletTransaction }).meta({ id: "WalletAdjustmentResult" });

export const invariantReport = z
  .object({
    ok: z.boolean().meta({
      description:
        "True when every wallet's balance equals the sum of its ledger, no active listing's seller has lost the item, the top-up books agree and every trade's coins match its state (the four lists empty).",
    }),
    wallets: z.number().int(),
    transactions: z.number().int(),
    balances: z.number().meta({ description: "Sum of every balance, minor units (rounded once past 2^53)." }),
    mismatches: z.array(
      z.object({
        userId: z.string(),
        currency,
        balance: z.number().int(),
        ledgerSum: z.number(),
        transactions: z.number().int(),
      }),
    ),
    staleListings: z.array(z.object({ listingId: z.string(), collectibleId: z.string(), sellerId: z.string(), ownerId: z.string() })).meta({
      description:
        "Up to 100 active listings whose seller no longer owns the item (none while the ownership rule holds: a change of owner withdraws the item's listings).",
    }),
    paymentMismatches: z
      .array(
        z.object({
          userId: z.string(),
          topupCredits: z.number().meta({ description: "Sum of the wallet's `topup` ledger rows." }),
          purchasedCoins: z.number().meta({ description: "Coins of the user's credited purchases (credited, refunded or disputed)." }),
          clawedCoins: z.number().meta({ description: "Coins clawed back from those purchases." }),
          clawbackTaken: z.number().meta({ description: "Sum of the wallet's `clawback` ledger rows, as a positive number." }),
          debt: z.number(),
          balance: z.number(),
        }),
      )
      .meta({
        description:
          "Up to 100 users whose money-in books disagree: top-up credits differ from the coins of their credited purchases, coins clawed back differ from what the ledger took plus the debt, or a wallet holds a balance while in debt (none while the rules hold).",
      }),
    tradeMismatches: z
      .array(
        z.object({
          tradeId: z.string(),
          status: z.string(),
          expected: z
            .number()
            .meta({ description: "What the trade's ledger rows should net: minus the held coins while open, minus the fees once accepted, else 0." }),
          ledger: z.number().meta({ description: "What they net." }),
        }),
      )
      .meta({ description: "Up to 100 trades whose held or moved coins disagree with their state (none while the rules hold)." }),
    dropMismatches: z.array(z.object({ entryId: z.string(), status: z.string(), expected: z.number(), ledger: z.number() })).meta({
      description:
        "Up to 100 drop draw entries whose ledger rows disagree with their state: minus the hold while entered, minus the packs won at the price once won, else 0 (none while the rules hold).",
    }),
    checkedAt: isoDateTime,
  })
  .meta({ id: "WalletInvariant" });
