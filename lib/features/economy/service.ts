import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import type { RawDb } from "../../db/raw";
import { decodeIdCursor, decodeUuidTimeCursor, encodeCursor, encodeIdCursor } from "../../kernel/cursor";
import { DomainError, notFound } from "../../kernel/errors";
import { keysetPage } from "../../kernel/page";
import { lockCollectible } from "../../core/collectibles/service";
import { refuseLocked } from "../challenges/service";
import { assertMayTrade } from "../moderation/service";
import { MintError, mintProvider } from "./provider";
import {
  claimMints,
  insertMint,
  linkedWallet,
  mintById,
  mintsOf,
  recordMintFailure,
  recordMinted,
  setLinkedWallet,
  toPendingNft,
  unmintedOf,
  type MintRequestRow,
} from "./queries";
import { errors as economyErrors } from "./errors";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { hasLiveMint } from "./queries";

// The starter-pack grant, and the NFT mint queue: a fan links a wallet and asks for a collectible to be minted to
// it; the mint worker (a cron route) hands due mints to the provider (provider.ts), records the results, retries
// failures with backoff and never mints one item twice. Wallets, packs and the marketplace are their own modules.

/** The unminted queue, oldest first, keyset-paginated. */
export async function listPendingNfts(db: DbTx, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const rows = await unmintedOf(db, userId, cursor ? decodeUuidTimeCursor(cursor) : undefined, limit + 1);
  return keysetPage("nfts", rows, limit, (r) => encodeCursor(r.createdAt.getTime(), r.id), toPendingNft);
}

// The onboarding starter pack: a PackPurchase with grantKey "onboarding-free-pack", inserted with ON CONFLICT DO
// NOTHING on the unique (user_id, grant_key), so concurrent onboardings grant exactly once and all report the
// same purchase.
export const ONBOARDING_GRANT_KEY = "onboarding-free-pack";

/** The user's onboarding pack purchase id: the existing one, else a new grant of the active starter pack, else null. */
export async function grantStarterPack(db: DbTx, userId: string): Promise<string | null> {
  const where = { userId_grantKey: { userId, grantKey: ONBOARDING_GRANT_KEY } };
  const existing = await db.packPurchase.findUnique({ where, select: { id: true } });
  if (existing) return existing.id;
  const pack = await db.pack.findFirst({ where: { isFreeStarter: true, active: true }, orderBy: { id: "asc" }, select: { id: true } });
  if (!pack) return null;
  await db.packPurchase.createMany({
    data: [{ userId, packId: pack.id, source: "onboarding", grantKey: ONBOARDING_GRANT_KEY }],
    skipDuplicates: true,
  });
  const granted = await db.packPurchase.findUnique({ where, select: { id: true } });
  return granted?.id ?? null;
}

export const MINT_MAX_ATTEMPTS = 5;
/** Seconds before retry n (1-based): 30 s, doubling, at most an hour. */
export const mintBackoffSeconds = (attempt: number) => Math.min(3_600, 30 * 2 ** (attempt - 1));
/** A claim older than this is a worker that died mid-call: the mint is claimed again. */
export const MINT_STALE_SECONDS = 300;

export async function getLinkedWallet(db: RawDb | DbTx, userId: string) {
  const w = await linkedWallet(db, userId);
  return { address: w?.address ?? null, linkedAt: w?.linkedAt?.toISOString() ?? null };
}

/** Links (or replaces) the wallet mints go to; queued mints keep the address they were requested with. */
export async function linkWallet(db: RawDb | DbTx, userId: string, address: string | null) {
  await setLinkedWallet(db, userId, address === null ? null : address.toLowerCase());
  return getLinkedWallet(db, userId);
}

const toMint = (m: MintRequestRow) => ({
  ...m,
  nextAttemptAt: m.status === "pending" ? m.nextAttemptAt.toISOString() : null,
  createdAt: m.createdAt.toISOString(),
  mintedAt: m.mintedAt?.toISOString() ?? null,
});

/**
 * Queues the mint of a collectible the caller owns to their linked wallet: 201 with the new request, or 200 with
 * the live one (an item is minted at most once: mint_key is unique while a mint is queued, running or done).
 */
export async function requestMint(db: Db, userId: string, collectibleId: string) {
  // Minting takes the item off the platform: refused to a fan who may not trade, as listing and trading are.
  await assertMayTrade(db, userId);
  const wallet = await linkedWallet(db, userId);
  if (!wallet?.address) throw new DomainError(economyErrors.WALLET_NOT_LINKED, "Link a wallet with PUT /api/v1/nfts/wallet before minting.");
  const r = await db.$transaction(async (tx) => {
    // Listing and challenge entries take it too: an item is never both listed and minted, nor minted while locked.
    if ((await lockCollectible(tx, collectibleId)) === userId) await refuseLocked(tx, [collectibleId]);
    return insertMint(tx, { id: uuidv7(), userId, collectibleId, walletAddress: wallet.address! });
  });
  if (r.outcome === "not_owner") throw notFound("Collectible");
  if (r.outcome === "listed") throw new DomainError(economyErrors.ITEM_LISTED, "This collectible is listed: cancel the listing to mint it.");
  return { created: r.outcome === "queued", mint: toMint((await mintById(db, r.id))!) };
}

export async function listMints(db: RawDb | DbTx, userId: string, q: { cursor?: string; limit: number }) {
  const rows = await mintsOf(db, userId, q.cursor ? decodeIdCursor(q.cursor) : undefined, q.limit + 1);
  return keysetPage("mints", rows, q.limit, (r) => encodeIdCursor(r.id), toMint);
}

/** The mint worker: claims due mints (at most `take`), hands each to the provider, records what happened. */
export async function runMintWorker(db: RawDb, take = 25) {
  const claimed = await claimMints(db, take, MINT_STALE_SECONDS);
  const provider = mintProvider();
  const out = { claimed: claimed.length, minted: 0, retrying: 0, failed: 0 };
  for (const m of claimed) {
    try {
      const result = await provider.mint({
        mintId: m.id,
        collectibleId: m.collectibleId,
        to: m.walletAddress,
        attempt: m.attempts,
        metadata: { name: m.name, imageUrl: m.imageUrl, serial: m.serial, cardId: m.cardId },
      });
      await recordMinted(db, m.id, result);
      out.minted++;
    } catch (e) {
      const retryable = !(e instanceof MintError) || e.retryable;
      const again = retryable && m.attempts < MINT_MAX_ATTEMPTS;
      await recordMintFailure(db, m.id, (e as Error).message.slice(0, 500), again ? mintBackoffSeconds(m.attempts) : null);
      if (again) out.retrying++;
      else out.failed++;
    }
  }
  return out;
}
