import { z } from "zod";
import { PURCHASE_STATES } from "@/lib/features/payments/schemas";

// What the payments page and its actions share: the bundle form's schema and the result codes' messages.

const storeId = z
  .string()
  .trim()
  .max(200)
  .regex(/^[A-Za-z0-9._-]*$/)
  .transform((s) => (s === "" ? null : s));

/** "usd=499, eur=499": ISO 4217 codes (lower-cased) and prices in minor units. */
const prices = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}=\d{1,9}(\s*,\s*[A-Za-z]{3}=\d{1,9})*$/)
  .transform((s) =>
    Object.fromEntries(
      s
        .split(",")
        .map((p) => p.split("=").map((x) => x.trim()))
        .map(([c, a]) => [c!.toLowerCase(), Number(a)]),
    ),
  );

export const productForm = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,64}$/),
  name: z.string().trim().min(1).max(100),
  coins: z
    .string()
    .trim()
    .regex(/^\d{1,12}$/)
    .transform(Number)
    .pipe(z.number().int().min(1)),
  prices,
  appStoreProductId: storeId,
  googlePlayProductId: storeId,
  sortOrder: z
    .string()
    .trim()
    .regex(/^-?\d{1,6}$/)
    .transform(Number),
  active: z
    .enum(["on"])
    .optional()
    .transform((v) => v === "on"),
});

export const stateFilter = z.enum(PURCHASE_STATES).optional().catch(undefined);

export const PAYMENTS_ERRORS: Record<string, string> = {
  id: "A bundle id is 1-64 lower-case letters, digits or underscores.",
  name: "Enter a name (1-100 characters).",
  coins: "Coins are a whole number of minor units, 1 or more (100 = 1 coin).",
  prices: "Prices are currency=amount pairs in minor units, like usd=499, eur=499.",
  appStoreProductId: "A store product id is letters, digits, dots, underscores or dashes.",
  googlePlayProductId: "A store product id is letters, digits, dots, underscores or dashes.",
  sortOrder: "The order is a whole number.",
  STORE_ID_TAKEN: "Another bundle already has that App Store or Google Play product id.",
};

export const PAYMENTS_DONE: Record<string, string> = {
  saved: "Bundle saved.",
};
