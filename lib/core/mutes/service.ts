import type { Db, DbTx } from "../../db/client";
import { rawTransaction, type RawDb } from "../../db/raw";
import { lockUser } from "../../db/tx";
import { DomainError, notFound, sharedErrors } from "../../kernel/errors";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { errors as mutesErrors } from "./errors";
import { deleteFilter, deleteMute, filtersOf, filterTotals, insertFilter, liveMuteCount, mutesOf, toFilter, toMute, updateFilter, upsertMute } from "./queries";
import { FILTERS_MAX, KEYWORDS_MAX, MUTES_MAX, type FilterBody, type FilterPatch, type MuteBody } from "./schemas";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { mutingSql, filtersVersionSql, notMutedActorSql, mutedAuthorSql } from "./queries";
export { viewerTextFilter } from "./matcher";

// Account mutes (POST, GET /api/user/mutes; DELETE …/{userId}) and keyword filters (/api/v1/me/filters): what the
// caller chooses not to see. A mute is one-way and invisible to the muted account (nothing it reads changes). Caps
// (MUTES_MAX mutes; FILTERS_MAX filters and KEYWORDS_MAX keywords in all) are counted under the user's row lock, so
// concurrent requests cannot pass them; they keep every read's mute array and filter expression small.

// Mutes ----------------------------------------------------------------------------------------------------------

/** Mutes an account, or changes the mute's expiry and notifications flag; `created` when it was not muted before. */
export async function muteUser(db: Db, muterId: string, body: MuteBody) {
  if (body.userId === muterId) {
    throw new DomainError(mutesErrors.CANNOT_MUTE_SELF, "You cannot mute yourself.", [{ path: "body.userId", message: "This is you" }]);
  }
  return rawTransaction(db, async (tx) => {
    if (!(await lockUser(tx, muterId))) throw notFound("User");
    const { count, has } = await liveMuteCount(tx, muterId, body.userId);
    if (!has && count >= MUTES_MAX) {
      throw new DomainError(mutesErrors.MUTE_LIMIT, `An account mutes at most ${MUTES_MAX} others: unmute one first.`);
    }
    const row = await upsertMute(tx, muterId, body.userId, body.notifications, body.expiresAt ? new Date(body.expiresAt) : null);
    if (!row) throw new DomainError(sharedErrors.NOT_FOUND, "User not found.", [{ path: "body.userId", message: "No such user" }]);
    return { created: !has, mute: toMute(row) };
  });
}

export async function unmuteUser(db: RawDb | DbTx, muterId: string, mutedId: string) {
  await deleteMute(db, muterId, mutedId);
  return { muted: false as const, userId: mutedId };
}

/** The caller's live mutes, most recent first, keyset-paginated. */
export async function listMutes(db: RawDb | DbTx, muterId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const rows = await mutesOf(db, muterId, { after: cursor ? decodeUuidTimeCursor(cursor) : undefined, take: limit + 1 });
  return keysetPage("mutes", rows, limit, (r) => encodeCursor(r.mutedAt.getTime(), r.id), toMute);
}

// Keyword filters ------------------------------------------------------------------------------------------------

function assertRoom(totals: { filters: number; keywords: number }, adding: { filters: number; keywords: number }) {
  if (totals.filters + adding.filters > FILTERS_MAX) {
    throw new DomainError(mutesErrors.FILTER_LIMIT, `An account keeps at most ${FILTERS_MAX} keyword filters: remove one first.`);
  }
  if (totals.keywords + adding.keywords > KEYWORDS_MAX) {
    throw new DomainError(
      mutesErrors.FILTER_LIMIT,
      `An account's filters hold at most ${KEYWORDS_MAX} keywords in all (${totals.keywords} now): remove some first.`,
      [{ path: "body.keywords", message: `At most ${KEYWORDS_MAX - totals.keywords} more` }],
    );
  }
}

export async function createFilter(db: Db, userId: string, body: FilterBody) {
  return rawTransaction(db, async (tx) => {
    if (!(await lockUser(tx, userId))) throw notFound("User");
    assertRoom(await filterTotals(tx, userId), { filters: 1, keywords: body.keywords.length });
    const row = await insertFilter(tx, userId, {
      title: body.title ?? body.keywords[0]!.keyword,
      keywords: body.keywords,
      contexts: body.contexts,
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
    });
    return { filter: toFilter(row) };
  });
}

export async function listFilters(db: RawDb | DbTx, userId: string) {
  return { filters: (await filtersOf(db, userId)).map(toFilter) };
}

export async function patchFilter(db: Db, userId: string, filterId: string, patch: FilterPatch) {
  return rawTransaction(db, async (tx) => {
    if (!(await lockUser(tx, userId))) throw notFound("User");
    if (patch.keywords) assertRoom(await filterTotals(tx, userId, filterId), { filters: 0, keywords: patch.keywords.length });
    const row = await updateFilter(tx, userId, filterId, {
      title: patch.title,
      keywords: patch.keywords,
      contexts: patch.contexts,
      expiresAt: patch.expiresAt === undefined ? undefined : patch.expiresAt === null ? null : new Date(patch.expiresAt),
    });
    if (!row) throw notFound("Filter");
    return { filter: toFilter(row) };
  });
}

export async function removeFilter(db: RawDb | DbTx, userId: string, filterId: string) {
  if ((await deleteFilter(db, userId, filterId)) === 0) throw notFound("Filter");
  return { removed: true };
}
