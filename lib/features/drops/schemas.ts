import { z } from "zod";
import { pageSchema } from "../../kernel/page";
import { cursorQuery, idString, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";

export const DROP_PRICE_MAX = 100_000_000;
export const DROP_QUANTITY_MAX = 1_000_000;
export const DROP_CAP_MAX = 100;
export const ALLOWLIST_MAX = 1_000;

export const DROP_MODES = ["draw", "queue"] as const;
export const DROP_STATUSES = ["upcoming", "open", "closed", "drawn"] as const;
export const ENTRY_STATUSES = ["entered", "won", "lost", "withdrawn", "waiting"] as const;

export const dropEntry = z
  .object({
    id: z.string(),
    dropId: z.string(),
    status: z.enum(ENTRY_STATUSES).meta({
      description:
        "Draw: entered (coins held), won (the packs bought with the hold, the rest refunded), lost (not drawn, or ineligible at the draw: ineligibleCode; the hold refunded), withdrawn (refunded). Waiting room: waiting, withdrawn.",
    }),
    quantity: z.number().int().meta({ description: "Draw: packs asked for." }),
    held: z.number().int().meta({ description: "Draw: coins (minor units) held for the entry: price × quantity." }),
    won: z.number().int().meta({ description: "Packs this entry got: won in the draw, or bought from the waiting room." }),
    position: z.number().int().nullable().meta({ description: "Place in the drop's order (1-based), once fixed." }),
    ineligibleCode: z.string().nullable().meta({
      description: "Draw: why a drawn fan got nothing (WALLET_FROZEN, REGION_RESTRICTED, SPENDING_LIMIT_REACHED, FEATURE_DISABLED: packs paused for them, …).",
    }),
    purchases: z.array(z.string()).meta({ description: "The pack purchases this entry got (open them with POST /api/v1/packs/purchases/{purchaseId}/open)." }),
    createdAt: isoDateTime,
    settledAt: isoDateTime.nullable(),
  })
  .meta({ id: "DropEntry" });

export const drop = z
  .object({
    id: z.string(),
    name: z.string(),
    pack: z.object({ id: z.string(), slug: z.string(), name: z.string(), itemsPerPack: z.number().int() }),
    mode: z.enum(DROP_MODES).meta({ description: "draw: enter until closesAt, then a draw; queue: a waiting room served in a shuffled order from opensAt." }),
    price: z.number().int().meta({ description: "Per pack, minor units of currency." }),
    currency: z.enum(["COIN"]),
    decimals: z.number().int(),
    quantity: z.number().int().meta({ description: "Packs the drop sells in all." }),
    sold: z.number().int(),
    remaining: z.number().int(),
    perUserCap: z.number().int().meta({ description: "The most packs one fan can get from the drop." }),
    opensAt: isoDateTime,
    closesAt: isoDateTime,
    allowlistOpensAt: isoDateTime.nullable().meta({ description: "Allowlisted fans may enter (draw) or buy (queue) from this time." }),
    status: z.enum(DROP_STATUSES).meta({ description: "upcoming (before opensAt), open, closed (after closesAt; a draw not run yet), drawn (draw run)." }),
    queue: z
      .object({
        window: z.number().int(),
        servingUpTo: z.number().int().meta({ description: "Positions up to this may buy now: fans who bought + window." }),
        length: z.number().int(),
      })
      .nullable()
      .meta({ description: "Waiting room (queue mode) state; null in draw mode." }),
    seedHash: z.string().meta({ description: "SHA-256 (hex) of the seed that orders the drop, published at creation." }),
    seed: z.string().nullable().meta({ description: "The seed (hex), revealed once the order is fixed (orderedAt)." }),
    orderedAt: isoDateTime.nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: "Drop" });

export const orderItem = z
  .object({
    position: z.number().int(),
    userId: z.string(),
    key: z.string().meta({ description: 'HMAC-SHA256(seed, "<dropId>:<userId>") in hex: the order sorts by it.' }),
    quantity: z.number().int(),
    won: z.number().int(),
    outcome: z.string().meta({ description: "Draw: won, lost, ineligible (with the code after a colon). Queue: waiting, withdrawn." }),
  })
  .meta({ id: "DropOrderItem" });

export const dropDetail = z
  .object({
    drop,
    order: z
      .array(orderItem)
      .nullable()
      .meta({ description: "Once the seed is revealed: every entrant shuffled, in order (recompute it with the seed: docs/domains/drops.md)." }),
    entry: dropEntry.nullable().meta({ description: "The caller's entry (null signed out or without one)." }),
  })
  .meta({ id: "DropDetail" });

export const dropPage = pageSchema("drops", drop, { id: "DropPage" });
export const dropResponse = z.object({ drop }).meta({ id: "DropResponse" });
export const entryResponse = z.object({ entry: dropEntry }).meta({ id: "DropEntryResponse" });

export const dropParams = z.strictObject({ dropId: uuidString("Drop id (UUID).") });
export const dropsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });

export const entryBody = z
  .strictObject({
    quantity: z.number().int().min(1).max(DROP_CAP_MAX).optional().meta({ description: "Packs (default 1), at most the drop's per-fan cap." }),
  })
  .meta({ id: "DropEntryBody" });

const at = (what: string) => z.iso.datetime({ offset: true }).meta({ description: what });

export const createDropBody = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    packId: idString.meta({ description: "The pack sold (an active pack, not the starter pack)." }),
    mode: z.enum(DROP_MODES),
    price: z.number().int().min(0).max(DROP_PRICE_MAX),
    quantity: z.number().int().min(1).max(DROP_QUANTITY_MAX),
    perUserCap: z.number().int().min(1).max(DROP_CAP_MAX),
    opensAt: at("Draw: entries open; queue: buying starts (the waiting room takes fans before)."),
    closesAt: at("Draw: entries close and the draw runs; queue: sales end."),
    queueWindow: z
      .number()
      .int()
      .min(1)
      .max(DROP_QUANTITY_MAX)
      .optional()
      .meta({ description: "Queue mode: positions served beyond fans who bought (default: quantity)." }),
    allowlist: z
      .strictObject({
        opensAt: at("When allowlisted fans may start (before opensAt)."),
        userIds: z.array(uuidString("User id.")).max(ALLOWLIST_MAX).optional(),
        teamId: idString.optional().meta({ description: "Every member of this team at creation." }),
      })
      .optional(),
  })
  .superRefine((b, ctx) => {
    if (Date.parse(b.closesAt) <= Date.parse(b.opensAt)) ctx.addIssue({ code: "custom", path: ["closesAt"], message: "Must be after opensAt" });
    if (b.allowlist && Date.parse(b.allowlist.opensAt) >= Date.parse(b.opensAt))
      ctx.addIssue({ code: "custom", path: ["allowlist", "opensAt"], message: "Must be before opensAt" });
    if (b.allowlist && !b.allowlist.userIds?.length && !b.allowlist.teamId)
      ctx.addIssue({ code: "custom", path: ["allowlist"], message: "Needs userIds or teamId" });
  })
  .meta({ id: "DropCreate" });
export type CreateDropBody = z.infer<typeof createDropBody>;

export const cronResult = z
  .object({
    drawn: z.number().int(),
    queuesOrdered: z.number().int(),
    packsPaused: z.boolean().meta({ description: "True when packs were paused for everyone: nothing was drawn or ordered (the drops wait for the resume)." }),
  })
  .meta({ id: "DropsCronResult" });
