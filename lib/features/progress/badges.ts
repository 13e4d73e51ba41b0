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
import { rawTransaction, type RawDb } from "../../db/raw";
import { lockUser, txOptions } from "../../db/tx";
import { DomainError, notFound } from "../../kernel/errors";
import { errors as followsErrors } from "../../core/follows/errors";
import { targetOf } from "../../core/follows/service";
import { previousSeason, seasonOf } from "../../core/rep/leaderboard/service";
import type { UserRef } from "../../core/follows/schemas";
import type { AuthUser } from "../../auth/users";
import { errors as progressErrors } from "./errors";
import { badgesOf, hasKeepsakesDue, heldBadgeIds, keepsakesOf, ownedBadgesOf, toBadge, toKeepsake, toOwnedBadge } from "./queries";
import { grantBadges, insertKeepsakes, lockKeepsakeSerials, refreshSeasonPeaks, replaceFeatured } from "./writes";

/** GET /api/v1/badges: the active badges. */
export async function listBadges(db: RawDb | DbTx) {
  return { badges: (await badgesOf(db)).map(toBadge) };
}

/**
 * "I was there" keepsakes for verified check-ins at a game that have none (everyone's, or only at the games `userId`
 * checked in at and has none for), numbered per game after the last serial the game gave, in arrival order (check-in
 * time, then id). One statement under a transaction-scoped advisory lock, so concurrent runs never give a number twice.
 */
export async function grantKeepsakes(db: Db, userId?: string): Promise<number> {
  if (userId && !(await hasKeepsakesDue(db, userId))) return 0;
  return rawTransaction(db, async (tx) => {
    await lockKeepsakeSerials(tx);
    return insertKeepsakes(tx, userId);
  });
}

/**
 * The badges cron: the season peaks, every missing grant, then the keepsakes. The previous season's peaks are refreshed
 * too: a run after the season ended records what its last hours earned, however many hourly slots were missed
 * before the boundary (its ledger no longer changes, so this is a no-op once done).
 */
export async function runBadgesCron(db: Db, now = new Date()) {
  const current = seasonOf(now);
  await refreshSeasonPeaks(db, previousSeason(current));
  await refreshSeasonPeaks(db, current);
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
    const held = new Set(await heldBadgeIds(tx, userId, badgeIds));
    const missing = badgeIds.map((id, i) => ({ id, i })).filter((x) => !held.has(x.id));
    if (missing.length > 0) {
      throw new DomainError(
        progressErrors.BADGE_NOT_OWNED,
        "Only badges you hold can be featured.",
        missing.map((m) => ({ path: `body.badgeIds.${m.i}`, message: "Not held" })),
      );
    }
    await replaceFeatured(tx, userId, badgeIds);
    return badgesView(tx, userId);
  }, txOptions());
}
