import { Prisma } from "../generated/prisma/client";
import type { DbTx } from "../db/client";
import { DomainError } from "../http/errors";
import { decodeCursor, encodeCursor, invalidCursor } from "../http/cursor";
import { leagueFilter, sportFilter, TEAM_COLUMNS, TEAM_FROM, toTeam, type TeamRow } from "./service";
import type { TeamSearchQuery, TeamSearchSort } from "./schemas";

// GET /api/teams/search: filtered, keyset-paginated team lists in three orders. Every order ends on the team id,
// so rows that tie on the sort key still have one total order and a page boundary never skips or repeats a team.
//   name: name ASC, id ASC                    index teams(name, id)
//   rank: rank ASC NULLS LAST, id ASC         index teams(rank, id) (a plain btree sorts NULLs last)
//   fans: fan_count DESC, id ASC              index teams(fan_count DESC, id)
// The cursor's sort key is "<sort>:<value>" ("rank:null" for an unranked team), so a cursor only continues the
// sort it came from.

const INT4 = { min: -2_147_483_648, max: 2_147_483_647 };

type After =
  | { sort: "name"; name: string; id: string }
  | { sort: "rank"; rank: number | null; id: string }
  | { sort: "fans"; fans: number; id: string };

function sortKeyOf(sort: TeamSearchSort, t: TeamRow): string {
  if (sort === "name") return `name:${t.name}`;
  if (sort === "rank") return `rank:${t.rank === null ? "null" : t.rank}`;
  return `fans:${t.fanCount}`;
}

function parseInt4(value: string): number | null {
  if (!/^-?\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= INT4.min && n <= INT4.max ? n : null;
}

function decodeSearchCursor(cursor: string, sort: TeamSearchSort): After {
  const { sortKey, id } = decodeCursor(cursor);
  const colon = sortKey.indexOf(":");
  if (colon < 0) throw invalidCursor();
  const kind = sortKey.slice(0, colon);
  const value = sortKey.slice(colon + 1);
  if (kind !== "name" && kind !== "rank" && kind !== "fans") throw invalidCursor();
  if (kind !== sort) {
    throw new DomainError("VALIDATION_ERROR", `This cursor continues sort=${kind}, not sort=${sort}; start again without it.`, [
      { path: "query.cursor", message: `Cursor belongs to sort=${kind}` },
    ]);
  }
  if (kind === "name") return { sort: "name", name: value, id };
  if (kind === "rank") {
    if (value === "null") return { sort: "rank", rank: null, id };
    const rank = parseInt4(value);
    if (rank === null) throw invalidCursor();
    return { sort: "rank", rank, id };
  }
  const fans = parseInt4(value);
  if (fans === null) throw invalidCursor();
  return { sort: "fans", fans, id };
}

function keysetOf(after: After): Prisma.Sql {
  switch (after.sort) {
    case "name":
      return Prisma.sql`(t.name, t.id) > (${after.name}, ${after.id})`;
    case "fans":
      // Written so `fan_count <= $1` is an index condition on teams(fan_count DESC, id), scanned in order.
      return Prisma.sql`(t.fan_count <= ${after.fans}::int AND (t.fan_count < ${after.fans}::int OR t.id > ${after.id}))`;
    case "rank":
      // After a ranked team: the rest of the ranked teams, then every unranked one (NULLs sort last).
      return after.rank === null
        ? Prisma.sql`(t.rank IS NULL AND t.id > ${after.id})`
        : Prisma.sql`((t.rank, t.id) > (${after.rank}::int, ${after.id}) OR t.rank IS NULL)`;
  }
}

const ORDER_BY: Record<TeamSearchSort, Prisma.Sql> = {
  name: Prisma.sql`t.name ASC, t.id ASC`,
  rank: Prisma.sql`t.rank ASC NULLS LAST, t.id ASC`,
  fans: Prisma.sql`t.fan_count DESC, t.id ASC`,
};

/** LIKE pattern matching `text` literally anywhere (%, _ and \ escaped; backslash is LIKE's default escape). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

export async function searchTeams(db: DbTx, q: TeamSearchQuery) {
  const filters = [Prisma.sql`t.archived_at IS NULL`];
  if (q.q !== undefined) {
    const p = containsPattern(q.q);
    filters.push(Prisma.sql`(t.name ILIKE ${p} OR t.short_name ILIKE ${p} OR t.city ILIKE ${p} OR t.abbreviation ILIKE ${p})`);
  }
  if (q.sport !== undefined) filters.push(sportFilter(q.sport));
  if (q.league !== undefined) filters.push(leagueFilter(q.league));
  if (q.cursor !== undefined) filters.push(keysetOf(decodeSearchCursor(q.cursor, q.sort)));

  const rows = await db.$queryRaw<TeamRow[]>`
    SELECT ${TEAM_COLUMNS} FROM ${TEAM_FROM}
    WHERE ${Prisma.join(filters, " AND ")}
    ORDER BY ${ORDER_BY[q.sort]}
    LIMIT ${q.limit + 1}`;
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    teams: page.map(toTeam),
    ...(rows.length > q.limit && last ? { nextCursor: encodeCursor(sortKeyOf(q.sort, last), last.id) } : {}),
  };
}
