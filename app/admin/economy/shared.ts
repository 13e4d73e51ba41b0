import { z } from "zod";
import { UUID_PATTERN } from "@/lib/kernel/schemas";
import { ADJUSTMENT_MAX } from "@/lib/core/wallets/schemas";

// What the economy page and its actions share: the form schemas, the result codes and their messages.

const uuid = z
  .string()
  .trim()
  .regex(UUID_PATTERN)
  .transform((s) => s.toLowerCase());

/** Coins as typed ("12.50", "-3", "+0.5"), exactly to minor units (hundredths), never through a float. */
export const coins = z
  .string()
  .trim()
  .regex(/^[+-]?\d{1,7}(\.\d{1,2})?$/)
  .transform((s) => {
    const negative = s.startsWith("-");
    const [whole, cents = ""] = s.replace(/^[+-]/, "").split(".");
    const minor = Number(whole) * 100 + Number(cents.padEnd(2, "0"));
    return negative ? -minor : minor;
  })
  .pipe(
    z
      .number()
      .int()
      .min(-ADJUSTMENT_MAX)
      .max(ADJUSTMENT_MAX)
      .refine((n) => n !== 0),
  );

export const adjustForm = z.object({ userId: uuid, amount: coins, note: z.string().trim().min(1).max(500) });
export const listingForm = z.object({ listingId: uuid });
export const stockForm = z.object({
  packId: z.string().trim().min(1).max(128),
  stock: z
    .string()
    .trim()
    .regex(/^(\d{1,8})?$/)
    .transform((s) => (s === "" ? null : Number(s))),
});

export const ECONOMY_ERRORS: Record<string, string> = {
  userId: "That user id is not valid.",
  amount: "Enter an amount in coins, like 12.50 or -3.00 (not 0, at most 1,000,000.00).",
  note: "Enter a reason (1-500 characters).",
  listingId: "That listing id is not valid.",
  stock: "Stock is a whole number, 0 or more (empty: unlimited).",
  STOCK_BELOW_SOLD: "Stock cannot be set below the packs already sold.",
  NOT_FOUND: "No such user, pack or listing.",
  INSUFFICIENT_FUNDS: "The balance does not cover that debit.",
  ADJUSTMENT_OVER_LIMIT: "That is more than your role may adjust in one action (admins have no limit).",
  BALANCE_LIMIT: "That credit would take the balance past the wallet ceiling (10,000,000,000,000.00 coins).",
  LISTING_UNAVAILABLE: "That listing cannot take this action in its state (not active, not a sale, already refunded, or the item changed hands).",
};

export const ECONOMY_DONE: Record<string, string> = {
  adjusted: "Wallet adjusted.",
  stock: "Pack stock updated.",
  cancelled: "Listing cancelled.",
  refunded: "Sale refunded: the buyer got the price back and the item returned to the seller.",
};

export const formatCoins = (minor: number) => `${minor < 0 ? "-" : ""}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, "0")}`;
