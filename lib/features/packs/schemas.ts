import { z } from "zod";
import { collectible, rarity, RARITIES } from "../../core/collectibles/schemas";
import { pageSchema } from "../../kernel/page";
import { boolQuery, cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";

const rarityRecord = <T extends z.ZodType>(value: T) => z.object(Object.fromEntries(RARITIES.map((r) => [r, value])) as Record<(typeof RARITIES)[number], T>);

export const packOdds = z
  .object({
    version: z.number().int().meta({ description: "The odds table new openings use (GET /api/v1/packs/{packId}/odds/{version})." }),
    rarities: z.array(
      z.object({
        rarity,
        weight: z.number().int().meta({ description: "Basis points of 10,000." }),
        percent: z.number().meta({ description: "weight / 100: the chance of this rarity per item, in percent." }),
        cards: z.number().int().meta({ description: "Cards of this rarity in the pack's pool." }),
      }),
    ),
  })
  .meta({ id: "PackOdds" });

export const pack = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    price: z.number().int().meta({ description: "Minor units of currency (COIN: hundredths)." }),
    currency: z.enum(["COIN"]),
    decimals: z.number().int(),
    itemsPerPack: z.number().int(),
    stock: z.number().int().nullable().meta({ description: "Packs for sale in all; null = unlimited." }),
    remaining: z.number().int().nullable().meta({ description: "stock minus packs sold; null = unlimited." }),
    saleStartsAt: isoDateTime.nullable(),
    saleEndsAt: isoDateTime.nullable(),
    onSale: z.boolean().meta({ description: "Can be bought now (in its sale window, stock left, not the starter pack)." }),
    grantOnly: z.boolean().meta({ description: "The starter pack: granted once at onboarding, never sold." }),
    odds: packOdds,
  })
  .meta({ id: "Pack" });

export const packsResponse = z.object({ packs: z.array(pack) }).meta({ id: "Packs" });

export const oddsTable = z
  .object({
    packId: z.string(),
    version: z.number().int(),
    weights: rarityRecord(z.number().int()).meta({ description: "Basis points per rarity (sum 10,000)." }),
    pool: rarityRecord(z.array(z.string())).meta({ description: "The card ids a draw of each rarity indexes, in order." }),
    createdAt: isoDateTime,
  })
  .meta({ id: "PackOddsTable" });

export const draw = z
  .object({
    index: z.number().int(),
    roll: z.number().int().meta({ description: "0..9999: decides the rarity against the cumulative weights." }),
    rarity,
    pick: z.number().int().meta({ description: "Index into pool[rarity]." }),
    cardRarity: rarity.meta({ description: "The rarity of the card taken (lower than rarity only when that rarity had no copies left)." }),
    cardIndex: z.number().int().meta({ description: "Index into pool[cardRarity] of the card taken (pick, unless that card's edition was sold out)." }),
    collectible,
  })
  .meta({ id: "PackDraw" });

export const opening = z
  .object({
    seedHash: z.string().meta({ description: "SHA-256 (hex) of the seed the draws came from, published before it was used." }),
    seed: z.string().nullable().meta({ description: "The seed (hex), once retired and revealed; null while in use." }),
    nonce: z.number().int(),
    oddsVersion: z.number().int(),
    draws: z.array(draw),
  })
  .meta({ id: "PackOpening" });

export const purchase = z
  .object({
    id: z.string(),
    pack: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
    source: z.string().meta({ description: "purchase, or onboarding for the starter pack." }),
    price: z.number().int(),
    currency: z.enum(["COIN"]),
    createdAt: isoDateTime,
    openedAt: isoDateTime.nullable(),
    opening: opening.nullable(),
  })
  .meta({ id: "PackPurchase" });

export const purchaseResponse = z.object({ purchase }).meta({ id: "PackPurchaseResponse" });
export const purchasePage = pageSchema("purchases", purchase, { id: "PackPurchasePage" });

export const seed = z
  .object({
    id: z.string(),
    seedHash: z.string(),
    seed: z.string().nullable().meta({ description: "Revealed once retired." }),
    active: z.boolean(),
    createdAt: isoDateTime,
    retiredAt: isoDateTime.nullable(),
  })
  .meta({ id: "DrawSeed" });
export const seedPage = pageSchema("seeds", seed, { id: "DrawSeedPage" });

export const packParams = z.strictObject({ packId: z.string().min(1).max(128).meta({ description: "Pack id." }) });
export const oddsParams = packParams.extend({
  version: z
    .string()
    .regex(/^\d{1,6}$/, "Expected a version number")
    .transform(Number)
    .pipe(z.number().int().min(1))
    .meta({ description: "Odds table version." }),
});
export const stockBody = z
  .strictObject({
    stock: z.number().int().min(0).max(10_000_000).nullable().meta({ description: "Packs for sale in all (sold ones included); null: unlimited." }),
  })
  .meta({ id: "PackStock" });

export const purchaseParams = z.strictObject({
  purchaseId: uuidString("Pack purchase id (UUID)."),
});
export const purchasesQuery = z.strictObject({
  unopened: boolQuery("true: only purchases not opened yet."),
  cursor: cursorQuery,
  limit: intQuery(1, 50, 20),
});
export const seedsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 20) });
