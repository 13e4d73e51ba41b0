// Rewards, packs and their odds, cards, achievements, coin bundles and challenges.

import type { ConsoleProduct } from "../../../lib/features/payments/console-queries";
import { fnv, SEED_TIMESTAMP, type SeedReward } from "./types";
import { TEAMS } from "./teams";
import { PLAYERS } from "./players";

export const REWARDS: readonly SeedReward[] = [
  {
    id: "rw_profile_badge",
    slug: "profile-badge",
    title: "Founding fan badge",
    description: "A profile badge for early supporters.",
    costRep: 50,
    stock: null,
    active: true,
    kind: "redeem",
    milestone: null,
    milestoneValue: null,
    perUserLimit: 1,
  },
  {
    id: "rw_team_sticker_pack",
    slug: "team-sticker-pack",
    title: "Team sticker pack",
    description: "Digital stickers for your favourite team.",
    costRep: 150,
    stock: 500,
    active: true,
    kind: "redeem",
    milestone: null,
    milestoneValue: null,
    perUserLimit: null,
  },
  {
    id: "rw_signed_jersey",
    slug: "signed-jersey",
    title: "Signed jersey raffle entry",
    description: "One entry into the monthly signed-jersey raffle.",
    costRep: 1_000,
    stock: 25,
    active: true,
    kind: "redeem",
    milestone: null,
    milestoneValue: null,
    perUserLimit: null,
  },
  {
    id: "rw_vip_meetup",
    slug: "vip-meetup",
    title: "VIP player meet-up",
    description: "Meet the players after a home game. Sold out for this season.",
    costRep: 5_000,
    stock: 0,
    active: true,
    kind: "redeem",
    milestone: null,
    milestoneValue: null,
    perUserLimit: null,
  },
  {
    id: "rw_first_100_rep",
    slug: "first-100-rep",
    title: "First 100 Rep",
    description: "A profile frame for earning your first 100 Rep.",
    costRep: 0,
    stock: null,
    active: true,
    kind: "milestone",
    milestone: "rep_earned",
    milestoneValue: 100,
    perUserLimit: null,
  },
  {
    id: "rw_streak_7",
    slug: "seven-day-streak",
    title: "7-day streak",
    description: "A streak badge for visiting seven days in a row.",
    costRep: 0,
    stock: null,
    active: true,
    kind: "milestone",
    milestone: "streak_days",
    milestoneValue: 7,
    perUserLimit: null,
  },
];

export interface SeedPack {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  priceRep: number;
  /** COIN minor units (hundredths). */
  price: number;
  itemsPerPack: number;
  stock: number | null;
  isFreeStarter: boolean;
  active: boolean;
}

export const PACKS: readonly SeedPack[] = [
  {
    id: "pk_starter",
    slug: "starter-pack",
    name: "Starter Pack",
    description: "Five collectibles to begin a binder; every new fan gets one at onboarding.",
    priceRep: 0,
    price: 0,
    itemsPerPack: 5,
    stock: null,
    isFreeStarter: true,
    active: true,
  },
  {
    id: "pk_gameday",
    slug: "gameday-pack",
    name: "Gameday Pack",
    description: "Eight collectibles from every league.",
    priceRep: 250,
    price: 25_000,
    itemsPerPack: 8,
    stock: null,
    isFreeStarter: false,
    active: true,
  },
  {
    id: "pk_legends",
    slug: "legends-pack",
    name: "Legends Pack",
    description: "Three collectibles, rare or better; 500 packs only.",
    priceRep: 0,
    price: 100_000,
    itemsPerPack: 3,
    stock: 500,
    isFreeStarter: false,
    active: true,
  },
];

export type SeedRarity = "common" | "rare" | "epic" | "legendary";
export const RARITIES: readonly SeedRarity[] = ["common", "rare", "epic", "legendary"];

/** Odds per rarity in basis points (sum 10,000), version 1 of each pack's odds table. */
export const PACK_WEIGHTS: Record<string, Record<SeedRarity, number>> = {
  pk_starter: { common: 8000, rare: 1700, epic: 280, legendary: 20 },
  pk_gameday: { common: 7000, rare: 2300, epic: 600, legendary: 100 },
  pk_legends: { common: 0, rare: 6500, epic: 2900, legendary: 600 },
};

export interface SeedCard {
  id: string;
  kind: "player" | "team";
  teamId: string;
  playerId: string | null;
  name: string;
  rarity: SeedRarity;
  editionSize: number;
  imageUrl: string | null;
}

const EDITION: Record<SeedRarity, number> = { common: 5000, rare: 500, epic: 100, legendary: 25 };

const CARD_PLAYERS = PLAYERS.filter((p) => p.active && TEAMS.some((t) => t.id === p.teamId && t.archivedAt === null));
/** Rarity by the player's place in a fixed, well-spread order (FNV-1a of the id): the first 5% legendary, then 12% epic, 30% rare, the rest common. */
const PLAYER_RARITY = new Map(
  [...CARD_PLAYERS]
    .sort((a, b) => fnv(a.id) - fnv(b.id) || a.id.localeCompare(b.id))
    .map((p, i, all): [string, SeedRarity] => {
      const q = i / all.length;
      return [p.id, q < 0.05 ? "legendary" : q < 0.17 ? "epic" : q < 0.47 ? "rare" : "common"];
    }),
);

/** The card catalog: every active player of a live team and each live team's crest (rare). */
export const CARDS: readonly SeedCard[] = [
  ...TEAMS.filter((t) => t.archivedAt === null).map((t) => ({
    id: `cc_${t.id}`,
    kind: "team" as const,
    teamId: t.id,
    playerId: null,
    name: `${t.name} crest`,
    rarity: "rare" as const,
    editionSize: EDITION.rare,
    imageUrl: t.logo,
  })),
  ...CARD_PLAYERS.map((p) => {
    const rarity = PLAYER_RARITY.get(p.id)!;
    return {
      id: `cc_${p.id}`,
      kind: "player" as const,
      teamId: p.teamId,
      playerId: p.id,
      name: p.name,
      rarity,
      editionSize: EDITION[rarity],
      imageUrl: p.photo,
    };
  }),
];

export interface SeedAchievement {
  id: string;
  teamId: string;
  key: string;
  title: string;
  description: string | null;
  icon: string | null;
  season: string | null;
  awardedAt: string;
}

export const ACHIEVEMENTS: readonly SeedAchievement[] = [
  {
    id: "ach_hch_champions_2025",
    teamId: "tm_hch",
    key: "champions-2025",
    title: "2025 Champions",
    description: "Won the 2025 championship game.",
    icon: "trophy",
    season: "2025",
    awardedAt: "2026-02-09T03:00:00.000Z",
  },
  {
    id: "ach_hch_division_2025",
    teamId: "tm_hch",
    key: "division-2025",
    title: "Division Winners 2025",
    description: "Finished first in the division.",
    icon: "banner",
    season: "2025",
    awardedAt: "2026-01-05T03:00:00.000Z",
  },
  {
    id: "ach_hch_fans_100k",
    teamId: "tm_hch",
    key: "fans-100k",
    title: "100K Fans",
    description: "More than 100,000 fans follow the club.",
    icon: "crowd",
    season: null,
    awardedAt: "2026-06-01T00:00:00.000Z",
  },
  {
    id: "ach_lsl_streak_10",
    teamId: "tm_lsl",
    key: "win-streak-10",
    title: "Ten Straight",
    description: "Ten wins in a row.",
    icon: "flame",
    season: "2026",
    awardedAt: "2026-11-01T04:00:00.000Z",
  },
  {
    id: "ach_fpb_cup_2026",
    teamId: "tm_fpb",
    key: "cup-2026",
    title: "Cup Winners 2026",
    description: "Lifted the cup.",
    icon: "cup",
    season: "2026",
    awardedAt: "2026-05-20T20:00:00.000Z",
  },
];

/** A coin bundle as lib/features/payments reads and the console edits it (coin_products), on sale (every seeded one is). */
export type SeedCoinProduct = Omit<ConsoleProduct, "active">;

// The coin bundles on sale (lib/features/payments): three sizes, the bigger ones with a bonus.
export const COIN_PRODUCTS: readonly SeedCoinProduct[] = [
  {
    id: "coins_500",
    name: "500 coins",
    coins: 50_000,
    prices: { eur: 499, gbp: 449, usd: 499 },
    appStoreProductId: "com.example.fanapp.coins500",
    googlePlayProductId: "coins_500",
    sortOrder: 1,
  },
  {
    id: "coins_1200",
    name: "1,200 coins",
    coins: 120_000,
    prices: { eur: 999, gbp: 899, usd: 999 },
    appStoreProductId: "com.example.fanapp.coins1200",
    googlePlayProductId: "coins_1200",
    sortOrder: 2,
  },
  {
    id: "coins_2600",
    name: "2,600 coins",
    coins: 260_000,
    prices: { eur: 1999, gbp: 1799, usd: 1999 },
    appStoreProductId: "com.example.fanapp.coins2600",
    googlePlayProductId: "coins_2600",
    sortOrder: 3,
  },
];

export interface SeedChallenge {
  id: string;
  title: string;
  description: string;
  startsAt: string;
  endsAt: string;
  cards: { cardId: string; count: number }[];
  rewardCardId: string;
  rewardSupply: number;
  repReward: number;
}

/**
 * Collection challenges (lib/features/challenges). Inserted once: the secret seed ordering the reward serials is drawn when the
 * row is first written and the reward's serials are taken from the card's edition then; a re-run leaves both alone.
 */
export const CHALLENGES: readonly SeedChallenge[] = [
  {
    id: "01980000-0000-7000-8000-00000000c001",
    title: "Hawks front line",
    description: "Collect the Hawks' first three players before the end of the season; the first 50 collectors get a numbered Hawks crest.",
    startsAt: SEED_TIMESTAMP,
    endsAt: "2027-06-30T00:00:00.000Z",
    cards: [
      { cardId: "cc_pl_hch_01", count: 1 },
      { cardId: "cc_pl_hch_02", count: 1 },
      { cardId: "cc_pl_hch_03", count: 1 },
    ],
    rewardCardId: "cc_tm_hch",
    rewardSupply: 50,
    repReward: 100,
  },
];
