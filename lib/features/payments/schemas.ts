import { z } from "zod";
import { cursorQuery, idString, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";
import { pageSchema } from "../../kernel/page";

export const PROVIDERS = ["stripe", "app_store", "google_play"] as const;
export const PURCHASE_STATES = ["pending", "credited", "refunded", "disputed", "failed"] as const;
export type PurchaseState = (typeof PURCHASE_STATES)[number];
/** Why a credited purchase is flagged: the code GET /api/v1/me/eligibility gave for coins when it was credited. */
export const PURCHASE_FLAGS = ["TRADING_RESTRICTED", "ACCOUNT_DELETION_PENDING"] as const;
export type PurchaseFlag = (typeof PURCHASE_FLAGS)[number];

const currencyCode = z
  .string()
  .regex(/^[a-z]{3}$/, "An ISO 4217 code in lower case (usd, eur)")
  .meta({ description: "ISO 4217 currency code, lower case." });

export const coinProduct = z
  .object({
    id: z.string(),
    name: z.string(),
    coins: z.number().int().meta({ description: "COIN minor units credited (hundredths: 100000 is 1,000.00 coins)." }),
    prices: z
      .array(z.object({ currency: currencyCode, amount: z.number().int().meta({ description: "Minor units of the currency (cents)." }) }))
      .meta({ description: "The price in each currency the bundle is sold in on the web (Stripe Checkout)." }),
    appStoreProductId: z.string().nullable().meta({ description: "The same bundle in the App Store (in-app purchase product id); null when not sold there." }),
    googlePlayProductId: z.string().nullable().meta({ description: "The same bundle in Google Play (in-app product id); null when not sold there." }),
  })
  .meta({ id: "CoinProduct" });

export const productsResponse = z.object({ products: z.array(coinProduct) }).meta({ id: "CoinProducts" });

export const topup = z
  .object({
    id: z.string().meta({ description: "UUIDv7: time-ordered." }),
    provider: z.enum(PROVIDERS),
    productId: z.string(),
    state: z.enum(PURCHASE_STATES).meta({
      description:
        "pending (checkout started, not paid), credited (coins in the wallet), refunded or disputed (coins clawed back: taken from the balance, the rest owed as the wallet's debt), failed (the checkout expired or the payment failed).",
    }),
    coins: z.number().int().meta({ description: "COIN minor units the purchase credits." }),
    amount: z.number().int().meta({ description: "Price paid, minor units of `currency`." }),
    currency: currencyCode,
    clawedBackCoins: z.number().int().meta({ description: "COIN minor units taken back for refunds and disputes so far." }),
    checkoutUrl: z.string().nullable().meta({ description: "Where the buyer pays (Stripe Checkout), while pending; null otherwise." }),
    flag: z.enum(PURCHASE_FLAGS).nullable().meta({
      description:
        "Set when the purchase was credited while the fan could not buy coins (GET /api/v1/me/eligibility's code: restricted from trading, or deletion pending): a store purchase completes on the device before this service hears of it, so it is credited and flagged for staff to review (a refund through the store). Null otherwise.",
    }),
    createdAt: isoDateTime,
    creditedAt: isoDateTime.nullable(),
    updatedAt: isoDateTime,
  })
  .meta({ id: "Topup" });

export const topupResponse = z.object({ topup }).meta({ id: "TopupResult" });

export const createTopupBody = z
  .strictObject({
    productId: idString.meta({ description: "A bundle of GET /api/v1/wallet/products." }),
    currency: currencyCode.optional().default("usd").meta({ description: "One of the bundle's price currencies; default usd." }),
  })
  .meta({ id: "TopupCreate" });
export type CreateTopupInput = z.infer<typeof createTopupBody>;

export const createdTopup = z
  .object({ topup, checkoutUrl: z.string().meta({ description: "Send the buyer here to pay (Stripe Checkout)." }) })
  .meta({ id: "TopupCreated" });

export const topupsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 20) });
export const topupPage = pageSchema("topups", topup, { id: "TopupPage" });
export const topupParams = z.strictObject({ topupId: uuidString("The top-up's id.") });

export const webhookAnswer = z
  .object({
    received: z.literal(true),
    eventId: z.string(),
    duplicate: z.boolean().meta({ description: "True for a re-delivery of an event already processed: nothing changed." }),
    outcome: z.enum(["credited", "clawed_back", "held", "restored", "failed", "ignored"]).meta({
      description:
        "What the event did: credited a purchase, clawed one back, held a claw-back until its credit lands, returned the coins of a dispute won, marked a checkout failed, or nothing (an event type or a state it does not act on).",
    }),
  })
  .meta({ id: "StripeWebhookAnswer" });
export type WebhookOutcome = z.infer<typeof webhookAnswer>["outcome"];
