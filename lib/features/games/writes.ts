// The games' writes: a game's lineup, and the ratings' multi-table statement (lib/db/fragments.ts: the rules of a
// statement made of other modules' parts). The notifications are alert-writes.ts.
import { Prisma } from "../../generated/prisma/client";
import type { Db, DbTx } from "../../db/client";
import { oncePerUser } from "../../db/fragments";
import { raw } from "../../db/raw";
import { awardRowsCtes, SERVER_AWARDS } from "../../core/rep/service";

/** One submission to write: the rating row's id, its Rep entry's id, who, which game, when, and the scores given. */
export interface RatingWrite {
  id: string;
  entryId: string;
  userId: string;
  gameId: string;
  at: Date;
  ratings: { playerId: string; score: number }[];
}

/** The game as the statement read it (status null: no such game) and, when it was written, the rating row and the balance its Rep raised. */
export interface RatingWritten {
  status: string | null;
  lineup: string[] | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  created: boolean | null;
  /** The balance the submission's Rep raised; null when it credited nothing. */
  balance: number | null;
}

/**
 * Writes submissions in one statement. Each game and its lineup are read, and a submission is written only when its
 * game is final and every player it scores is in the lineup; otherwise its row says why (rateGame answers it). Each
 * user appears once (batchRepWrites keys the batch by user): one rating row per (user, game) may change once per
 * statement, and the credit raises each user's balance once (lib/db/fragments.ts).
 */
export async function writeRatings(db: Db, items: RatingWrite[]): Promise<RatingWritten[]> {
  const { amount, source, reason } = SERVER_AWARDS.game_rating;
  const col = <T>(f: (r: RatingWrite) => T) => items.map(f);
  const given = items.flatMap((item, i) => item.ratings.map((r) => ({ k: i + 1, ...r })));
  const rated = Prisma.raw("rated");
  const credit = awardRowsCtes(
    oncePerUser(Prisma.sql`SELECT entry_id AS id, user_id, game_id AS target_id, 'game_rating:' || game_id AS grant_key, at AS created_at FROM ${rated}`),
    { earnKind: "game_rating", amount, source, reason },
  );
  const rows = await raw(db).$queryRaw<(Omit<RatingWritten, "balance"> & { k: number; balance: bigint | null })[]>`
    WITH input AS (
      SELECT * FROM unnest(${col((r) => r.id)}::uuid[], ${col((r) => r.entryId)}::uuid[], ${col((r) => r.userId)}::uuid[],
                           ${col((r) => r.gameId)}::text[], ${col((r) => r.at.toISOString())}::timestamptz[])
        WITH ORDINALITY AS i(id, entry_id, user_id, game_id, at, k)
    ), given AS (
      SELECT * FROM unnest(${given.map((g) => g.k)}::int[], ${given.map((g) => g.playerId)}::text[], ${given.map((g) => g.score)}::int[]) AS t(k, player_id, score)
    ), game AS (
      SELECT g.id, g.status::text AS status, ARRAY(SELECT s.player_id FROM game_lineup_slots s WHERE s.game_id = g.id ORDER BY s.slot) AS lineup
      FROM games g WHERE g.id IN (SELECT game_id FROM input)
    ), rating AS (
      INSERT INTO game_ratings (id, user_id, game_id, created_at, updated_at)
      SELECT i.id, i.user_id, g.id, i.at, i.at
      FROM input i JOIN game g ON g.id = i.game_id
      WHERE g.status = 'final' AND cardinality(g.lineup) > 0 AND ARRAY(SELECT t.player_id FROM given t WHERE t.k = i.k) <@ g.lineup
      ORDER BY i.k
      ON CONFLICT (user_id, game_id) DO UPDATE SET updated_at = EXCLUDED.updated_at
      RETURNING id, user_id, game_id, created_at, updated_at, (xmax = 0) AS created
    ), ${rated} AS (
      SELECT i.k, i.entry_id, i.user_id, i.game_id, i.at, r.id AS rating_id, r.created, r.created_at, r.updated_at
      FROM rating r JOIN input i ON i.user_id = r.user_id AND i.game_id = r.game_id
    ), written AS (
      INSERT INTO game_rating_scores (rating_id, game_id, player_id, score)
      SELECT r.rating_id, s.game_id, s.player_id, t.score
      FROM ${rated} r JOIN game_lineup_slots s ON s.game_id = r.game_id LEFT JOIN given t ON t.k = r.k AND t.player_id = s.player_id
      WHERE NOT r.created OR t.score IS NOT NULL
      ORDER BY r.k, s.slot
      ON CONFLICT (rating_id, player_id) DO UPDATE SET score = EXCLUDED.score WHERE game_rating_scores.score IS DISTINCT FROM EXCLUDED.score
    ), ${credit.sql}
    SELECT i.k, g.status, g.lineup, r.created_at AS "createdAt", r.updated_at AS "updatedAt", r.created, e.rep_balance AS balance
    FROM input i LEFT JOIN game g ON g.id = i.game_id LEFT JOIN ${rated} r ON r.k = i.k LEFT JOIN ${credit.name.raised} e ON e.id = i.user_id`;
  const byK = new Map(rows.map(({ k, balance, ...row }) => [Number(k), { ...row, balance: balance === null ? null : Number(balance) }]));
  return items.map((_, k) => byK.get(k + 1)!);
}

/**
 * Seeds a final game's lineup from both teams' rosters (service.ts seedGameLineup says which players, in which
 * order): nothing when the game is not final, already has a lineup, or either team has no available player.
 */
export const insertLineupSlots = (db: DbTx, gameId: string) =>
  raw(db).$executeRaw`
    WITH g AS (SELECT id, home_team_id, away_team_id FROM games WHERE id = ${gameId} AND status = 'final'),
    cand AS (
      SELECT p.id AS player_id, p.team_id, p.position, p.jersey, p.name,
             CASE WHEN p.team_id = g.home_team_id THEN 0 ELSE 1 END AS side
      FROM g JOIN players p ON p.team_id = g.home_team_id OR p.team_id = g.away_team_id
      WHERE p.active AND p.availability = 'available'
    )
    INSERT INTO game_lineup_slots (game_id, player_id, team_id, position, slot)
    SELECT ${gameId}, c.player_id, c.team_id, c.position,
           (row_number() OVER (ORDER BY c.side,
             CASE WHEN btrim(c.jersey) ~ '^[0-9]{1,9}$' THEN btrim(c.jersey)::int END ASC NULLS LAST,
             c.jersey ASC NULLS LAST, c.name ASC, c.player_id ASC))::int
    FROM cand c
    WHERE (SELECT count(DISTINCT side) FROM cand) = 2
      AND NOT EXISTS (SELECT 1 FROM game_lineup_slots s WHERE s.game_id = ${gameId})
    ON CONFLICT DO NOTHING`;
