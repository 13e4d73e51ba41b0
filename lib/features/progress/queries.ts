// Progress reads and their serializers: tiers, badges, a user's badge grants and keepsakes, the streak with its
// freezes. The writes (grants, peaks, freezes, featured badges) are writes.ts.
import type { DbTx } from "../../db/client";
import { Prisma } from "../../generated/prisma/client";
import { raw, type RawDb } from "../../db/raw";

export interface TierRow {
  id: string;
  slug: string;
  name: string;
  minRep: number;
  perks: string[];
}

/** Every tier, lowest first. */
export function tiersOf(db: RawDb | DbTx): Promise<TierRow[]> {
  return raw(db).$queryRaw<TierRow[]>`SELECT id::text AS id, slug, name, min_rep AS "minRep", perks FROM tiers ORDER BY min_rep, id`;
}

export const toTier = (t: TierRow) => ({ id: t.id, slug: t.slug, name: t.name, minRep: t.minRep, perks: t.perks });

export interface BadgeRow {
  id: string;
  slug: string;
  name: string;
  description: string;
  rule: "rep_kind" | "streak" | "tier";
  earnKinds: string[];
  threshold: number | null;
  tierId: string | null;
  repeatable: boolean;
  revokeOnReversal: boolean;
  active: boolean;
}

const BADGE_COLUMNS = Prisma.raw(`b.id::text AS id, b.slug, b.name, b.description, b.rule, b.earn_kinds AS "earnKinds", b.threshold,
  b.tier_id::text AS "tierId", b.repeatable, b.revoke_on_reversal AS "revokeOnReversal", b.active`);

/** Badges, by name (with `all`, the inactive ones too: the console). */
export function badgesOf(db: RawDb | DbTx, all = false): Promise<BadgeRow[]> {
  return raw(db).$queryRaw<BadgeRow[]>`SELECT ${BADGE_COLUMNS} FROM badges b WHERE b.active OR ${all} ORDER BY b.name, b.id`;
}

export const toBadge = (b: BadgeRow) => ({
  id: b.id,
  slug: b.slug,
  name: b.name,
  description: b.description,
  rule: b.rule,
  earnKinds: b.earnKinds,
  threshold: b.threshold,
  tierId: b.tierId,
  repeatable: b.repeatable,
  revokeOnReversal: b.revokeOnReversal,
});

export interface OwnedBadgeRow extends BadgeRow {
  count: number;
  firstGrantedAt: Date;
  lastGrantedAt: Date;
  featuredPosition: number | null;
}

/** The badges `userId` holds (active ones), with how often and when, most recently granted first. */
export function ownedBadgesOf(db: RawDb | DbTx, userId: string): Promise<OwnedBadgeRow[]> {
  return raw(db).$queryRaw<OwnedBadgeRow[]>`
    SELECT ${BADGE_COLUMNS}, g.count, g.first AS "firstGrantedAt", g.last AS "lastGrantedAt", fb.position AS "featuredPosition"
     FROM (SELECT badge_id, count(*)::int AS count, min(granted_at) AS first, max(granted_at) AS last
           FROM badge_grants WHERE user_id = ${userId}::uuid GROUP BY badge_id) g
     JOIN badges b ON b.id = g.badge_id AND b.active
     LEFT JOIN featured_badges fb ON fb.user_id = ${userId}::uuid AND fb.badge_id = g.badge_id
     ORDER BY g.last DESC, b.id`;
}

export const toOwnedBadge = (b: OwnedBadgeRow) => ({
  badge: toBadge(b),
  count: b.count,
  firstGrantedAt: b.firstGrantedAt.toISOString(),
  lastGrantedAt: b.lastGrantedAt.toISOString(),
  featuredPosition: b.featuredPosition,
});

export interface KeepsakeRow {
  gameId: string;
  serial: number;
  checkedInAt: Date;
  grantedAt: Date;
  homeTeam: string;
  awayTeam: string;
  startsAt: Date;
}

/** The user's "I was there" keepsakes, newest game first. */
export function keepsakesOf(db: RawDb | DbTx, userId: string): Promise<KeepsakeRow[]> {
  return raw(db).$queryRaw<KeepsakeRow[]>`
    SELECT k.game_id AS "gameId", k.serial, c.created_at AS "checkedInAt", k.granted_at AS "grantedAt",
           ht.name AS "homeTeam", awt.name AS "awayTeam", g.starts_at AS "startsAt"
    FROM arena_keepsakes k JOIN arena_check_ins c ON c.id = k.check_in_id JOIN games g ON g.id = k.game_id
    JOIN teams ht ON ht.id = g.home_team_id JOIN teams awt ON awt.id = g.away_team_id
    WHERE k.user_id = ${userId}::uuid ORDER BY g.starts_at DESC, k.id`;
}

export const toKeepsake = (k: KeepsakeRow) => ({
  gameId: k.gameId,
  serial: k.serial,
  title: `I was there: ${k.homeTeam} vs ${k.awayTeam}`,
  startsAt: k.startsAt.toISOString(),
  checkedInAt: k.checkedInAt.toISOString(),
  grantedAt: k.grantedAt.toISOString(),
});

/** Whether the user exists. */
export async function userExists(db: RawDb | DbTx, userId: string): Promise<boolean> {
  const [exists] = await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM users WHERE id = ${userId}::uuid`;
  return !!exists;
}

/** A check-in `c` at a game that has no keepsake yet. */
export const KEEPSAKE_DUE = Prisma.sql`c.game_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM arena_keepsakes k WHERE k.check_in_id = c.id)`;

/** Whether the user has a check-in at a game with no keepsake yet. */
export async function hasKeepsakesDue(db: RawDb | DbTx, userId: string): Promise<boolean> {
  const [row] = await raw(db).$queryRaw<{ any: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM arena_check_ins c WHERE c.user_id = ${userId}::uuid AND ${KEEPSAKE_DUE}) AS any`;
  return !!row?.any;
}

/** Which of `badgeIds` the user holds (active badges only). */
export async function heldBadgeIds(db: RawDb | DbTx, userId: string, badgeIds: string[]): Promise<string[]> {
  const rows = await raw(db).$queryRaw<{ id: string }[]>`
    SELECT DISTINCT g.badge_id::text AS id FROM badge_grants g JOIN badges b ON b.id = g.badge_id AND b.active
    WHERE g.user_id = ${userId}::uuid AND g.badge_id::text = ANY(${badgeIds})`;
  return rows.map((r) => r.id);
}

export interface StreakRow {
  current: number | null;
  longest: number | null;
  lastDay: Date | null;
  held: number;
  timezone: string | null;
}

/** The user's streak row (none yet: nulls), the freezes held and the user's time zone; none for an unknown user. */
export async function streakRow(db: RawDb | DbTx, userId: string): Promise<StreakRow | undefined> {
  const [row] = await raw(db).$queryRaw<StreakRow[]>`
    SELECT s.current, s.longest, s.last_day AS "lastDay", u.timezone,
           (SELECT count(*)::int FROM streak_freezes f WHERE f.user_id = u.id AND f.used_for_day IS NULL) AS held
    FROM users u LEFT JOIN user_streaks s ON s.user_id = u.id WHERE u.id = ${userId}::uuid`;
  return row;
}

/** The user's spendable Rep. */
export async function repBalanceOf(db: RawDb | DbTx, userId: string): Promise<number> {
  const [{ balance }] = (await raw(db).$queryRaw<{ balance: bigint }[]>`SELECT rep_balance AS balance FROM users WHERE id = ${userId}::uuid`) as [
    { balance: bigint },
  ];
  return Number(balance);
}
