import type { AuthUser } from "../../auth/users";
import type { Db } from "../../db/client";
import { txOptions } from "../../db/tx";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { visiblePost, type Viewer } from "../../core/visibility/service";
import { countsOf, deleteReaction, moveCounts, notifyReaction, reactionOf, reactorsPage, upsertReaction } from "./queries";
import type { ReactionKind } from "./schemas";
import { notePushSoon } from "../../core/push/service";

// One reaction per user and post. Every change runs under the post's row lock (visiblePost … FOR UPDATE), reads the
// caller's current reaction and moves the post's counts by exactly that difference: counts equal the rows, however
// many fans react at once. A post the caller may not see (blocks either way included) is 404.

export async function putReaction(db: Db, user: AuthUser, postId: string, kind: ReactionKind) {
  return db.$transaction(async (tx) => {
    await visiblePost(tx, postId, user, { forUpdate: true });
    const before = await reactionOf(tx, postId, user.id);
    if (before === kind) return { reactions: await countsOf(tx, postId), reaction: kind };
    await upsertReaction(tx, postId, user.id, kind);
    const reactions = await moveCounts(tx, postId, before, kind);
    if (!before) {
      await notifyReaction(tx, postId, user.id, kind);
      notePushSoon();
    }
    return { reactions, reaction: kind };
  }, txOptions());
}

export async function removeReaction(db: Db, user: AuthUser, postId: string) {
  return db.$transaction(async (tx) => {
    await visiblePost(tx, postId, user, { forUpdate: true });
    const before = await reactionOf(tx, postId, user.id);
    if (!before) return { reactions: await countsOf(tx, postId), reaction: null };
    await deleteReaction(tx, postId, user.id);
    return { reactions: await moveCounts(tx, postId, before, null), reaction: null };
  }, txOptions());
}

export async function listReactions(db: Db, viewer: Viewer, postId: string, q: { kind?: ReactionKind; cursor?: string; limit: number }) {
  await visiblePost(db, postId, viewer);
  const rows = await reactorsPage(db, postId, {
    kind: q.kind,
    viewerId: viewer?.id,
    after: q.cursor ? decodeUuidTimeCursor(q.cursor) : undefined,
    take: q.limit + 1,
  });
  return keysetPage(
    "reactions",
    rows,
    q.limit,
    (last) => encodeCursor(last.createdAt.getTime(), last.userId),
    (r) => ({
      user: { id: r.userId, handle: r.handle, displayName: r.displayName, avatarUrl: r.avatarUrl },
      kind: r.kind as ReactionKind,
      createdAt: r.createdAt.toISOString(),
    }),
    (r) => !r.hidden,
  );
}
