// Demo seed data: plain, typed, deterministic constants (no database access, no clocks, no randomness).
// Every row has a fixed id; dev/seed/seed.ts upserts on those ids, so re-running the seed changes nothing.
//
// Facts that tests may rely on:
// - 4 leagues: football (lg_nfl: 2 conferences × 2 divisions), basketball (lg_nba: 2 conferences, no divisions),
//   hockey (lg_nhl: 2 conferences × 2 divisions), soccer (lg_psl: no conferences or divisions).
// - 36 teams; tm_dvs ("dune-valley-scorpions") is the one archived team; tm_cwt ("clearwater-town") is the one
//   team whose sport is "" while its league (lg_psl) is "soccer"; tm_hch and tm_fpb are the two official teams;
//   tm_pap, tm_smp, tm_ebi and tm_cwt are source "manual" with no providerId.
// - tm_hch roster: 12 players; 11 active (8 available, pl_hch_09 injured, pl_hch_10 suspended,
//   pl_hch_11 unavailable) and 1 inactive (pl_hch_12).
// - Head-to-head: tm_hch vs tm_gfg met 3 times (final; tm_hch won 2, lost 1) and meet again on 2027-01-10.

import type {
  GameStatus,
  PassKind,
  PlayerAvailability,
  QuestCadence,
  QuestKind,
  QuestScope,
  QuestStepCondition,
  RepSource,
} from "../../../lib/generated/prisma/enums";

/** createdAt/updatedAt of every seeded row, so re-runs are byte-identical. */
export const SEED_TIMESTAMP = "2026-08-01T00:00:00.000Z";
export const SEED_SEASON = "2026";

export interface SeedLeague {
  id: string;
  slug: string;
  name: string;
  shortName: string;
  sport: string;
  season: string;
  logo: string;
  primaryColor: string;
  secondaryColor: string;
  displayOrder: number;
  source: string;
  providerId: string | null;
}

export interface SeedConference {
  id: string;
  leagueId: string;
  name: string;
}

export interface SeedDivision {
  id: string;
  leagueId: string;
  conferenceId: string | null;
  name: string;
}

export interface SeedTeam {
  id: string;
  slug: string;
  name: string;
  shortName: string;
  abbreviation: string;
  city: string;
  sport: string;
  leagueId: string;
  conferenceId: string | null;
  divisionId: string | null;
  logo: string;
  primaryColor: string;
  secondaryColor: string;
  /** Calendar date, YYYY-MM-DD. */
  foundedDate: string;
  rank: number;
  fanCount: number;
  isOfficial: boolean;
  source: "provider" | "manual";
  providerId: string | null;
  /** ISO timestamp, or null when the team is live. */
  archivedAt: string | null;
}

export interface SeedPlayer {
  id: string;
  teamId: string;
  name: string;
  jersey: string;
  position: string;
  role: string;
  duty: string;
  photo: string | null;
  availability: PlayerAvailability;
  active: boolean;
}

export interface SeedGame {
  id: string;
  leagueId: string;
  season: string;
  homeTeamId: string;
  awayTeamId: string;
  /** ISO timestamp (UTC). */
  startsAt: string;
  status: GameStatus;
  homeScore: number | null;
  awayScore: number | null;
  overtime: boolean;
  venue: string;
  /** The venue's made-up position (the cities are fictional): arena check-ins there must be within its radius. */
  venueLatitude: number;
  venueLongitude: number;
}

export interface SeedQuest {
  id: string;
  slug: string;
  title: string;
  description: string;
  teamId: string | null;
  repReward: number;
  isDaily: boolean;
  active: boolean;
  kind: QuestKind;
  scope: QuestScope;
  cadence: QuestCadence;
  passId: string | null;
  quizLength: number | null;
  quizSeconds: number | null;
  repSource: RepSource;
  /** ISO timestamp, or null while the quest is offered. */
  retiredAt: string | null;
}

export interface SeedQuestStep {
  id: string;
  questId: string;
  position: number;
  title: string;
  condition: QuestStepCondition | null;
}

export interface SeedQuizQuestion {
  id: string;
  questId: string;
  prompt: string;
  choices: string[];
  answerIndex: number;
  active: boolean;
}

export interface SeedPass {
  id: string;
  slug: string;
  name: string;
  kind: PassKind;
  gameId: string | null;
}

export interface SeedReward {
  id: string;
  slug: string;
  title: string;
  description: string;
  costRep: number;
  /** null = unlimited. */
  stock: number | null;
  active: boolean;
  /** redeem: bought with Rep; milestone: claimed free, once, when the milestone is reached (costRep 0). */
  kind: "redeem" | "milestone";
  milestone: "rep_earned" | "quests_completed" | "streak_days" | null;
  milestoneValue: number | null;
  /** Redemptions per user; null = no limit. */
  perUserLimit: number | null;
}

export const CDN = "https://cdn.example.com";

/** FNV-1a, 32-bit: a fixed, portable hash for the deterministic picks. */
export function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
