import { z } from "zod";
import { collectible } from "../../core/collectibles/schemas";
import { cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";

export const BINDERS_MAX = 50;
export const BINDER_ITEMS_MAX = 500;
const uuid = (what: string) => uuidString(`${what} (UUID).`);
const name = z.string().trim().min(1).max(60).meta({ description: "1..60 characters." });

export const binder = z
  .object({
    id: z.string(),
    userId: z.string(),
    name: z.string(),
    isPublic: z.boolean().meta({ description: "Shown to others (unless the owner's profile is private)." }),
    position: z.number().int(),
    cover: z.object({ url: z.string(), thumbhash: z.string().nullable() }).nullable().meta({ description: "Set with POST /api/upload/binder-cover." }),
    itemCount: z.number().int(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: "Binder" });

export const bindersResponse = z.object({ binders: z.array(binder) }).meta({ id: "Binders" });
export const binderResponse = z.object({ binder }).meta({ id: "BinderResponse" });
export const binderItem = collectible.extend({ position: z.number().int(), addedAt: isoDateTime }).meta({ id: "BinderItem" });
export const binderPage = z
  .object({ binder, items: z.array(binderItem), nextCursor: z.string().optional().meta({ description: "Present only when more items remain." }) })
  .meta({ id: "BinderWithItems" });

export const userParams = z.strictObject({ userId: uuid("User id") });
export const binderParams = z.strictObject({ binderId: uuid("Binder id") });
export const itemParams = binderParams.extend({ collectibleId: uuid("Collectible id") });
export const itemsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 50) });

export const createBinderBody = z.strictObject({ name, isPublic: z.boolean().optional().default(false) }).meta({ id: "BinderCreate" });
export const updateBinderBody = z
  .strictObject({ name: name.optional(), isPublic: z.boolean().optional() })
  .refine((b) => b.name !== undefined || b.isPublic !== undefined, { message: "Send name or isPublic", path: ["name"] })
  .meta({ id: "BinderUpdate" });
export const reorderBody = z
  .strictObject({ binderIds: z.array(uuid("Binder id")).max(BINDERS_MAX).meta({ description: "Every one of the caller's binders, in the new order." }) })
  .meta({ id: "BinderOrder" });
export const addItemBody = z.strictObject({ collectibleId: uuid("A collectible the caller owns") }).meta({ id: "BinderItemAdd" });
export const removed = z.object({ removed: z.boolean().meta({ description: "False when the item was not in the binder (nothing changed)." }) });
