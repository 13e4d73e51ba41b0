import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { raw, type RawDb } from "../../db/raw";
import { CARD_COLUMNS, type CollectibleRow } from "../../core/collectibles/service";

// Collection challenges: the challenges with their cards, entries and their items, rewards; and lockedItems, the one
// definition of an item locked by a challenge entry.

export interface ChallengeRow {
  id: string;
  title: string;
  description: string | null;
  startsAt: Date;
  endsAt: Date;
  rewardCardId: string | null;
  rewardSupply: number;
  firstSerial: number | null;
  repReward: number;
  completions: number;
  seed: string;
  seedHash: string;
  createdAt: Date;
}

const CHALLENGE = Prisma.sql`
  SELECT id::text AS id, title, description, starts_at AS "startsAt", ends_at AS "endsAt", reward_card_id AS "rewardCardId",
         reward_supply AS "rewardSupply", first_serial AS "firstSerial", rep_reward AS "repReward", completions, seed,
         seed_hash AS "seedHash", created_at AS "createdAt"
  FROM challenges`;

export async function challengeById(db: RawDb | DbTx, id: string): Promise<ChallengeRow | undefined> {
  const [row] = await raw(db).$queryRaw<ChallengeRow[]>`${CHALLENGE} WHERE id = ${id}::uuid`;
  return row;
}

/** Challenges newest first (keyset on the time-ordered id), optionally by status at `now`. */
export function challengesPage(db: RawDb | DbTx, q: { status?: "upcoming" | "open" | "ended"; before?: string; take: number }) {
  const where = [Prisma.sql`true`];
  if (q.status === "upcoming") where.push(Prisma.sql`starts_at > now()`);
  if (q.status === "open") where.push(Prisma.sql`starts_at <= now() AND ends_at > now()`);
  if (q.status === "ended") where.push(Prisma.sql`ends_at <= now()`);
  if (q.before) where.push(Prisma.sql`id < ${q.before}::uuid`);
  return raw(db).$queryRaw<ChallengeRow[]>`${CHALLENGE} WHERE ${Prisma.join(where, " AND ")} ORDER BY id DESC LIMIT ${q.take}`;
}

export type CardRow = Omit<CollectibleRow, "id" | "serial" | "ownerId" | "purchaseId" | "drawIndex" | "acquiredAt">;

/** The cards of these challenges (required, with their count) and their reward cards (count null). */
export function cardsOfChallenges(db: RawDb | DbTx, ids: string[]) {
  return raw(db).$queryRaw<(CardRow & { challengeId: string; count: number | null })[]>`
    SELECT cc.challenge_id::text AS "challengeId", cc.count, ${CARD_COLUMNS}
    FROM challenge_cards cc JOIN collectible_cards k ON k.id = cc.card_id WHERE cc.challenge_id = ANY(${ids}::uuid[])
    UNION ALL
    SELECT c.id::text, NULL, ${CARD_COLUMNS}
    FROM challenges c JOIN collectible_cards k ON k.id = c.reward_card_id WHERE c.id = ANY(${ids}::uuid[])
    ORDER BY 1, 3`;
}

export async function existingCards(db: RawDb | DbTx, ids: string[]): Promise<Set<string>> {
  const rows = await raw(db).$queryRaw<{ id: string }[]>`SELECT id FROM collectible_cards WHERE id = ANY(${ids}::text[])`;
  return new Set(rows.map((r) => r.id));
}

/** Takes `supply` serials of the card's edition at once: the first of them, none when fewer are left. */
export async function reserveSerials(tx: DbTx, cardId: string, supply: number): Promise<number | undefined> {
  const [row] = await tx.$queryRaw<{ first: number }[]>`
    UPDATE collectible_cards SET minted_count = minted_count + ${supply} WHERE id = ${cardId} AND minted_count + ${supply} <= edition_size
    RETURNING minted_count - ${supply} + 1 AS first`;
  return row?.first;
}

export async function insertChallenge(tx: DbTx, c: Omit<ChallengeRow, "completions" | "createdAt">, cards: { cardId: string; count: number }[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO challenges (id, title, description, starts_at, ends_at, reward_card_id, reward_supply, first_serial, rep_reward, seed, seed_hash)
    VALUES (${c.id}::uuid, ${c.title}, ${c.description}, ${c.startsAt}, ${c.endsAt}, ${c.rewardCardId}, ${c.rewardSupply}, ${c.firstSerial},
            ${c.repReward}, ${c.seed}, ${c.seedHash})`;
  await tx.$executeRaw`
    INSERT INTO challenge_cards (challenge_id, card_id, count)
    SELECT ${c.id}::uuid, x.card_id, x.count FROM unnest(${cards.map((x) => x.cardId)}::text[], ${cards.map((x) => x.count)}::int[]) AS x(card_id, count)`;
}

export interface LockedItem {
  collectibleId: string;
  /** What holds the lock: an entry of a collection challenge, or a contest lineup (lib/features/contests). */
  kind: "challenge" | "contest";
  /** The challenge's or the contest's id. */
  holderId: string;
  title: string;
  /** A challenge's end; null for a contest (its lineups' cards are locked until it settles). */
  endsAt: Date | null;
}

/**
 * The one definition of a locked item: a collectible in an entry of a challenge that has not ended, or in a lineup of
 * a contest that has not settled (the lineup card's lock slot, cleared at settlement). Every path an item could leave
 * by calls this under the item's row lock (refuseLocked in lib/features/marketplace/ownership.ts; trades' checks).
 */
export function lockedItems(db: RawDb | DbTx, collectibleIds: string[]) {
  return raw(db).$queryRaw<LockedItem[]>`
    SELECT i.locked_item_id::text AS "collectibleId", 'challenge' AS kind, c.id::text AS "holderId", c.title, c.ends_at AS "endsAt"
    FROM challenge_entry_items i JOIN challenges c ON c.id = i.challenge_id
    WHERE i.locked_item_id = ANY(${collectibleIds}::uuid[]) AND c.ends_at > now()
    UNION ALL
    SELECT l.locked_item_id::text, 'contest', k.id::text, k.title, NULL::timestamptz
    FROM contest_lineup_cards l JOIN contests k ON k.id = l.contest_id
    WHERE l.locked_item_id = ANY(${collectibleIds}::uuid[]) AND k.settled_at IS NULL
    ORDER BY 1`;
}

/** What holds a lock, for messages: `challenge <id> ("title") until <end>` or `contest <id> ("title") until it settles`. */
export const lockedBy = (l: LockedItem) => `${l.kind} ${l.holderId} ("${l.title}") until ${l.endsAt ? l.endsAt.toISOString() : "it settles"}`;

/** Clears the lock slot of these items where it is held by an ended challenge's entry (under the items' row locks). */
export const releaseEndedLocks = (tx: DbTx, collectibleIds: string[]) =>
  tx.$executeRaw`
    UPDATE challenge_entry_items i SET locked_item_id = NULL FROM challenges c
    WHERE c.id = i.challenge_id AND i.locked_item_id = ANY(${collectibleIds}::uuid[]) AND c.ends_at <= now()`;

export interface EntryRow {
  id: string;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Creates the caller's entry if missing and locks it (the first lock of an entry change, before the collectibles). */
export async function lockEntry(tx: DbTx, challengeId: string, userId: string): Promise<EntryRow> {
  await tx.$executeRaw`
    INSERT INTO challenge_entries (id, challenge_id, user_id) VALUES (${UUIDV7_SQL}, ${challengeId}::uuid, ${userId}::uuid)
    ON CONFLICT (challenge_id, user_id) DO NOTHING`;
  const [row] = await tx.$queryRaw<EntryRow[]>`
    SELECT id::text AS id, completed_at AS "completedAt", created_at AS "createdAt", updated_at AS "updatedAt"
    FROM challenge_entries WHERE challenge_id = ${challengeId}::uuid AND user_id = ${userId}::uuid FOR UPDATE`;
  return row!;
}

/** Locks the caller's entry if there is one (withdrawing). */
export async function lockExistingEntry(tx: DbTx, challengeId: string, userId: string): Promise<EntryRow | undefined> {
  const [row] = await tx.$queryRaw<EntryRow[]>`
    SELECT id::text AS id, completed_at AS "completedAt", created_at AS "createdAt", updated_at AS "updatedAt"
    FROM challenge_entries WHERE challenge_id = ${challengeId}::uuid AND user_id = ${userId}::uuid FOR UPDATE`;
  return row;
}

export async function entryOf(db: RawDb | DbTx, challengeId: string, userId: string) {
  const [row] = await raw(db).$queryRaw<(EntryRow & { collectibleIds: string[] })[]>`
    SELECT e.id::text AS id, e.completed_at AS "completedAt", e.created_at AS "createdAt", e.updated_at AS "updatedAt",
           coalesce(array(SELECT i.collectible_id::text FROM challenge_entry_items i WHERE i.entry_id = e.id ORDER BY i.collectible_id), '{}') AS "collectibleIds"
    FROM challenge_entries e WHERE e.challenge_id = ${challengeId}::uuid AND e.user_id = ${userId}::uuid`;
  return row;
}

export async function entryItemIds(db: RawDb | DbTx, entryId: string): Promise<string[]> {
  const rows = await raw(db).$queryRaw<{ id: string }[]>`
    SELECT collectible_id::text AS id FROM challenge_entry_items WHERE entry_id = ${entryId}::uuid ORDER BY collectible_id`;
  return rows.map((r) => r.id);
}

export interface ItemState {
  id: string;
  ownerId: string;
  cardId: string;
  listed: boolean;
  minted: boolean;
}

/** What an entry checks of each item, read under the items' row locks. */
export function itemStates(db: RawDb | DbTx, collectibleIds: string[]) {
  return raw(db).$queryRaw<ItemState[]>`
    SELECT c.id::text AS id, c.owner_id::text AS "ownerId", c.card_id AS "cardId",
           EXISTS (SELECT 1 FROM listings l WHERE l.active_item_id = c.id) AS listed,
           EXISTS (SELECT 1 FROM nft_mints m WHERE m.mint_key = c.id::text) AS minted
    FROM collectibles c WHERE c.id = ANY(${collectibleIds}::uuid[])`;
}

export const deleteEntryItems = (tx: DbTx, entryId: string, collectibleIds: string[]) =>
  tx.$executeRaw`DELETE FROM challenge_entry_items WHERE entry_id = ${entryId}::uuid AND collectible_id = ANY(${collectibleIds}::uuid[])`;

export const insertEntryItems = (tx: DbTx, e: { entryId: string; challengeId: string }, items: { id: string; cardId: string }[]) =>
  tx.$executeRaw`
    INSERT INTO challenge_entry_items (entry_id, collectible_id, challenge_id, card_id, locked_item_id)
    SELECT ${e.entryId}::uuid, x.id, ${e.challengeId}::uuid, x.card_id, x.id
    FROM unnest(${items.map((i) => i.id)}::uuid[], ${items.map((i) => i.cardId)}::text[]) AS x(id, card_id)`;

export const touchEntry = (tx: DbTx, entryId: string, completed: boolean) =>
  tx.$executeRaw`
    UPDATE challenge_entries SET updated_at = now(), completed_at = CASE WHEN ${completed} THEN now() ELSE NULL END WHERE id = ${entryId}::uuid`;

export const deleteEntry = (tx: DbTx, entryId: string) => tx.$executeRaw`DELETE FROM challenge_entries WHERE id = ${entryId}::uuid`;

/** The next completion's rank, under the challenge's row lock (held to the end of the transaction). */
export async function takeRank(tx: DbTx, challengeId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ rank: number }[]>`
    UPDATE challenges SET completions = completions + 1 WHERE id = ${challengeId}::uuid RETURNING completions AS rank`;
  return row!.rank;
}

/** A reward copy for its first owner, with the first line of its history (reason challenge_reward). */
export const insertRewardCopy = (tx: DbTx, c: { id: string; cardId: string; serial: number; ownerId: string; challengeId: string }) =>
  tx.$executeRaw`
    WITH c AS (
      INSERT INTO collectibles (id, card_id, serial, owner_id) VALUES (${c.id}::uuid, ${c.cardId}, ${c.serial}, ${c.ownerId}::uuid) RETURNING id
    )
    INSERT INTO collectible_transfers (id, collectible_id, from_user_id, to_user_id, reason, reference_id)
    SELECT ${UUIDV7_SQL}, c.id, NULL, ${c.ownerId}::uuid, 'challenge_reward', ${c.challengeId} FROM c`;

export const insertReward = (
  tx: DbTx,
  r: { challengeId: string; userId: string; rank: number; serial: number | null; collectibleId: string | null; repAwarded: number },
) =>
  tx.$executeRaw`
    INSERT INTO challenge_rewards (challenge_id, user_id, rank, serial, collectible_id, rep_awarded)
    VALUES (${r.challengeId}::uuid, ${r.userId}::uuid, ${r.rank}, ${r.serial}, ${r.collectibleId}::uuid, ${r.repAwarded})`;

export interface RewardRow {
  rank: number;
  serial: number | null;
  collectibleId: string | null;
  repAwarded: number;
  createdAt: Date;
}

export async function rewardOf(db: RawDb | DbTx, challengeId: string, userId: string): Promise<RewardRow | undefined> {
  const [row] = await raw(db).$queryRaw<RewardRow[]>`
    SELECT rank, serial, collectible_id::text AS "collectibleId", rep_awarded AS "repAwarded", created_at AS "createdAt"
    FROM challenge_rewards WHERE challenge_id = ${challengeId}::uuid AND user_id = ${userId}::uuid`;
  return row;
}

/** The caller's copies of the required cards (at most `perCard` each), with what the progress shows of them. */
export function ownedCopies(db: RawDb | DbTx, userId: string, challengeId: string, perCard: number) {
  return raw(db).$queryRaw<
    (CollectibleRow & {
      listed: boolean;
      minted: boolean;
      inEntry: boolean;
      lockedById: string | null;
      lockedByTitle: string | null;
      lockedUntil: Date | null;
      contestId: string | null;
      contestTitle: string | null;
    })[]
  >`
    SELECT x.*, l.challenge_id AS "lockedById", l.title AS "lockedByTitle", l.ends_at AS "lockedUntil",
           k.id AS "contestId", k.title AS "contestTitle"
    FROM challenge_cards cc
    CROSS JOIN LATERAL (
      SELECT c.id::text AS id, c.serial, c.owner_id::text AS "ownerId", c.purchase_id::text AS "purchaseId", c.draw_index AS "drawIndex",
             c.acquired_at AS "acquiredAt", ${CARD_COLUMNS},
             EXISTS (SELECT 1 FROM listings li WHERE li.active_item_id = c.id) AS listed,
             EXISTS (SELECT 1 FROM nft_mints m WHERE m.mint_key = c.id::text) AS minted,
             EXISTS (SELECT 1 FROM challenge_entry_items i JOIN challenge_entries e ON e.id = i.entry_id
                     WHERE i.collectible_id = c.id AND e.challenge_id = cc.challenge_id AND e.user_id = ${userId}::uuid) AS "inEntry"
      FROM collectibles c JOIN collectible_cards k ON k.id = c.card_id
      WHERE c.owner_id = ${userId}::uuid AND c.card_id = cc.card_id
      ORDER BY c.serial LIMIT ${perCard}
    ) x
    LEFT JOIN LATERAL (
      SELECT ch.id::text AS challenge_id, ch.title, ch.ends_at FROM challenge_entry_items i JOIN challenges ch ON ch.id = i.challenge_id
      WHERE i.locked_item_id = x.id::uuid AND ch.ends_at > now() AND ch.id <> cc.challenge_id
    ) l ON true
    LEFT JOIN LATERAL (
      SELECT ct.id::text, ct.title FROM contest_lineup_cards lc JOIN contests ct ON ct.id = lc.contest_id
      WHERE lc.locked_item_id = x.id::uuid AND ct.settled_at IS NULL
    ) k ON true
    WHERE cc.challenge_id = ${challengeId}::uuid
    ORDER BY x."cardId", x.serial`;
}
