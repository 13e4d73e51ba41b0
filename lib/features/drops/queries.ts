import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { int8, raw, type Int8, type RawDb } from "../../db/raw";
import { DECIMALS } from "../../core/wallets/schemas";

// Drops, their allowlists, entries and the pack purchases entries got.

export interface DropRow {
  id: string;
  name: string;
  packId: string;
  packSlug: string;
  packName: string;
  itemsPerPack: number;
  mode: "draw" | "queue";
  price: number;
  currency: "COIN";
  quantity: number;
  soldCount: number;
  perUserCap: number;
  opensAt: Date;
  closesAt: Date;
  allowlistOpensAt: Date | null;
  queueWindow: number;
  orderedCount: number | null;
  queueLength: number;
  servedCount: number;
  seed: string;
  seedHash: string;
  orderedAt: Date | null;
  createdAt: Date;
  /** The database's clock when the row was read: windows are judged by it. */
  now: Date;
}

const DROP = Prisma.sql`
  SELECT d.id::text AS id, d.name, d.pack_id AS "packId", p.slug AS "packSlug", p.name AS "packName", p.items_per_pack AS "itemsPerPack",
         d.mode::text AS mode, d.price, d.currency::text AS currency, d.quantity, d.sold_count AS "soldCount", d.per_user_cap AS "perUserCap",
         d.opens_at AS "opensAt", d.closes_at AS "closesAt", d.allowlist_opens_at AS "allowlistOpensAt", d.queue_window AS "queueWindow",
         d.ordered_count AS "orderedCount", d.queue_length AS "queueLength", d.served_count AS "servedCount",
         d.seed, d.seed_hash AS "seedHash", d.ordered_at AS "orderedAt", d.created_at AS "createdAt", now() AS now
  FROM drops d JOIN packs p ON p.id = d.pack_id`;

const toRow = (r: Int8<DropRow, "price">) => int8(r, ["price"]);

export async function dropById(db: RawDb | DbTx, id: string): Promise<DropRow | undefined> {
  const [row] = await raw(db).$queryRaw<Int8<DropRow, "price">[]>`${DROP} WHERE d.id = ${id}::uuid`;
  return row && toRow(row);
}

/** The drop under a row lock: `share` for entries and withdrawals (they wait for a draw), `update` for sales and the draw. */
export async function lockDrop(tx: DbTx, id: string, mode: "share" | "update", skipLocked = false): Promise<DropRow | undefined> {
  const lock = mode === "share" ? Prisma.sql`FOR SHARE OF d` : skipLocked ? Prisma.sql`FOR UPDATE OF d SKIP LOCKED` : Prisma.sql`FOR UPDATE OF d`;
  const [row] = await tx.$queryRaw<Int8<DropRow, "price">[]>`${DROP} WHERE d.id = ${id}::uuid ${lock}`;
  return row && toRow(row);
}

/** Drops newest first (keyset on id, a uuidv7: creation order). */
export async function dropsPage(db: RawDb | DbTx, before: string | undefined, take: number) {
  const rows = await raw(db).$queryRaw<Int8<DropRow, "price">[]>`
    ${DROP} WHERE (${before ?? null}::uuid IS NULL OR d.id < ${before ?? null}::uuid) ORDER BY d.id DESC LIMIT ${take}`;
  return rows.map(toRow);
}

/** Claims one drop whose order is due (draw: past closesAt; queue: past opensAt), skipping drops another run holds. */
export async function claimDueDrop(tx: DbTx): Promise<DropRow | undefined> {
  const [row] = await tx.$queryRaw<Int8<DropRow, "price">[]>`
    ${DROP} WHERE d.ordered_at IS NULL AND ((d.mode = 'draw' AND d.closes_at <= now()) OR (d.mode = 'queue' AND d.opens_at <= now()))
    ORDER BY d.closes_at LIMIT 1 FOR UPDATE OF d SKIP LOCKED`;
  return row && toRow(row);
}

export async function insertDrop(
  tx: DbTx,
  d: {
    id: string;
    name: string;
    packId: string;
    mode: "draw" | "queue";
    price: number;
    quantity: number;
    perUserCap: number;
    opensAt: Date;
    closesAt: Date;
    allowlistOpensAt: Date | null;
    queueWindow: number;
    seed: string;
    seedHash: string;
    createdBy: string;
  },
) {
  await tx.$executeRaw`
    INSERT INTO drops (id, name, pack_id, mode, price, quantity, per_user_cap, opens_at, closes_at, allowlist_opens_at, queue_window, seed, seed_hash, created_by)
    VALUES (${d.id}::uuid, ${d.name}, ${d.packId}, ${d.mode}::"DropMode", ${d.price}, ${d.quantity}, ${d.perUserCap}, ${d.opensAt}, ${d.closesAt},
            ${d.allowlistOpensAt}, ${d.queueWindow}, ${d.seed}, ${d.seedHash}, ${d.createdBy})`;
}

/** Allowlists the given users (those that exist) and a team's members; answers how many rows were added. */
export async function insertAllowlist(tx: DbTx, dropId: string, userIds: string[], teamId: string | undefined) {
  let n = 0;
  if (userIds.length > 0) {
    n += await tx.$executeRaw`
      INSERT INTO drop_allowlist (drop_id, user_id) SELECT ${dropId}::uuid, u.id FROM users u WHERE u.id = ANY(${userIds}::uuid[]) ON CONFLICT DO NOTHING`;
  }
  if (teamId) {
    n += await tx.$executeRaw`
      INSERT INTO drop_allowlist (drop_id, user_id) SELECT ${dropId}::uuid, m.user_id FROM team_members m WHERE m.team_id = ${teamId} ON CONFLICT DO NOTHING`;
  }
  return n;
}

export async function isAllowlisted(db: RawDb | DbTx, dropId: string, userId: string): Promise<boolean> {
  const rows = await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM drop_allowlist WHERE drop_id = ${dropId}::uuid AND user_id = ${userId}::uuid`;
  return rows.length > 0;
}

export interface EntryRow {
  id: string;
  dropId: string;
  userId: string;
  status: "entered" | "won" | "lost" | "withdrawn" | "waiting";
  quantity: number;
  held: number;
  won: number;
  position: number | null;
  ineligibleCode: string | null;
  purchases: string[];
  createdAt: Date;
  settledAt: Date | null;
}

const ENTRY = Prisma.sql`
  SELECT e.id::text AS id, e.drop_id::text AS "dropId", e.user_id::text AS "userId", e.status::text AS status, e.quantity, e.held,
         e.won_quantity AS won, e.position, e.ineligible_code AS "ineligibleCode",
         COALESCE((SELECT array_agg(dp.purchase_id::text ORDER BY dp.purchase_id) FROM drop_purchases dp WHERE dp.entry_id = e.id), '{}') AS purchases,
         e.created_at AS "createdAt", e.settled_at AS "settledAt"
  FROM drop_entries e`;

export async function entryOf(db: RawDb | DbTx, dropId: string, userId: string, lock = false): Promise<EntryRow | undefined> {
  // The lock is taken by a statement of its own (a locking read with a subquery re-checks only the locked row).
  if (lock) await raw(db).$queryRaw`SELECT 1 FROM drop_entries WHERE drop_id = ${dropId}::uuid AND user_id = ${userId}::uuid FOR UPDATE`;
  const [row] = await raw(db).$queryRaw<Int8<EntryRow, "held">[]>`${ENTRY} WHERE e.drop_id = ${dropId}::uuid AND e.user_id = ${userId}::uuid`;
  return row && int8(row, ["held"]);
}

/** Every entry of a drop in a status, by id (the draw and the queue order read them). */
export async function entriesOf(tx: DbTx, dropId: string, statuses: EntryRow["status"][]) {
  const rows = await tx.$queryRaw<Int8<EntryRow, "held">[]>`${ENTRY} WHERE e.drop_id = ${dropId}::uuid AND e.status::text = ANY(${statuses}) ORDER BY e.id`;
  return rows.map((r) => int8(r, ["held"]));
}

/** Entries with a position, by position (the published order). */
export async function orderedEntries(db: RawDb | DbTx, dropId: string, upTo: number | null) {
  const rows = await raw(db).$queryRaw<Int8<EntryRow, "held">[]>`
    ${ENTRY} WHERE e.drop_id = ${dropId}::uuid AND e.position IS NOT NULL AND (${upTo}::int IS NULL OR e.position <= ${upTo}::int) ORDER BY e.position`;
  return rows.map((r) => int8(r, ["held"]));
}

/** Inserts an entry; none when the user has one in this drop (the unique (drop, user)). */
export async function insertEntry(
  tx: DbTx,
  e: { id: string; dropId: string; userId: string; status: "entered" | "waiting"; quantity: number; held: number; position: number | null },
): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`
    INSERT INTO drop_entries (id, drop_id, user_id, status, quantity, held, position)
    VALUES (${e.id}::uuid, ${e.dropId}::uuid, ${e.userId}::uuid, ${e.status}::"DropEntryStatus", ${e.quantity}, ${e.held}, ${e.position})
    ON CONFLICT (drop_id, user_id) DO NOTHING RETURNING 1`;
  return rows.length > 0;
}

/** Re-enters a withdrawn entry (a fan who withdrew enters again); none unless it was withdrawn. */
export async function reenter(tx: DbTx, id: string, e: { status: "entered" | "waiting"; quantity: number; held: number; position: number | null }) {
  const rows = await tx.$queryRaw<unknown[]>`
    UPDATE drop_entries SET status = ${e.status}::"DropEntryStatus", quantity = ${e.quantity}, held = ${e.held}, position = ${e.position},
           created_at = now(), settled_at = NULL
    WHERE id = ${id}::uuid AND status = 'withdrawn' AND won_quantity = 0 RETURNING 1`;
  return rows.length > 0;
}

/**
 * Moves an entry out of `from` (a conditional UPDATE: the one transition that releases a hold, so a hold is released
 * exactly once however many runs race). Answers the row as it was, or none when it had moved already.
 */
export async function settleEntry(
  tx: DbTx,
  id: string,
  from: EntryRow["status"],
  to: { status: EntryRow["status"]; won?: number; ineligibleCode?: string | null },
): Promise<{ held: number; quantity: number } | undefined> {
  const [row] = await tx.$queryRaw<{ held: bigint; quantity: number }[]>`
    UPDATE drop_entries SET status = ${to.status}::"DropEntryStatus", won_quantity = won_quantity + ${to.won ?? 0},
           ineligible_code = ${to.ineligibleCode ?? null}, settled_at = now()
    WHERE id = ${id}::uuid AND status = ${from}::"DropEntryStatus"
    RETURNING held, quantity`;
  return row && int8(row, ["held"]);
}

export async function setPositions(tx: DbTx, positions: { id: string; position: number }[]) {
  if (positions.length === 0) return;
  await tx.$executeRaw`
    UPDATE drop_entries e SET position = v.position
    FROM unnest(${positions.map((p) => p.id)}::uuid[], ${positions.map((p) => p.position)}::int[]) AS v(id, position) WHERE e.id = v.id`;
}

export async function markOrdered(tx: DbTx, dropId: string, o: { sold?: number; orderedCount?: number }) {
  await tx.$executeRaw`
    UPDATE drops SET ordered_at = now(), sold_count = sold_count + ${o.sold ?? 0},
           ordered_count = ${o.orderedCount ?? null}, queue_length = COALESCE(${o.orderedCount ?? null}, queue_length)
    WHERE id = ${dropId}::uuid`;
}

/** Queue: the next position behind everyone (a late joiner), under the drop's row lock. */
export async function nextPosition(tx: DbTx, dropId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ position: number }[]>`
    UPDATE drops SET queue_length = queue_length + 1 WHERE id = ${dropId}::uuid RETURNING queue_length AS position`;
  return row!.position;
}

/** Queue: counts `n` packs sold (and a new fan served when `firstBuy`); the CHECK backs the stock up. */
export async function countSale(tx: DbTx, dropId: string, n: number, firstBuy: boolean) {
  await tx.$executeRaw`
    UPDATE drops SET sold_count = sold_count + ${n}, served_count = served_count + ${firstBuy ? 1 : 0} WHERE id = ${dropId}::uuid`;
}

export async function addWon(tx: DbTx, entryId: string, n: number) {
  await tx.$executeRaw`UPDATE drop_entries SET won_quantity = won_quantity + ${n}, settled_at = now() WHERE id = ${entryId}::uuid`;
}

/** Pack purchases (source purchase, so spending limits count them) for an entry, one per pack. */
export async function insertDropPurchases(tx: DbTx, p: { ids: string[]; entryId: string; userId: string; packId: string; price: number; currency: "COIN" }) {
  await tx.$executeRaw`
    INSERT INTO pack_purchases (id, user_id, pack_id, source, price, currency)
    SELECT id, ${p.userId}::uuid, ${p.packId}, 'purchase', ${p.price}, ${p.currency}::"Currency" FROM unnest(${p.ids}::uuid[]) AS id`;
  await tx.$executeRaw`INSERT INTO drop_purchases (purchase_id, entry_id) SELECT id, ${p.entryId}::uuid FROM unnest(${p.ids}::uuid[]) AS id`;
}

export const toEntry = (e: EntryRow) => ({
  id: e.id,
  dropId: e.dropId,
  status: e.status,
  quantity: e.quantity,
  held: e.held,
  won: e.won,
  position: e.position,
  ineligibleCode: e.ineligibleCode,
  purchases: e.purchases,
  createdAt: e.createdAt.toISOString(),
  settledAt: e.settledAt?.toISOString() ?? null,
});

export function statusOf(d: DropRow): "upcoming" | "open" | "closed" | "drawn" {
  const now = d.now.getTime();
  if (now < d.opensAt.getTime()) return "upcoming";
  if (now < d.closesAt.getTime()) return "open";
  return d.mode === "draw" && d.orderedAt ? "drawn" : "closed";
}

export const toDrop = (d: DropRow) => ({
  id: d.id,
  name: d.name,
  pack: { id: d.packId, slug: d.packSlug, name: d.packName, itemsPerPack: d.itemsPerPack },
  mode: d.mode,
  price: d.price,
  currency: d.currency,
  decimals: DECIMALS[d.currency],
  quantity: d.quantity,
  sold: d.soldCount,
  remaining: d.quantity - d.soldCount,
  perUserCap: d.perUserCap,
  opensAt: d.opensAt.toISOString(),
  closesAt: d.closesAt.toISOString(),
  allowlistOpensAt: d.allowlistOpensAt?.toISOString() ?? null,
  status: statusOf(d),
  queue: d.mode === "queue" ? { window: d.queueWindow, servingUpTo: d.servedCount + d.queueWindow, length: d.queueLength } : null,
  seedHash: d.seedHash,
  seed: d.orderedAt ? d.seed : null,
  orderedAt: d.orderedAt?.toISOString() ?? null,
  createdAt: d.createdAt.toISOString(),
});

/**
 * The economy invariant's part for drops: draw entries whose ledger rows (reference drop_entry) do not net what the
 * entry's state says: minus the hold while entered, minus the packs won at the price once won, 0 once lost or withdrawn.
 */
export function dropLedgerMismatches(db: RawDb | DbTx, limit = 100) {
  return raw(db).$queryRaw<{ entryId: string; status: string; expected: number; ledger: number }[]>`
    SELECT e.id::text AS "entryId", e.status::text AS status, x.expected::float8 AS expected, coalesce(w.net, 0)::float8 AS ledger
    FROM drop_entries e JOIN drops d ON d.id = e.drop_id
    CROSS JOIN LATERAL (SELECT CASE e.status WHEN 'entered' THEN -e.held WHEN 'won' THEN -(e.won_quantity * d.price) ELSE 0 END AS expected) x
    LEFT JOIN (SELECT reference_id, sum(amount) AS net FROM wallet_transactions WHERE reference_type = 'drop_entry' GROUP BY reference_id) w
      ON w.reference_id = e.id::text
    WHERE d.mode = 'draw' AND coalesce(w.net, 0) <> x.expected
    ORDER BY e.id LIMIT ${limit}`;
}
