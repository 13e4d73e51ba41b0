import type { Db } from "../../db/client";
import { decodeCursor, decodeUuidTimeCursor, encodeCursor, invalidCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { UUID_PATTERN } from "../../kernel/schemas";
import type { Viewer } from "../../core/visibility/service";
import { newestPostsPage } from "../lockerroom/service";
import { toCard } from "../../core/collectibles/service";
import { teamSummaries } from "../../core/teams/service";
import { toTeamSummary, type TeamSummaryRow } from "../../core/teams/service";
import { searchCards, searchPlayers, searchPosts, searchTeams, searchUsers, type RankAfter } from "./queries";
import type { SearchQuery } from "./schemas";

// Search (GET /api/v1/search): one type per call, a keyset page of it. Posts newest first among the matches the
// viewer may see, as the feed serializes them (mutes and `feed` keyword filters leave posts out of the page read, as
// in the feed); names ranked by trigram similarity. docs/domains/search.md.

export const DEFAULT_LANGUAGE = "en";

/** A name page's cursor: its rank (a float, carried exactly as its shortest decimal) and id. */
function decodeRankCursor(cursor: string, uuidIds: boolean): RankAfter {
  const { sortKey, id } = decodeCursor(cursor);
  const score = Number(sortKey);
  if (!/^\d(\.\d+)?(e-\d+)?$/.test(sortKey) || !Number.isFinite(score) || score > 4) throw invalidCursor();
  if (uuidIds ? !UUID_PATTERN.test(id) : id.length > 128) throw invalidCursor();
  return { score: sortKey, id };
}

const rankCursor = (row: { score: number; id: string }) => encodeCursor(String(row.score), row.id);

export async function search(db: Db, viewer: Viewer, query: SearchQuery) {
  const { q, type, cursor, limit } = query;
  const take = limit + 1;
  switch (type) {
    case "posts": {
      const rows = await searchPosts(db, viewer, {
        q,
        language: query.language ?? DEFAULT_LANGUAGE,
        after: cursor ? decodeUuidTimeCursor(cursor) : undefined,
        take,
      });
      return { type, ...(await newestPostsPage(db, viewer, rows, limit, "results")) };
    }
    case "users": {
      const rows = await searchUsers(db, viewer, q, cursor ? decodeRankCursor(cursor, true) : undefined, take);
      const page = keysetPage("results", rows, limit, rankCursor, (u) => ({ id: u.id, handle: u.handle, displayName: u.displayName, avatarUrl: u.avatarUrl }));
      return { type, ...page };
    }
    case "teams": {
      const rows = await searchTeams(db, q, cursor ? decodeRankCursor(cursor, false) : undefined, take);
      const page = keysetPage("results", rows, limit, rankCursor, (t) => ({ ...toTeamSummary(t), city: t.city, sport: t.sport }));
      return { type, ...page };
    }
    case "players": {
      const rows = await searchPlayers(db, q, cursor ? decodeRankCursor(cursor, false) : undefined, take);
      const teams = await teamSummaries(
        db,
        rows.map((r) => r.teamId),
      );
      const page = keysetPage("results", rows, limit, rankCursor, (p) => ({
        id: p.id,
        name: p.name,
        jersey: p.jersey,
        position: p.position,
        photo: p.photo,
        team: toTeamSummary(teams.get(p.teamId) as TeamSummaryRow),
      }));
      return { type, ...page };
    }
    case "cards": {
      const rows = await searchCards(db, q, cursor ? decodeRankCursor(cursor, false) : undefined, take);
      return { type, ...keysetPage("results", rows, limit, rankCursor, toCard) };
    }
  }
}
