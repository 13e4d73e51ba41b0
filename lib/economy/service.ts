import type { Db, DbTx } from "../db/client";
import { decodeUuidTimeCursor, encodeCursor } from "../http/cursor";
import { keysetPage } from "../http/page";
import { toPendingNft, unmintedOf } from "./queries";

// The collectibles economy: today the starter-pack grant and the unminted NFT queue; the economy issue adds
// wallets, packs, collectibles, binders and the marketplace here.

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
export async function grantStarterPack(db: Db, userId: string): Promise<string | null> {
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
