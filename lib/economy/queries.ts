import { Prisma } from "../generated/prisma/client";
import type { DbTx } from "../db/client";
import { raw } from "../db/raw";

export interface MintRow {
  id: string;
  itemType: string;
  itemId: string;
  name: string;
  imageUrl: string | null;
  status: "pending" | "minting";
  createdAt: Date;
}

export const toPendingNft = (r: MintRow) => ({ ...r, createdAt: r.createdAt.toISOString() });

/** A user's unminted queue (status pending or minting), oldest first (createdAt asc, id asc), after the cursor. */
export function unmintedOf(db: DbTx, userId: string, after: { at: Date; id: string } | undefined, take: number) {
  const keyset = after ? Prisma.sql`AND (m.created_at, m.id) > (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<MintRow[]>`
    SELECT m.id::text AS id, m.item_type AS "itemType", m.item_id AS "itemId", m.name, m.image_url AS "imageUrl",
           m.status::text AS status, m.created_at AS "createdAt"
    FROM nft_mints m
    WHERE m.user_id = ${userId}::uuid AND m.status IN ('pending', 'minting') ${keyset}
    ORDER BY m.created_at, m.id LIMIT ${take}`;
}
