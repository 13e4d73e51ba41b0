import { z } from "zod";
import { card } from "../collectibles/schemas";
import { cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";
import { pageSchema } from "../../kernel/page";

export const MAX_ALERTS = 50;
/** PRICE_ALERT notifications one fan gets per hour at most (the rest of the hour's matches are dropped). */
export const ALERTS_PER_HOUR = 20;

const money = (description: string) =>
  z
    .number()
    .int()
    .meta({ description: `${description} Minor units of COIN (100 = 1 coin).` });

export const cardParams = z.strictObject({ cardId: z.string().min(1).max(100).meta({ description: "The card's id." }) });

export const sellerReputation = z
  .object({
    completedSales: z.number().int().meta({ description: "Sales made and not reversed by staff." }),
    refundRate: z.number().nullable().meta({ description: "Reversed sales over all sales (0..1); null before the first sale." }),
    accountAgeDays: z.number().int(),
    earnedRep: z.number().int().meta({ description: "Rep earned over the account's life (not the spendable balance)." }),
  })
  .meta({ id: "SellerReputation", description: "What the ledgers say about a seller." });

export const cardMarket = z
  .object({
    card,
    supply: z.number().int().meta({ description: "Copies that can ever exist (the edition size)." }),
    drawn: z.number().int().meta({ description: "Copies drawn from packs so far." }),
    holders: z.number().int().meta({ description: "Fans holding at least one copy (refreshed every 30 seconds at most)." }),
    floor: z
      .object({ listingId: z.string(), price: money("The price."), serial: z.number().int() })
      .nullable()
      .meta({
        description:
          "The cheapest copy buyable now: an active fixed-price listing whose seller still owns the item, not minted or being minted. null when none.",
      }),
    lastSale: z.object({ price: money("What the buyer paid."), serial: z.number().int(), at: isoDateTime, refunded: z.boolean() }).nullable(),
    last24h: z.object({
      volume: money("The sales' total, reversed sales left out."),
      sales: z.number().int(),
    }),
  })
  .meta({ id: "CardMarket" });

export const sale = z
  .object({
    id: z.string(),
    cardId: z.string(),
    collectibleId: z.string(),
    serial: z.number().int(),
    sellerId: z.string(),
    buyerId: z.string(),
    price: money("What the buyer paid."),
    currency: z.literal("COIN"),
    via: z.enum(["sale", "offer"]).meta({ description: "A listing bought (fixed price, checkout or auction) or an offer accepted." }),
    at: isoDateTime,
    refunded: z.boolean().meta({ description: "Staff reversed the sale (the item went back, the money too)." }),
  })
  .meta({ id: "MarketSale" });

export const salesQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 20) });
export const allSalesQuery = salesQuery.extend({ cardId: z.string().min(1).max(100).optional().meta({ description: "Only this card's sales." }) });
export const salePage = pageSchema("sales", sale, { id: "MarketSalePage" });

export const alert = z
  .object({
    id: z.string(),
    cardId: z.string(),
    serialMin: z.number().int().nullable(),
    serialMax: z.number().int().nullable(),
    maxPrice: money("Fires for a fixed-price listing at or below this price."),
    currency: z.literal("COIN"),
    createdAt: isoDateTime,
  })
  .meta({ id: "PriceAlert" });

export const alertBody = z
  .strictObject({
    cardId: z.string().min(1).max(100),
    maxPrice: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).meta({ description: "Minor units of COIN." }),
    serialMin: z.number().int().min(1).optional(),
    serialMax: z.number().int().min(1).optional(),
  })
  .refine((b) => b.serialMin === undefined || b.serialMax === undefined || b.serialMin <= b.serialMax, {
    path: ["serialMax"],
    message: "serialMax must be at least serialMin",
  });
export const alertParams = z.strictObject({ alertId: uuidString("The alert's id.") });
export const alertsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 50) });
export const alertPage = pageSchema("alerts", alert, { id: "PriceAlertPage" });
export const alertCreated = z.object({ alert });
