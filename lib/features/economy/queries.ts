import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";

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

export interface MintRequestRow {
  id: string;
  collectibleId: string;
  name: string;
  imageUrl: string | null;
  status: "pending" | "minting" | "minted" | "failed";
  walletAddress: string | null;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  txHash: string | null;
  tokenId: string | null;
  createdAt: Date;
  mintedAt: Date | null;
}

const MINT = Prisma.sql`
  SELECT m.id::text AS id, m.item_id AS "collectibleId", m.name, m.image_url AS "imageUrl", m.status::text AS status,
         m.wallet_address AS "walletAddress", m.attempts, m.next_attempt_at AS "nextAttemptAt", m.last_error AS "lastError",
         m.tx_hash AS "txHash", m.token_id AS "tokenId", m.created_at AS "createdAt", m.minted_at AS "mintedAt"
  FROM nft_mints m`;

export async function mintById(db: RawDb | DbTx, id: string): Promise<MintRequestRow | undefined> {
  const [row] = await raw(db).$queryRaw<MintRequestRow[]>`${MINT} WHERE m.id = ${id}::uuid`;
  return row;
}

/** The user's mint requests, newest first. */
export function mintsOf(db: RawDb | DbTx, userId: string, before: string | undefined, take: number) {
  const keyset = before ? Prisma.sql`AND m.id < ${before}::uuid` : Prisma.empty;
  return raw(db).$queryRaw<MintRequestRow[]>`${MINT} WHERE m.user_id = ${userId}::uuid ${keyset} ORDER BY m.id DESC LIMIT ${take}`;
}

/**
 * Queues the mint of a collectible its owner asked for, to their linked wallet: none when the item is not theirs
 * ("not_owner"), is listed ("listed"), or already has a live mint (its id, "exists").
 */
export async function insertMint(tx: DbTx, m: { id: string; userId: string; collectibleId: string; walletAddress: string }) {
  const [row] = await tx.$queryRaw<{ owned: boolean; listed: boolean; inserted: string | null }[]>`
    WITH item AS (
      SELECT c.id, k.name, k.image_url, c.serial FROM collectibles c JOIN collectible_cards k ON k.id = c.card_id
      WHERE c.id = ${m.collectibleId}::uuid AND c.owner_id = ${m.userId}::uuid
    ), listed AS (
      SELECT 1 FROM listings WHERE active_item_id = ${m.collectibleId}::uuid
    ), ins AS (
      INSERT INTO nft_mints (id, user_id, item_type, item_id, name, image_url, mint_key, wallet_address)
      SELECT ${m.id}::uuid, ${m.userId}::uuid, 'collectible', item.id::text, item.name || ' #' || item.serial, item.image_url, item.id::text,
             ${m.walletAddress}
      FROM item WHERE NOT EXISTS (SELECT 1 FROM listed)
      ON CONFLICT (mint_key) DO NOTHING
      RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM item) AS owned, EXISTS (SELECT 1 FROM listed) AS listed, (SELECT id::text FROM ins) AS inserted`;
  const r = row!;
  if (!r.owned) return { outcome: "not_owner" as const };
  if (r.listed) return { outcome: "listed" as const };
  if (r.inserted) return { outcome: "queued" as const, id: r.inserted };
  // A statement of its own: the insert's snapshot predates a concurrent request's mint it waited for.
  const [existing] = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM nft_mints WHERE mint_key = ${m.collectibleId}`;
  return { outcome: "exists" as const, id: existing!.id };
}

/** Whether the item is minted to a wallet or on its way (its mint is queued, running or done): it stays where it is. */
export async function hasLiveMint(db: RawDb | DbTx, collectibleId: string): Promise<boolean> {
  const rows = await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM nft_mints WHERE mint_key = ${collectibleId}`;
  return rows.length > 0;
}

export interface ClaimedMint {
  id: string;
  collectibleId: string;
  walletAddress: string;
  attempts: number;
  name: string;
  imageUrl: string | null;
  serial: number;
  cardId: string;
}

/**
 * Claims due mints for this run: pending ones whose next attempt is due, and minting ones whose claim is older than
 * `staleSeconds` (a worker that died mid-call; the provider's idempotency key makes the retry safe). SKIP LOCKED and
 * the status change keep concurrent runs from claiming the same mint. Only requested mints (mint_key set) are claimed.
 */
export function claimMints(db: RawDb | DbTx, take: number, staleSeconds: number) {
  return raw(db).$queryRaw<ClaimedMint[]>`
    WITH due AS (
      SELECT id FROM nft_mints
      WHERE mint_key IS NOT NULL
        AND ((status = 'pending' AND next_attempt_at <= now()) OR (status = 'minting' AND claimed_at < now() - make_interval(secs => ${staleSeconds})))
      ORDER BY next_attempt_at LIMIT ${take} FOR UPDATE SKIP LOCKED
    )
    UPDATE nft_mints m SET status = 'minting', claimed_at = now(), attempts = m.attempts + 1
    FROM due, collectibles c
    WHERE m.id = due.id AND c.id::text = m.item_id
    RETURNING m.id::text AS id, m.item_id AS "collectibleId", m.wallet_address AS "walletAddress", m.attempts, m.name,
              m.image_url AS "imageUrl", c.serial, c.card_id AS "cardId"`;
}

export const recordMinted = (db: RawDb | DbTx, id: string, r: { txHash: string; tokenId: string }) =>
  raw(db).$executeRaw`
    UPDATE nft_mints SET status = 'minted', minted_at = now(), tx_hash = ${r.txHash}, token_id = ${r.tokenId}, last_error = NULL
    WHERE id = ${id}::uuid AND status = 'minting'`;

/** A failed attempt: back to pending after `retryInSeconds`, or failed for good (the item may be queued again). */
export const recordMintFailure = (db: RawDb | DbTx, id: string, error: string, retryInSeconds: number | null) =>
  retryInSeconds === null
    ? raw(db).$executeRaw`
        UPDATE nft_mints SET status = 'failed', mint_key = NULL, last_error = ${error} WHERE id = ${id}::uuid AND status = 'minting'`
    : raw(db).$executeRaw`
        UPDATE nft_mints SET status = 'pending', last_error = ${error}, next_attempt_at = now() + make_interval(secs => ${retryInSeconds})
        WHERE id = ${id}::uuid AND status = 'minting'`;

export async function linkedWallet(db: RawDb | DbTx, userId: string) {
  const [row] = await raw(db).$queryRaw<{ address: string | null; linkedAt: Date | null }[]>`
    SELECT nft_wallet_address AS address, nft_wallet_linked_at AS "linkedAt" FROM users WHERE id = ${userId}::uuid`;
  return row;
}

export const setLinkedWallet = (db: RawDb | DbTx, userId: string, address: string | null) =>
  raw(db).$executeRaw`
    UPDATE users SET nft_wallet_address = ${address}, nft_wallet_linked_at = CASE WHEN ${address}::text IS NULL THEN NULL ELSE now() END
    WHERE id = ${userId}::uuid`;
