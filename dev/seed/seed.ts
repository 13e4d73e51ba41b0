// Writes the demo data of ./data into the database. Deterministic and idempotent: every row has a fixed id and
// fixed timestamps (createdAt and updatedAt included). Per table, rows that are missing are inserted (createMany with
// skipDuplicates), rows that differ from the seed are updated back to it, and rows that already match are not
// written at all, so a re-run changes nothing, not even the physical order of rows (pg_dump stays byte-identical).
// Rows the seed does not own (users, follows, …) are never touched.

import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "../../lib/generated/prisma/client";
import {
  ACHIEVEMENTS,
  CARDS,
  CHALLENGES,
  COIN_PRODUCTS,
  CONFERENCES,
  DIVISIONS,
  GAMES,
  LEAGUES,
  PACK_WEIGHTS,
  PACKS,
  PASSES,
  PLAYERS,
  QUEST_STEPS,
  QUESTS,
  QUIZ_QUESTIONS,
  RARITIES,
  REWARDS,
  SEED_TIMESTAMP,
  TEAMS,
} from "./data";

export interface SeedCounts {
  challenges: number;
  leagues: number;
  teams: number;
  players: number;
  games: number;
  quests: number;
  questSteps: number;
  quizQuestions: number;
  passes: number;
  rewards: number;
  packs: number;
  cards: number;
  achievements: number;
  coinProducts: number;
}

type Row = { id: string } & Record<string, unknown>;

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  return a === b;
}

/** Splits the seed rows into those missing from `existing` and those whose seeded fields differ. */
function plan<T extends Row>(existing: readonly Row[], rows: readonly T[]): { missing: T[]; changed: T[] } {
  const byId = new Map(existing.map((r) => [r.id, r]));
  const missing: T[] = [];
  const changed: T[] = [];
  for (const row of rows) {
    const current = byId.get(row.id);
    if (!current) missing.push(row);
    else if (Object.keys(row).some((k) => !sameValue(current[k], row[k]))) changed.push(row);
  }
  return { missing, changed };
}

// The three calls every seeded model shares; Prisma's per-model delegates have no common type.
interface Delegate {
  findMany(args: { where: { id: { in: string[] } } }): Promise<Row[]>;
  createMany(args: { data: Row[]; skipDuplicates: boolean }): Promise<unknown>;
  update(args: { where: { id: string }; data: Record<string, unknown> }): Promise<unknown>;
}

/** Inserts the seed rows that are missing and rewrites those that drifted; leaves matching rows untouched. */
async function sync(model: unknown, rows: readonly Row[]): Promise<void> {
  const m = model as Delegate;
  const p = plan(await m.findMany({ where: { id: { in: rows.map((r) => r.id) } } }), rows);
  if (p.missing.length) await m.createMany({ data: p.missing, skipDuplicates: true });
  for (const { id, ...data } of p.changed) await m.update({ where: { id }, data });
}

export async function seed(db: PrismaClient): Promise<SeedCounts> {
  // Fixed timestamps are passed explicitly: Prisma only stamps @updatedAt itself when the field is omitted.
  const stamp = new Date(SEED_TIMESTAMP);
  const times = { createdAt: stamp, updatedAt: stamp };

  const leagues = LEAGUES.map((l) => ({ ...l, archivedAt: null, ...times }));
  const conferences = CONFERENCES.map((c) => ({ ...c }));
  const divisions = DIVISIONS.map((d) => ({ ...d }));
  const teams = TEAMS.map((t) => ({
    ...t,
    foundedDate: new Date(`${t.foundedDate}T00:00:00.000Z`),
    archivedAt: t.archivedAt === null ? null : new Date(t.archivedAt),
    ...times,
  }));
  const players = PLAYERS.map((p) => ({ ...p, ...times }));
  const games = GAMES.map((g) => ({ ...g, startsAt: new Date(g.startsAt), ...times }));
  const passes = PASSES.map((p) => ({ ...p, createdAt: stamp }));
  const quests = QUESTS.map((q) => ({ ...q, retiredAt: q.retiredAt === null ? null : new Date(q.retiredAt), createdAt: stamp }));
  const questSteps = QUEST_STEPS.map((st) => ({ ...st }));
  const quizQuestions = QUIZ_QUESTIONS.map((q) => ({ ...q, choices: [...q.choices], createdAt: stamp }));
  const rewards = REWARDS.map((r) => ({ ...r, ...times }));
  const packs = PACKS.map((p) => ({ ...p, createdAt: stamp }));
  const cards = CARDS.map((c) => ({ ...c, createdAt: stamp }));
  // Version 1 of each pack's odds table: its weights and, per rarity, the cards a draw indexes (by id). Written once:
  // an odds table never changes after it is published.
  const oddsTables = PACKS.map((p) => ({
    packId: p.id,
    version: 1,
    weights: PACK_WEIGHTS[p.id]!,
    pool: Object.fromEntries(
      RARITIES.map((r) => [
        r,
        PACK_WEIGHTS[p.id]![r] > 0
          ? cards
              .filter((c) => c.rarity === r)
              .map((c) => c.id)
              .sort()
          : [],
      ]),
    ),
    createdAt: stamp,
  }));
  const achievements = ACHIEVEMENTS.map((a) => ({ ...a, awardedAt: new Date(a.awardedAt) }));

  await db.$transaction(
    async (tx) => {
      // Parents before children (foreign keys): leagues → conferences → divisions → teams → players, games → passes
      // → quests → quest steps, quiz questions.
      await sync(tx.league, leagues);
      await sync(tx.conference, conferences);
      await sync(tx.division, divisions);
      await sync(tx.team, teams);
      await sync(tx.player, players);
      await sync(tx.game, games);
      await sync(tx.pass, passes);
      await sync(tx.quest, quests);
      await sync(tx.questStep, questSteps);
      await sync(tx.quizQuestion, quizQuestions);
      await sync(tx.reward, rewards);
      await sync(tx.pack, packs);
      await sync(tx.collectibleCard, cards);
      await tx.packOddsTable.createMany({ data: oddsTables, skipDuplicates: true });
      await sync(tx.teamAchievement, achievements);
      // Demo challenges, inserted once (their seed is secret and their reward serials taken from the edition then).
      for (const c of CHALLENGES) {
        // A secret 32-byte seed and its SHA-256, as lib/features/challenges/shuffle.ts draws them (a base layer imports no domain module).
        const seed = randomBytes(32).toString("hex");
        const seedHash = createHash("sha256").update(Buffer.from(seed, "hex")).digest("hex");
        await tx.$executeRaw`
          WITH k AS (
            SELECT minted_count FROM collectible_cards WHERE id = ${c.rewardCardId} AND minted_count + ${c.rewardSupply} <= edition_size FOR UPDATE
          ), ins AS (
            INSERT INTO challenges (id, title, description, starts_at, ends_at, reward_card_id, reward_supply, first_serial, rep_reward, seed, seed_hash, created_at)
            SELECT ${c.id}::uuid, ${c.title}, ${c.description}, ${c.startsAt}::timestamptz, ${c.endsAt}::timestamptz, ${c.rewardCardId},
                   ${c.rewardSupply}, k.minted_count + 1, ${c.repReward}, ${seed}, ${seedHash}, ${stamp}::timestamptz
            FROM k
            ON CONFLICT (id) DO NOTHING
            RETURNING reward_card_id, reward_supply
          )
          UPDATE collectible_cards k SET minted_count = k.minted_count + ins.reward_supply FROM ins WHERE k.id = ins.reward_card_id`;
        await tx.$executeRaw`
          INSERT INTO challenge_cards (challenge_id, card_id, count)
          SELECT ch.id, x.card_id, x.count
          FROM challenges ch, unnest(${c.cards.map((x) => x.cardId)}::text[], ${c.cards.map((x) => x.count)}::int[]) AS x(card_id, count)
          WHERE ch.id = ${c.id}::uuid
          ON CONFLICT DO NOTHING`;
      }
      // Coin bundles by one upsert that writes only rows that differ (prices are JSON, which sync compares by reference).
      const products = JSON.stringify(COIN_PRODUCTS);
      await tx.$executeRaw`
        INSERT INTO coin_products AS c (id, name, coins, prices, app_store_product_id, google_play_product_id, active, sort_order, created_at)
        SELECT p.id, p.name, p.coins, p.prices, p."appStoreProductId", p."googlePlayProductId", true, p."sortOrder", ${stamp}::timestamptz
        FROM jsonb_to_recordset(${products}::jsonb)
          AS p(id text, name text, coins int8, prices jsonb, "appStoreProductId" text, "googlePlayProductId" text, "sortOrder" int)
        ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, coins = EXCLUDED.coins, prices = EXCLUDED.prices,
          app_store_product_id = EXCLUDED.app_store_product_id, google_play_product_id = EXCLUDED.google_play_product_id,
          active = true, sort_order = EXCLUDED.sort_order, created_at = EXCLUDED.created_at
        WHERE (c.name, c.coins, c.prices, c.app_store_product_id, c.google_play_product_id, c.active, c.sort_order, c.created_at)
          IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.coins, EXCLUDED.prices, EXCLUDED.app_store_product_id, EXCLUDED.google_play_product_id,
                            EXCLUDED.active, EXCLUDED.sort_order, EXCLUDED.created_at)`;
    },
    { timeout: 60_000 },
  );

  return {
    leagues: LEAGUES.length,
    teams: TEAMS.length,
    players: PLAYERS.length,
    games: GAMES.length,
    quests: QUESTS.length,
    questSteps: QUEST_STEPS.length,
    quizQuestions: QUIZ_QUESTIONS.length,
    passes: PASSES.length,
    rewards: REWARDS.length,
    packs: PACKS.length,
    cards: CARDS.length,
    achievements: ACHIEVEMENTS.length,
    coinProducts: COIN_PRODUCTS.length,
    challenges: CHALLENGES.length,
  };
}
