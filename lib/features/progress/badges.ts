// Badges: the catalogue, a fan's badges (behind the same privacy and blocks as their follow lists), the featured
// three, and granting. Grants are computed from data other modules already keep (the Rep ledger, the streak row, the
// season peaks): grantBadges inserts every grant that qualifies and is missing (ON CONFLICT DO NOTHING on
// (user, badge, grant key)), so it is a backfill that is safe to run twice or concurrently. It runs for everyone in
// the badges cron and for one user before their badges are read, never on the Rep credit path. A reversal removes the
// grants of the reversed credit at once when the badge says so (the trigger rep_entries_reversal_progress), and a
// reversed credit never qualifies again. A verified arena check-in at a game also gets an "I was there" keepsake,
// numbered per game in arrival order (grantKeepsakes), kept apart from the marketplace's collectibles so it is never
// tradable.
import type { Db, DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { raw, rawTransaction, type RawDb } from "../../db/raw";
import { lockUser, txOptions } from "../../db/tx";
import { DomainError, notFound } from "../../kernel/errors";
import { Prisma } from "../../generated/prisma/client";
import { errors as followsErrors } from "../../core/follows/errors";
import { targetOf } from "../../core/follows/service";
import type { UserRef } from "../../core/follows/schemas";
import type { AuthUser } from "../../auth/users";
import { errors as progressErrors } from "./errors";
import { badgesOf, keepsakesOf, ownedBadgesOf, toBadge, toKeepsake, toOwnedBadge } from "./queries";
import { refreshSeasonPeaks } from "./tiers";

/** GET /api/v1/badges: the active badges. */
export async function listBadges(db: RawDb | DbTx) {
  return { badges: (await badgesOf(db)).map(toBadge) };
}

/** A credit that was not reversed (its reversal's grant key is reversal:<id>, lib/operations/admin reverseEntry). */
const NOT_REVERSED = Prisma.sql`NOT EXISTS (SELECT 1 FROM rep_entries r WHERE r.user_id = e.user_id AND r.grant_key = 'reversal:' || e.id::text)`;

/** Grants every badge that qualifies and is missing, for everyone or `userId`. Answers how many grants it wrote. */
export async function grantBadges(db: RawDb | DbTx, userId?: string): Promise<number> {
  const e = userId ? Prisma.sql`AND e.user_id = ${userId}::uuid` : Prisma.empty;
  const s = userId ? Prisma.sql`AND s.user_id = ${userId}::uuid` : Prisma.empty;
  const p = userId ? Prisma.sql`AND p.user_id = ${userId}::uuid` : Prisma.empty;
  const q = raw(db);
  const once = await q.$executeRaw`
    INSERT INTO badge_grants (id, user_id, badge_id, grant_key, source_entry_id, granted_at)
    SELECT ${UUIDV7_SQL}, x.user_id, x.badge_id, 'once', x.entry_id, x.at FROM (
      SELECT DISTINCT ON (e.user_id, b.id) e.user_id, b.id AS badge_id, e.id AS entry_id, e.created_at AS at
      FROM badges b JOIN rep_entries e ON e.earn_kind = ANY(b.earn_kinds) AND e.amount > 0 ${e}
      WHERE b.active AND b.rule = 'rep_kind' AND NOT b.repeatable AND ${NOT_REVERSED}
      ORDER BY e.user_id, b.id, e.created_at, e.id
    ) x
    ON CONFLICT (user_id, badge_id, grant_key) DO NOTHING`;
  const repeated = await q.$executeRaw`
    INSERT INTO badge_grants (id, user_id, badge_id, grant_key, source_entry_id, granted_at)
    SELECT ${UUIDV7_SQL}, e.user_id, b.id, e.id::text, e.id, e.created_at
    FROM badges b JOIN rep_entries e ON e.earn_kind = ANY(b.earn_kinds) AND e.amount > 0 ${e}
    WHERE b.active AND b.rule = 'rep_kind' AND b.repeatable AND ${NOT_REVERSED}
    ON CONFLICT (user_id, badge_id, grant_key) DO NOTHING`;
  const streaks = await q.$executeRaw`
    INSERT INTO badge_grants (id, user_id, badge_id, grant_key)
    SELECT ${UUIDV7_SQL}, s.user_id, b.id, 'once'
    FROM badges b JOIN user_streaks s ON s.longest >= b.threshold ${s}
    WHERE b.active AND b.rule = 'streak'
    ON CONFLICT (user_id, badge_id, grant_key) DO NOTHING`;
  const tiers = await q.$executeRaw`
    INSERT INTO badge_grants (id, user_id, badge_id, grant_key)
    SELECT ${UUIDV7_SQL}, x.user_id, x.badge_id, 'once' FROM (
      SELECT DISTINCT p.user_id, b.id AS badge_id
      FROM badges b JOIN tiers t ON t.id = b.tier_id JOIN user_season_peaks p ON p.peak_earned >= t.min_rep ${p}
      WHERE b.active AND b.rule = 'tier'
    ) x
    ON CONFLICT (user_id, badge_id, grant_key) DO NOTHING`;
  return once + repeated + streaks + tiers;
}

/**
 * "I was there" keepsakes for verified check-ins at a game that have none (everyone's, or only at the games `userId`
 * checked in at and has none for), numbered per game after the last serial the game gave, in arrival order (check-in
 * time, then id). One statement under a transaction-scoped advisory lock, so concurrent runs never give a number twice.
 */
export async function grantKeepsakes(db: Db, userId?: string): Promise<number> {
  const pending = Prisma.sql`c.game_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM arena_keepsakes k WHERE k.check_in_id = c.id)`;
  if (userId) {
    const [row] = await raw(db).$queryRaw<{ any: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM arena_check_ins c WHERE c.user_id = ${userId}::uuid AND ${pending}) AS any`;
    if (!row?.any) return 0;
  }
  const games = userId
    ? Prisma.sql`AND c.game_id IN (SELECT c2.game_id FROM arena_check_ins c2 WHERE c2.user_id = ${userId}::uuid AND c2.game_id IS NOT NULL)`
    : Prisma.empty;
  // Serials continue from the game's counter (games.keepsake_serial), moved in the same statement, never from the
  // highest keepsake still held: an erasure deletes its fan's keepsakes, and their serials must not come back.
  return rawTransaction(db, async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('arena_keepsakes'))`;
    return tx.$executeRaw`
      WITH fresh AS (
        SELECT c.user_id, c.game_id, c.id, row_number() OVER (PARTITION BY c.game_id ORDER BY c.created_at, c.id) AS n
        FROM arena_check_ins c WHERE ${pending} ${games}
      ), counted AS (
        UPDATE games g SET keepsake_serial = g.keepsake_serial + f.n
        FROM (SELECT game_id, count(*)::int AS n FROM fresh GROUP BY game_id) f
        WHERE g.id = f.game_id
        RETURNING g.id, g.keepsake_serial - f.n AS base
      )
      INSERT INTO arena_keepsakes (id, user_id, game_id, check_in_id, serial)
      SELECT ${UUIDV7_SQL}, fresh.user_id, fresh.game_id, fresh.id, (counted.base + fresh.n)::int
      FROM fresh JOIN counted ON counted.id = fresh.game_id`;
  });
}

/** The badges cron: the current season's peaks, every missing grant, then the keepsakes. */
export async function runBadgesCron(db: Db, now = new Date()) {
  await refreshSeasonPeaks(db, now);
  const granted = await grantBadges(db);
  return { granted, keepsakes: await grantKeepsakes(db) };
}

async function badgesView(db: RawDb | DbTx, userId: string) {
  const [owned, keepsakes] = await Promise.all([ownedBadgesOf(db, userId), keepsakesOf(db, userId)]);
  const badges = owned.map(toOwnedBadge);
  const featured = badges.filter((b) => b.featuredPosition !== null).sort((a, b) => a.featuredPosition! - b.featuredPosition!);
  return { featured, badges, keepsakes: keepsakes.map(toKeepsake) };
}

/**
 * GET /api/v1/users/{userId}/badges: 404 for an unknown user or a block either way (staff excepted); a private
 * profile's badges only to its followers, itself and staff (403 PROFILE_PRIVATE), as its follow lists.
 */
export async function userBadges(db: Db, viewer: Pick<AuthUser, "id" | "isAdmin"> | null, ref: UserRef) {
  const t = await targetOf(db, viewer?.id ?? null, ref);
  if (!t || (t.blocked && !viewer?.isAdmin)) throw notFound("User");
  if (t.isPrivate && !t.viewerFollows && viewer?.id !== t.id && !viewer?.isAdmin) {
    throw new DomainError(followsErrors.PROFILE_PRIVATE, "This profile is private: only its followers see its badges.");
  }
  await grantBadges(db, t.id);
  await grantKeepsakes(db, t.id);
  return badgesView(db, t.id);
}

/** PUT /api/v1/me/badges/featured: replaces the featured badges (held ones only, in order), under the user's lock. */
export async function setFeatured(db: Db, userId: string, badgeIds: string[]) {
  await grantBadges(db, userId);
  return db.$transaction(async (tx) => {
    if (!(await lockUser(tx, userId))) throw notFound("User");
    const held = new Set(
      (
        await raw(tx).$queryRaw<{ id: string }[]>`
        SELECT DISTINCT g.badge_id::text AS id FROM badge_grants g JOIN badges b ON b.id = g.badge_id AND b.active
        WHERE g.user_id = ${userId}::uuid AND g.badge_id::text = ANY(${badgeIds})`
      ).map((r) => r.id),
    );
    const missing = badgeIds.map((id, i) => ({ id, i })).filter((x) => !held.has(x.id));
    if (missing.length > 0) {
      throw new DomainError(
        progressErrors.BADGE_NOT_OWNED,
        "Only badges you hold can be featured.",
        missing.map((m) => ({ path: `body.badgeIds.${m.i}`, message: "Not held" })),
      );
    }
    await raw(tx).$executeRaw`DELETE FROM featured_badges WHERE user_id = ${userId}::uuid`;
    if (badgeIds.length > 0) {
      await raw(tx).$executeRaw`
        INSERT INTO featured_badges (user_id, position, badge_id)
        SELECT ${userId}::uuid, u.n::int, u.id::uuid FROM unnest(${badgeIds}::text[]) WITH ORDINALITY AS u(id, n)`;
    }
    return badgesView(tx, userId);
  }, txOptions());
}
