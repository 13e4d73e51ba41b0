import type { AuthUser } from "../../auth/users";
import type { Db, DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { lockUser, txOptions } from "../../db/tx";
import { DomainError, notFound, sharedErrors } from "../../kernel/errors";
import { targetOf } from "../../core/follows/service";
import type { UserRef } from "../../core/follows/schemas";
import { teamSummaries } from "../../core/teams/service";
import { visiblePost, type Viewer } from "../../core/visibility/service";
import { canPostAsTeam } from "../../core/teams/service";
import { errors as lockerroomErrors } from "./errors";
import { countedPins, liveTeamByIdOrSlug, lockTeam, pinnedAt, pinnedPosts, postAuthorOf, type PinProfile } from "./pin-queries";
import { toPost } from "./service";
import { postTeamIds } from "./sharing";
import { deletePin, deletePinsOfDeletedPosts, insertPin } from "./writes";

// Pins (PUT and DELETE /api/locker-room/{postId}/pin; GET /api/v1/users/{userId}/pins, GET /api/teams/{id}/pins):
// a post is pinned on the one profile it belongs to, a fan's own post on the fan's, a post posted as a team on the
// team's (by its staff accounts). At most PINS_MAX per profile: counted under the profile's row lock (the user's, as
// every capped write of a user; the team's), so concurrent pins never pass the cap. Reads apply the visibility rule
// in the statement that reads them: a pinned post that is deleted, hidden, private to a team the reader is not a fan
// of, or whose author and the reader blocked one another is not shown.

export const PINS_MAX = 3;

/** The profile a post is pinned on, if the user may pin it there (403 otherwise). */
async function profileFor(db: RawDb | DbTx, user: AuthUser, post: { authorId: string; authorTeamId: string | null }): Promise<PinProfile> {
  if (post.authorTeamId) {
    if (await canPostAsTeam(db, user, post.authorTeamId)) return { userId: null, teamId: post.authorTeamId };
    throw new DomainError(sharedErrors.FORBIDDEN, "Only the team's staff can pin a post posted as the team.");
  }
  if (post.authorId === user.id) return { userId: user.id, teamId: null };
  throw new DomainError(sharedErrors.FORBIDDEN, "You can pin only your own posts.");
}

async function lockProfile(tx: DbTx, p: PinProfile) {
  if (p.userId) await lockUser(tx, p.userId);
  else await lockTeam(tx, p.teamId!);
}

export async function pinPost(db: Db, user: AuthUser, postId: string, now = new Date()) {
  const at = await db.$transaction(async (tx) => {
    const post = await visiblePost(tx, postId, user);
    if (post.deletedAt || post.hiddenAt) throw notFound("Post");
    const profile = await profileFor(tx, user, post);
    if (post.publishAt > now) throw new DomainError(lockerroomErrors.POST_NOT_PUBLISHED, "A scheduled post can be pinned once it is published.");
    await lockProfile(tx, profile);
    const existing = await pinnedAt(tx, postId);
    if (existing) return existing;
    // Pins of deleted posts go; hidden ones stay (moderation may restore them) but do not count.
    await deletePinsOfDeletedPosts(tx, profile);
    if ((await countedPins(tx, profile)) >= PINS_MAX) {
      throw new DomainError(lockerroomErrors.PIN_LIMIT_REACHED, `At most ${PINS_MAX} posts can be pinned on a profile: unpin one first.`);
    }
    return insertPin(tx, postId, profile);
  }, txOptions());
  return { postId, pinned: true, pinnedAt: at.toISOString() };
}

/** Unpins the post: its author (for a team's post, the team's staff). Idempotent; 404 when the caller may not see it. */
export async function unpinPost(db: Db, user: AuthUser, postId: string) {
  const post = await postAuthorOf(db, postId);
  if (!post) throw notFound("Post");
  try {
    await profileFor(db, user, post);
  } catch (e) {
    await visiblePost(db, postId, user); // 404 rather than 403 for a post the caller may not see
    throw e;
  }
  await deletePin(db, postId);
  return { postId, pinned: false, pinnedAt: null };
}

async function pinsPage(db: Db, viewer: Viewer, profile: PinProfile) {
  const rows = await pinnedPosts(db, viewer, profile, PINS_MAX);
  const teams = await teamSummaries(db, postTeamIds(rows));
  const now = new Date();
  return { pins: rows.map((row) => ({ ...toPost(row, teams, viewer, now), pinnedAt: row.pinnedAt.toISOString() })) };
}

/** A fan's pinned posts, newest pin first: 404 for an unknown user or a block either way (as their profile). */
export async function userPins(db: Db, viewer: Viewer, ref: UserRef) {
  const target = await targetOf(db, viewer?.id ?? null, ref);
  if (!target || (target.blocked && !viewer?.isAdmin)) throw notFound("User");
  return pinsPage(db, viewer, { userId: target.id, teamId: null });
}

/** A team's pinned posts, newest pin first; `{id}` is its id or slug (id first): 404 for an unknown or archived team. */
export async function teamPins(db: Db, viewer: Viewer, idOrSlug: string) {
  const team = await liveTeamByIdOrSlug(db, idOrSlug);
  if (!team) throw notFound("Team");
  return pinsPage(db, viewer, { userId: null, teamId: team.id });
}
