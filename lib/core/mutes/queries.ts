import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { raw, type RawDb } from "../../db/raw";
import type { FilterContext, FilterKeyword } from "./schemas";

// Mutes' and keyword filters' statements, and the SQL the reading modules (lib/features/lockerroom, comments, reactions,
// notifications) put into theirs. A mute or filter is live while `expires_at IS NULL OR expires_at > now()`: a timed
// one ends exactly then, with no job. Each read takes the viewer's live mutes as one array, once per statement (an
// uncorrelated subquery: an InitPlan), never a probe per row; keyword filters are matched in Node (matcher.ts).

const LIVE = (alias: string) => Prisma.sql`(${Prisma.raw(alias)}.expires_at IS NULL OR ${Prisma.raw(alias)}.expires_at > now())`;

// SQL the readers use --------------------------------------------------------------------------------------------

/** uuid[] of the accounts `userId` mutes now (at most MUTES_MAX; read once per statement). */
export const mutedIdsSql = (userId: string) => Prisma.sql`ARRAY(SELECT m.muted_id FROM user_mutes m WHERE m.muter_id = ${userId}::uuid AND ${LIVE("m")})`;

/**
 * Whether the viewer mutes the author of a row they read (`author`, a uuid column); anonymous: false. The readers
 * select it as a column over a bounded keyset scan, so a page may come back short but is never skipped.
 */
export const mutedAuthorSql = (viewerId: string | undefined, author: Prisma.Sql): Prisma.Sql =>
  viewerId ? Prisma.sql`(${author} = ANY(${mutedIdsSql(viewerId)}))` : Prisma.sql`false`;

/**
 * The viewer's users.filters_version (0 for anonymous or none), for a reader's column: with it, textFilter
 * (matcher.ts) knows whether the filters it compiled are the current ones without reading them. One primary-key read
 * per statement.
 */
export const filtersVersionSql = (viewerId: string | undefined): Prisma.Sql =>
  viewerId ? Prisma.sql`(SELECT fv.filters_version FROM users fv WHERE fv.id = ${viewerId}::uuid)` : Prisma.sql`0`;

/**
 * For a notification producer's WHERE: `recipient` has no live mute of `actor` that stops notifications (uuid
 * expressions). The producers (REPLY, REACTION, TEAM_POST) skip a muted actor in the statement that writes.
 */
export const notMutedActorSql = (recipient: Prisma.Sql, actor: Prisma.Sql) =>
  Prisma.sql`NOT EXISTS (SELECT 1 FROM user_mutes m WHERE m.muter_id = ${recipient} AND m.muted_id = ${actor} AND m.notifications AND ${LIVE("m")})`;

/**
 * For GET /api/v1/users/relationships (`muting`): whether `viewerId` mutes the user in `userColumn` now, as a SQL
 * boolean over one primary-key probe. Only the muter ever sees it: the muted user's own relationships say nothing.
 */
export const mutingSql = (viewerId: string, userColumn: Prisma.Sql) =>
  Prisma.sql`EXISTS (SELECT 1 FROM user_mutes m WHERE m.muter_id = ${viewerId}::uuid AND m.muted_id = ${userColumn} AND ${LIVE("m")})`;

// Mutes ----------------------------------------------------------------------------------------------------------

export interface MuteRow {
  id: string;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  notifications: boolean;
  expiresAt: Date | null;
  mutedAt: Date;
}

export const toMute = (r: MuteRow) => ({
  user: { id: r.id, handle: r.handle, displayName: r.displayName, avatarUrl: r.avatarUrl },
  notifications: r.notifications,
  expiresAt: r.expiresAt?.toISOString() ?? null,
  mutedAt: r.mutedAt.toISOString(),
});

const MUTE_COLUMNS = Prisma.sql`u.id::text AS id, u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl",
  m.notifications, m.expires_at AS "expiresAt", m.created_at AS "mutedAt"`;

/** The user's live mutes, newest first (created_at desc, muted id desc), keyset-paginated. */
export function mutesOf(db: RawDb | DbTx, muterId: string, { after, take }: { after?: { at: Date; id: string }; take: number }) {
  const keyset = after ? Prisma.sql`AND (m.created_at, m.muted_id) < (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<MuteRow[]>`
    SELECT ${MUTE_COLUMNS}
    FROM user_mutes m JOIN users u ON u.id = m.muted_id
    WHERE m.muter_id = ${muterId}::uuid AND ${LIVE("m")} ${keyset}
    ORDER BY m.created_at DESC, m.muted_id DESC LIMIT ${take}`;
}

/** Drops the user's mutes that ended (so they count no more) and answers how many remain and whether `mutedId` is one. */
export async function liveMuteCount(tx: RawDb, muterId: string, mutedId: string) {
  await tx.$executeRaw`DELETE FROM user_mutes WHERE muter_id = ${muterId}::uuid AND expires_at <= now()`;
  const [row] = await tx.$queryRaw<{ n: number; has: boolean }[]>`
    SELECT count(*)::int AS n, bool_or(muted_id = ${mutedId}::uuid) AS has FROM user_mutes WHERE muter_id = ${muterId}::uuid`;
  return { count: row?.n ?? 0, has: row?.has ?? false };
}

/**
 * Mutes (or updates the mute of) `mutedId` for `muterId`: one upsert; a repeat keeps the first mutedAt and takes the
 * new expiry and notifications flag. None when the muted user does not exist.
 */
export async function upsertMute(tx: RawDb, muterId: string, mutedId: string, notifications: boolean, expiresAt: Date | null) {
  const [row] = await tx.$queryRaw<MuteRow[]>`
    WITH m AS (
      INSERT INTO user_mutes (muter_id, muted_id, notifications, expires_at)
      SELECT ${muterId}::uuid, u.id, ${notifications}, ${expiresAt}::timestamptz FROM users u WHERE u.id = ${mutedId}::uuid
      ON CONFLICT (muter_id, muted_id) DO UPDATE SET notifications = EXCLUDED.notifications, expires_at = EXCLUDED.expires_at
      RETURNING muted_id, notifications, expires_at, created_at)
    SELECT ${MUTE_COLUMNS} FROM m JOIN users u ON u.id = m.muted_id`;
  return row;
}

export const deleteMute = (db: RawDb | DbTx, muterId: string, mutedId: string) =>
  raw(db).$executeRaw`DELETE FROM user_mutes WHERE muter_id = ${muterId}::uuid AND muted_id = ${mutedId}::uuid`;

// Keyword filters ------------------------------------------------------------------------------------------------

export interface FilterRow {
  id: string;
  title: string;
  keywords: { keyword: string; wholeWord: boolean }[];
  contexts: FilterContext[];
  expiresAt: Date | null;
  expired: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const toFilter = (f: FilterRow) => ({
  ...f,
  expiresAt: f.expiresAt?.toISOString() ?? null,
  createdAt: f.createdAt.toISOString(),
  updatedAt: f.updatedAt.toISOString(),
});

const FILTER_COLUMNS = Prisma.sql`f.id::text AS id, f.title, f.keywords, f.contexts, f.expires_at AS "expiresAt",
  (f.expires_at IS NOT NULL AND f.expires_at <= now()) AS expired, f.created_at AS "createdAt", f.updated_at AS "updatedAt"`;

export function filtersOf(db: RawDb | DbTx, userId: string) {
  return raw(db).$queryRaw<FilterRow[]>`SELECT ${FILTER_COLUMNS} FROM keyword_filters f WHERE f.user_id = ${userId}::uuid ORDER BY f.id`;
}

/** How many filters and keywords in all the user has (every filter, expired ones too: they can be extended). */
export async function filterTotals(tx: RawDb, userId: string, except?: string) {
  const skip = except ? Prisma.sql`AND id <> ${except}::uuid` : Prisma.empty;
  const [row] = await tx.$queryRaw<{ filters: number; keywords: number }[]>`
    SELECT count(*)::int AS filters, COALESCE(sum(jsonb_array_length(keywords)), 0)::int AS keywords
    FROM keyword_filters WHERE user_id = ${userId}::uuid ${skip}`;
  return row ?? { filters: 0, keywords: 0 };
}

export async function insertFilter(
  tx: RawDb,
  userId: string,
  f: { title: string; keywords: FilterKeyword[]; contexts: FilterContext[]; expiresAt: Date | null },
) {
  const [row] = await tx.$queryRaw<FilterRow[]>`
    INSERT INTO keyword_filters AS f (id, user_id, title, keywords, contexts, expires_at)
    VALUES (${UUIDV7_SQL}, ${userId}::uuid, ${f.title}, ${JSON.stringify(f.keywords)}::jsonb, ${f.contexts}::text[], ${f.expiresAt}::timestamptz)
    RETURNING ${FILTER_COLUMNS}`;
  return row!;
}

/** Changes the given fields of the user's filter; none when it is not theirs. */
export async function updateFilter(
  tx: RawDb,
  userId: string,
  id: string,
  p: { title?: string; keywords?: FilterKeyword[]; contexts?: FilterContext[]; expiresAt?: Date | null },
) {
  const set: Prisma.Sql[] = [Prisma.sql`updated_at = now()`];
  if (p.title !== undefined) set.push(Prisma.sql`title = ${p.title}`);
  if (p.keywords !== undefined) set.push(Prisma.sql`keywords = ${JSON.stringify(p.keywords)}::jsonb`);
  if (p.contexts !== undefined) set.push(Prisma.sql`contexts = ${p.contexts}::text[]`);
  if (p.expiresAt !== undefined) set.push(Prisma.sql`expires_at = ${p.expiresAt}::timestamptz`);
  const [row] = await tx.$queryRaw<FilterRow[]>`
    UPDATE keyword_filters AS f SET ${Prisma.join(set, ", ")}
    WHERE f.id = ${id}::uuid AND f.user_id = ${userId}::uuid
    RETURNING ${FILTER_COLUMNS}`;
  return row;
}

export const deleteFilter = (db: RawDb | DbTx, userId: string, id: string) =>
  raw(db).$executeRaw`DELETE FROM keyword_filters WHERE id = ${id}::uuid AND user_id = ${userId}::uuid`;
