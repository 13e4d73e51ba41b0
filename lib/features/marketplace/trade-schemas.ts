import { z } from "zod";
import { collectible } from "../../core/collectibles/schemas";
import { pageSchema } from "../../kernel/page";
import { cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";
import { PRICE_MAX, TRADE_MAX_ITEMS } from "./schemas";

// Trades and gifts, offer settings: requests and answers (lib/features/marketplace/trades.ts, offer-settings.ts).

export const TRADE_DEFAULT_HOURS = 72;
export const TRADE_MAX_HOURS = 168;
export const TRADE_MESSAGE_MAX = 280;
/**
 * A nominal price: a side of a trade that gives no items and, net of the coins coming back to it, fewer coins than
 * this (minor units: 10 COIN) gives nothing of note. A trade one of whose sides is nominal moves value one way only,
 * and counts as a gift against the proposer's `gifts` limit (lib/features/marketplace/trades.ts, movesOneWay).
 */
export const GIFT_NOMINAL_COINS = 1_000;
/** Offer settings' caps: cards with a minimum, users refused. */
export const MINIMUMS_MAX = 200;
export const REFUSED_MAX = 500;

export const TRADE_STATUSES = ["open", "accepted", "declined", "cancelled", "expired", "void", "countered"] as const;
export const TRADE_VOID_REASONS = [
  "TRADE_ITEM_GONE",
  "TRADE_ITEM_LISTED",
  "TRADE_ITEM_MINTED",
  "TRADE_ITEM_LOCKED",
  "TRADE_FUNDS_SHORT",
  "TRADE_WALLET_FROZEN",
  // Staff voided it (a dispute); not an error code an accept answers.
  "TRADE_VOIDED_BY_STAFF",
] as const;

const uuid = (what: string) => uuidString(`${what} (UUID).`);
const coins = (what: string) =>
  z
    .number()
    .int()
    .min(0)
    .max(PRICE_MAX)
    .optional()
    .default(0)
    .meta({ description: `${what}: integer minor units of COIN, 0..${PRICE_MAX} (default 0: none).` });
const itemList = (what: string) =>
  z
    .array(uuid("A collectible"))
    .max(TRADE_MAX_ITEMS)
    .optional()
    .default([])
    .superRefine((ids, ctx) => {
      ids.forEach((id, i) => {
        if (ids.indexOf(id) !== i) ctx.addIssue({ code: "custom", path: [i], message: "Listed twice" });
      });
    })
    .meta({ description: `${what}: up to ${TRADE_MAX_ITEMS} collectibles, each once.` });

const proposalFields = {
  offeredItems: itemList("The caller's collectibles given"),
  askedItems: itemList("The other party's collectibles asked for"),
  offerCoins: coins("Coins given, held from the caller's wallet until the trade closes"),
  askCoins: coins("Coins asked of the other party, paid when they accept"),
  expiresInHours: z
    .number()
    .int()
    .min(1)
    .max(TRADE_MAX_HOURS)
    .optional()
    .default(TRADE_DEFAULT_HOURS)
    .meta({ description: `1..${TRADE_MAX_HOURS}, default ${TRADE_DEFAULT_HOURS}.` }),
  message: z
    .string()
    .trim()
    .min(1)
    .max(TRADE_MESSAGE_MAX)
    .optional()
    .meta({ description: `A short note to the other party (up to ${TRADE_MESSAGE_MAX} characters).` }),
};

type Proposal = { offeredItems: string[]; askedItems: string[]; offerCoins: number; askCoins: number };
/** Both sides' rules: something offered; no item on both sides. */
function checkSides(p: Proposal, ctx: z.RefinementCtx) {
  if (p.offeredItems.length === 0 && p.offerCoins === 0) {
    for (const path of ["offeredItems", "offerCoins"]) ctx.addIssue({ code: "custom", path: [path], message: "A trade offers items or coins" });
  }
  p.askedItems.forEach((id, i) => {
    if (p.offeredItems.includes(id)) ctx.addIssue({ code: "custom", path: ["askedItems", i], message: "Also offered: an item is on one side only" });
  });
}

export const tradeBody = z
  .strictObject({ recipientId: uuid("The other party"), ...proposalFields })
  .superRefine(checkSides)
  .meta({ id: "TradeCreate" });
export type TradeInput = z.infer<typeof tradeBody>;

export const counterBody = z.strictObject(proposalFields).superRefine(checkSides).meta({ id: "TradeCounter" });
export type CounterInput = z.infer<typeof counterBody>;

const party = z.object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable() });
const side = z.object({
  items: z.array(collectible).meta({ description: "The collectibles (their owner now: after an accepted trade, the new one)." }),
  coins: z.number().int(),
});

export const trade = z
  .object({
    id: z.string(),
    proposer: party,
    recipient: party,
    offered: side.meta({ description: "What the proposer gives." }),
    asked: side.meta({ description: "What the proposer asks of the recipient." }),
    currency: z.enum(["COIN"]),
    gift: z.boolean().meta({ description: "Nothing asked back." }),
    message: z.string().nullable(),
    status: z.enum(TRADE_STATUSES),
    voidReason: z
      .enum(TRADE_VOID_REASONS)
      .nullable()
      .meta({ description: "Why accepting voided it (the error code the accept answered), or TRADE_VOIDED_BY_STAFF (a dispute); null unless void." }),
    counterOfId: z.string().nullable().meta({ description: "The trade this one counters." }),
    counteredById: z.string().nullable().meta({ description: "The counter-proposal that replaced this one." }),
    fees: z
      .object({ recipient: z.number().int(), proposer: z.number().int() })
      .nullable()
      .meta({ description: "Once accepted: the fee kept from the recipient (on offered coins) and from the proposer (on asked coins)." }),
    expiresAt: isoDateTime,
    createdAt: isoDateTime,
    closedAt: isoDateTime.nullable(),
  })
  .meta({ id: "Trade" });
export const tradeResponse = z.object({ trade }).meta({ id: "TradeResponse" });
export const counterResponse = z
  .object({
    trade: trade.meta({ description: "The new trade (the counter-proposal)." }),
    countered: trade.meta({ description: "The old one, now countered." }),
  })
  .meta({ id: "TradeCounterResponse" });
export const tradePage = pageSchema("trades", trade, { id: "TradePage" });
export const tradesQuery = z.strictObject({
  role: z
    .enum(["sent", "received"])
    .optional()
    .default("sent")
    .meta({ description: "sent (default): trades the caller proposed; received: proposed to the caller." }),
  status: z.enum(TRADE_STATUSES).optional(),
  cursor: cursorQuery,
  limit: intQuery(1, 100, 20),
});
export const tradeParams = z.strictObject({ tradeId: uuid("Trade id") });

export const offerSettings = z
  .object({
    minimumOffers: z.array(z.object({ cardId: z.string(), amount: z.number().int() })),
    refusedUserIds: z.array(z.string()),
  })
  .meta({ id: "OfferSettings" });
export const offerSettingsResponse = z.object({ settings: offerSettings }).meta({ id: "OfferSettingsResponse" });
export const offerSettingsBody = z
  .strictObject({
    minimumOffers: z
      .array(
        z.strictObject({
          cardId: z.string().min(1).max(128).meta({ description: "A catalog card." }),
          amount: z
            .number()
            .int()
            .min(1)
            .max(PRICE_MAX)
            .meta({ description: `The least offer taken for any copy of it (1..${PRICE_MAX}).` }),
        }),
      )
      .max(MINIMUMS_MAX)
      .superRefine((ms, ctx) => {
        ms.forEach((m, i) => {
          if (ms.findIndex((o) => o.cardId === m.cardId) !== i) ctx.addIssue({ code: "custom", path: [i, "cardId"], message: "Listed twice" });
        });
      })
      .meta({ description: `Up to ${MINIMUMS_MAX} cards, each once.` }),
    refusedUserIds: z
      .array(uuid("A user"))
      .max(REFUSED_MAX)
      .superRefine((ids, ctx) => {
        ids.forEach((id, i) => {
          if (ids.indexOf(id) !== i) ctx.addIssue({ code: "custom", path: [i], message: "Listed twice" });
        });
      })
      .meta({ description: `Up to ${REFUSED_MAX} users whose offers and trade proposals are refused, each once.` }),
  })
  .meta({ id: "OfferSettingsUpdate" });
export type OfferSettingsInput = z.infer<typeof offerSettingsBody>;
