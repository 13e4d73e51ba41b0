import { z } from "zod";
import { pageSchema } from "../../kernel/page";
import { cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";

export const RARITIES = ["common", "rare", "epic", "legendary"] as const;
export const rarity = z.enum(RARITIES).meta({ description: "common, rare, epic or legendary (rising scarcity)." });

export const card = z
  .object({
    id: z.string(),
    kind: z.enum(["player", "team"]),
    name: z.string(),
    rarity,
    editionSize: z.number().int().meta({ description: "Copies that can ever exist, serials 1..editionSize." }),
    minted: z.number().int().meta({ description: "Copies drawn so far." }),
    imageUrl: z.string().nullable(),
    teamId: z.string(),
    playerId: z.string().nullable(),
  })
  .meta({ id: "CollectibleCard", description: "A catalog card: a player or a team of the synced data in a numbered edition." });

export const collectible = z
  .object({
    id: z.string().meta({ description: "UUIDv7." }),
    serial: z.number().int().meta({ description: "This copy's number within the card's edition (1-based)." }),
    card,
    ownerId: z.string(),
    acquiredAt: isoDateTime,
    purchaseId: z.string().nullable().meta({ description: "The pack purchase it was drawn from." }),
  })
  .meta({ id: "Collectible" });

export const transfer = z
  .object({
    fromUserId: z.string().nullable().meta({ description: "null for the first owner (drawn from a pack)." }),
    toUserId: z.string(),
    toHandle: z.string().nullable(),
    toDisplayName: z.string().nullable(),
    reason: z.string().meta({ description: "pack_opening, sale, offer, staff, trade, gift, challenge_reward." }),
    referenceId: z.string().nullable(),
    price: z.number().int().nullable().meta({ description: "Minor units, for sales." }),
    at: isoDateTime,
  })
  .meta({ id: "CollectibleTransfer" });

export const collectibleDetail = collectible
  .extend({
    owner: z.object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable() }),
    history: z.array(transfer).meta({ description: "Owners oldest first (at most 100)." }),
  })
  .meta({ id: "CollectibleDetail" });

const teamFilter = z.string().min(1).max(128).optional().meta({ description: "Only cards of this team (id)." });

export const ownedQuery = z.strictObject({ teamId: teamFilter, rarity: rarity.optional(), cursor: cursorQuery, limit: intQuery(1, 100, 20) });
export const collectiblePage = pageSchema("collectibles", collectible, { id: "CollectiblePage" });

export const cardsQuery = z.strictObject({ teamId: teamFilter, rarity: rarity.optional(), cursor: cursorQuery, limit: intQuery(1, 100, 50) });
export const cardPage = pageSchema("cards", card, { id: "CollectibleCardPage" });

export const collectibleParams = z.strictObject({
  collectibleId: uuidString("Collectible id (UUID)."),
});
