import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { CARD_COLUMNS, type CollectibleRow } from "../../core/collectibles/service";
import { visiblePostSql, type Viewer } from "../../core/visibility/service";
import { selectPosts, type PostRow } from "../lockerroom/service";
import { filtersVersionSql, mutedAuthorSql } from "../../core/mutes/service";
import { TEAM_SUMMARY_COLUMNS, type TeamSummaryRow } from "../../core/teams/service";

// Search's statements (docs/domains/search.md, docs/decisions/0043-search-ranking.md). PostgreSQL does the text
// work: posts by full-text search (the stored posts.search_vector, its GIN index, websearch_to_tsquery with the
// configuration search_config() gives a language), names and handles by trigram similarity (pg_trgm's GIN indexes).
// Nothing here splits or stems text itself.

/**
 * The query's tsquery: its words stemmed by the language's configuration, or the same words as they are ('simple',
 * which every post's vector also holds), so a post in another language is found by its exact words. The two are
 * OR'ed only when they differ.
 */
function tsquerySql(language: string, q: string): Prisma.Sql {
  const stemmed = Prisma.sql`websearch_to_tsquery(search_config(${language}), ${q})`;
  const exact = Prisma.sql`websearch_to_tsquery('pg_catalog.simple'::regconfig, ${q})`;
  return Prisma.sql`(CASE WHEN ${stemmed} = ${exact} THEN ${stemmed} ELSE ${stemmed} || ${exact} END)`;
}

export type PostHitRow = PostRow & { muted: boolean; filtersVersion: number };

/**
 * How many of the newest posts (after the cursor) are tested against the query before the GIN index is asked for
 * every match instead: a dense word fills its page within them, a rarer one is read from the index.
 */
export const SEARCH_WINDOW = 1_000;

/**
 * A page of the posts matching q that the viewer may see, newest first by (publish_at, id), in one statement with
 * the locker room's visibility rule and the viewer's mutes (a column: the caller leaves muted and filtered posts out
 * of the page read, as the feed does). Statements run with generic plans (lib/db/client.ts), so the planner never
 * sees the words and cannot pick the index by their frequency; the statement does (docs/decisions/0043):
 *   w:    the newest SEARCH_WINDOW published posts after the cursor, walked on the (publish_at, id) index, the
 *         matching visible ones, at most `take` (a dense word stops after a few dozen posts);
 *   rest: only when w did not fill the page, every visible match after the cursor from the GIN index (a rare word:
 *         a few rows), the page taken from it.
 * The tsquery is computed once per statement (a scalar subquery), not per row. A q whose stemmed query is empty
 * (only stop words or punctuation) matches nothing and reads no post.
 */
export function searchPosts(db: RawDb | DbTx, viewer: Viewer, f: { q: string; language: string; after?: { at: Date; id: string }; take: number }) {
  const tsquery = Prisma.sql`(SELECT ${tsquerySql(f.language, f.q)})`;
  const live = Prisma.sql`p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()`;
  const keyset = f.after ? Prisma.sql`AND (p.publish_at, p.id) < (${f.after.at}, ${f.after.id}::uuid)` : Prisma.empty;
  const matches = Prisma.sql`(SELECT numnode(websearch_to_tsquery(search_config(${f.language}), ${f.q}))) > 0
    AND p.search_vector @@ ${tsquery} AND ${live} AND ${visiblePostSql(viewer)}`;
  const extra = Prisma.sql`, ${mutedAuthorSql(viewer?.id, Prisma.sql`p.author_id`)} AS muted, ${filtersVersionSql(viewer?.id)} AS "filtersVersion"`;
  return raw(db).$queryRaw<PostHitRow[]>`
    WITH w AS MATERIALIZED (
      SELECT p.id FROM (SELECT * FROM posts p WHERE p.publish_at <= now() ${keyset} ORDER BY p.publish_at DESC, p.id DESC LIMIT ${SEARCH_WINDOW}) p
      WHERE ${matches}
      ORDER BY p.publish_at DESC, p.id DESC
      LIMIT ${f.take}
    ), rest AS MATERIALIZED (
      SELECT p.id FROM posts p
      WHERE (SELECT count(*) FROM w) < ${f.take} AND ${matches} ${keyset}
    )
    ${selectPosts(viewer, extra)}
    JOIN (SELECT id FROM w WHERE (SELECT count(*) FROM w) >= ${f.take} UNION ALL SELECT id FROM rest) m ON m.id = p.id
    WHERE ${live} AND ${visiblePostSql(viewer)}
    ORDER BY p.publish_at DESC, p.id DESC
    LIMIT ${f.take}`;
}

/** The rank a name page is ordered by (descending), then the id (descending); a cursor carries both. */
export interface RankAfter {
  score: string;
  id: string;
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const likePrefix = (q: string) => `${q.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`;

/**
 * A rank over text columns: 2 when one equals q (case-insensitively), 1 when one starts with it, plus the best word
 * similarity of q to any of them (0..1): whole-name and prefix matches first, then the closest.
 */
function nameRank(q: string, columns: Prisma.Sql[]): Prisma.Sql {
  const lower = q.toLowerCase();
  const exact = Prisma.join(
    columns.map((c) => Prisma.sql`lower(${c}) = ${lower}`),
    " OR ",
  );
  const prefix = Prisma.join(
    columns.map((c) => Prisma.sql`lower(${c}) LIKE ${likePrefix(q)}`),
    " OR ",
  );
  const similarity = Prisma.join(
    columns.map((c) => Prisma.sql`COALESCE(word_similarity(${q}, ${c}), 0)`),
    ", ",
  );
  return Prisma.sql`((CASE WHEN ${exact} THEN 2 WHEN ${prefix} THEN 1 ELSE 0 END) + greatest(${similarity}))::float8`;
}

/** q is word-similar to one of the columns (pg_trgm's `<%`, over their GIN trigram indexes). */
const nameMatch = (q: string, columns: Prisma.Sql[]) =>
  Prisma.join(
    columns.map((c) => Prisma.sql`${q} <% ${c}`),
    " OR ",
  );

/**
 * How many candidates the trigram indexes may return for one name search: the rank is computed over them only. A
 * short q ("fan") can match most of a million handles; ranking all of them would sort a million rows. The bound also
 * keeps the generic plan (lib/db/client.ts), which guesses 1% of the table per `<%`, off a parallel scan whose
 * workers' start cost 15-50 ms for two matches.
 */
export const NAME_CANDIDATES = 200;

/** The rows of `inner` (selecting `score` and `id`; at most NAME_CANDIDATES) past the cursor, by score then id, descending. */
function ranked<T>(db: RawDb | DbTx, inner: Prisma.Sql, after: RankAfter | undefined, take: number, always?: Prisma.Sql) {
  const keyset = after ? Prisma.sql`WHERE (s.score, s.id) < (${after.score}::float8, ${after.id})` : Prisma.empty;
  const candidates = always ? Prisma.sql`(${inner} LIMIT ${NAME_CANDIDATES}) UNION (${always})` : Prisma.sql`${inner} LIMIT ${NAME_CANDIDATES}`;
  return raw(db).$queryRaw<(T & { score: number })[]>`
    SELECT s.* FROM (${candidates}) s ${keyset} ORDER BY s.score DESC, s.id DESC LIMIT ${take}`;
}

export interface UserHitRow {
  id: string;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
}

/**
 * Users by handle or display name (word similarity: typos and prefixes included): an exact handle first, then handles
 * starting with q, then by similarity. Whole-string similarity (`%`) is not a condition: a short handle family
 * ("mp_fan1", "mp_fan2", …) is all similar to a typo of one of them, and rechecking thousands of rows cost 10 ms. Never erased accounts or
 * accounts awaiting deletion, nor users the viewer blocked or who blocked the viewer (read once per statement).
 */
export function searchUsers(db: RawDb | DbTx, viewer: Viewer, q: string, after: RankAfter | undefined, take: number) {
  const key = q.toLowerCase();
  const blocks = viewer
    ? Prisma.sql`AND u.id <> ALL(ARRAY(SELECT b.blocked_id FROM user_blocks b WHERE b.blocker_id = ${viewer.id}::uuid
                                       UNION ALL
                                       SELECT b.blocker_id FROM user_blocks b WHERE b.blocked_id = ${viewer.id}::uuid))`
    : Prisma.empty;
  const select = (match: Prisma.Sql) => Prisma.sql`
    SELECT u.id::text AS id, u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl",
           ((CASE WHEN u.handle_key = ${key} THEN 2 WHEN u.handle_key LIKE ${likePrefix(q)} THEN 1 ELSE 0 END)
            + greatest(similarity(u.handle_key, ${key}), word_similarity(${key}, u.handle_key), COALESCE(word_similarity(${q}, u.display_name), 0)))::float8 AS score
    FROM users u
    WHERE ${match}
      AND u.handle IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM account_deletions d WHERE d.user_id = u.id)
      ${blocks}`;
  // The exact handle (its unique index) is always a candidate, whatever the trigram candidates' bound leaves out.
  return ranked<UserHitRow>(db, select(Prisma.sql`(${key} <% u.handle_key OR ${q} <% u.display_name)`), after, take, select(Prisma.sql`u.handle_key = ${key}`));
}

export type TeamHitRow = TeamSummaryRow & { city: string | null; sport: string };

/** Teams (not archived) by name, short name or city. */
export function searchTeams(db: RawDb | DbTx, q: string, after: RankAfter | undefined, take: number) {
  const cols = [Prisma.sql`t.name`, Prisma.sql`t.short_name`, Prisma.sql`t.city`];
  const inner = Prisma.sql`
    SELECT ${TEAM_SUMMARY_COLUMNS}, t.city, t.sport, ${nameRank(q, cols)} AS score
    FROM teams t
    WHERE (${nameMatch(q, cols)}) AND t.archived_at IS NULL`;
  return ranked<TeamHitRow>(db, inner, after, take);
}

export interface PlayerHitRow {
  id: string;
  name: string;
  jersey: string | null;
  position: string | null;
  photo: string | null;
  teamId: string;
}

/** Active players of teams that are not archived, by name. */
export function searchPlayers(db: RawDb | DbTx, q: string, after: RankAfter | undefined, take: number) {
  const cols = [Prisma.sql`pl.name`];
  const inner = Prisma.sql`
    SELECT pl.id, pl.name, pl.jersey, pl.position, pl.photo, pl.team_id AS "teamId", ${nameRank(q, cols)} AS score
    FROM players pl JOIN teams t ON t.id = pl.team_id
    WHERE (${nameMatch(q, cols)}) AND pl.active AND t.archived_at IS NULL`;
  return ranked<PlayerHitRow>(db, inner, after, take);
}

export type CardHitRow = Omit<CollectibleRow, "id" | "serial" | "ownerId" | "purchaseId" | "drawIndex" | "acquiredAt">;

/** Catalog cards by name (the catalog is public: every card). */
export function searchCards(db: RawDb | DbTx, q: string, after: RankAfter | undefined, take: number) {
  const cols = [Prisma.sql`k.name`];
  const inner = Prisma.sql`
    SELECT ${CARD_COLUMNS}, k.id, ${nameRank(q, cols)} AS score
    FROM collectible_cards k
    WHERE ${nameMatch(q, cols)}`;
  return ranked<CardHitRow & { id: string }>(db, inner, after, take);
}
