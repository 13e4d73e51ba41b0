import type { DbTx } from "../../db/client";
import { userIdSql } from "./writes";

// The erasure's reads (eraseAccount in service.ts), in its transaction.

export interface Holdings {
  ownListings: { id: string; collectibleId: string }[];
  leading: { id: string; collectibleId: string }[];
  offersMade: { id: string; collectibleId: string; buyerId: string }[];
  offersReceived: { id: string; collectibleId: string; buyerId: string }[];
}

/** What the user has open in the marketplace, read before locking (each is re-read under its lock). */
export async function holdingsOf(tx: DbTx, userId: string): Promise<Holdings> {
  const u = userIdSql(userId);
  const ownListings = await tx.$queryRaw<Holdings["ownListings"]>`
      SELECT id::text AS id, collectible_id::text AS "collectibleId" FROM listings WHERE seller_id = ${u} AND status = 'active'`;
  const leading = await tx.$queryRaw<Holdings["leading"]>`
      SELECT l.id::text AS id, l.collectible_id::text AS "collectibleId" FROM bids b JOIN listings l ON l.top_bid_id = b.id
      WHERE b.bidder_id = ${u} AND b.released_at IS NULL AND l.status = 'active'`;
  const offersMade = await tx.$queryRaw<Holdings["offersMade"]>`
      SELECT id::text AS id, collectible_id::text AS "collectibleId", buyer_id::text AS "buyerId" FROM offers WHERE buyer_id = ${u} AND status = 'open'`;
  const offersReceived = await tx.$queryRaw<Holdings["offersReceived"]>`
      SELECT o.id::text AS id, o.collectible_id::text AS "collectibleId", o.buyer_id::text AS "buyerId"
      FROM collectibles c JOIN offers o ON o.collectible_id = c.id AND o.status = 'open' WHERE c.owner_id = ${u}`;
  return { ownListings, leading, offersMade, offersReceived };
}

/** The statuses of the user's pending and minting mints, their rows locked in id order. */
export function lockLiveMints(tx: DbTx, userId: string) {
  const u = userIdSql(userId);
  return tx.$queryRaw<{ status: string }[]>`
    SELECT status::text AS status FROM nft_mints WHERE user_id = ${u} AND status IN ('pending', 'minting') ORDER BY id FOR UPDATE`;
}

/** The user's COIN balance (0 without a wallet). */
export async function coinBalanceOf(tx: DbTx, userId: string): Promise<number> {
  const u = userIdSql(userId);
  const [w] = await tx.$queryRaw<{ balance: bigint }[]>`SELECT balance FROM wallets WHERE user_id = ${u} AND currency = 'COIN'`;
  return Number(w?.balance ?? 0);
}

/** The storage keys of the user's uploads (and of direct uploads' originals) and data exports, read before their rows go. */
export async function uploadedFiles(tx: DbTx, userId: string): Promise<string[]> {
  const u = userIdSql(userId);
  const rows = await tx.$queryRaw<{ key: string }[]>`
    SELECT key FROM media_uploads WHERE user_id = ${u} UNION SELECT pathname FROM direct_uploads WHERE user_id = ${u}
    UNION SELECT file_key FROM data_exports WHERE user_id = ${u} AND file_key IS NOT NULL`;
  return rows.map((r) => r.key);
}
