// contest-leaderboard: GET /api/v1/contests/{contestId}/leaderboard (the first page, and the caller's own standing)
// of a settled contest of CONTEST_LINEUPS lineups. Seeded once per bench database with set-based SQL, only when the
// case runs (BENCH_ONLY=contest-leaderboard): users, one card copy each, the lineups with their stored score and rank
// (as the settlement leaves them), so the read is a keyset scan of (contest_id, rank).
import pg from "pg";
import { signSessionToken } from "../../lib/auth/sign";
import { DB_URL, type Case } from "./common";

export const CONTEST_LINEUPS = 100_000;
const CONTEST_ID = "019ac0de-0000-7000-8000-00000000c0de";
const KEY = "bench_ct";
const READER_SUB = `user_${KEY}_777`;

async function prepareContest(): Promise<void> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(`SELECT lineup_count AS n FROM contests WHERE id = $1`, [CONTEST_ID]);
    if (rows[0]?.n === CONTEST_LINEUPS) return;
    await client.query("BEGIN");
    await client.query(`DELETE FROM contests WHERE id = $1`, [CONTEST_ID]);
    await client.query(
      `INSERT INTO leagues (id, slug, name, sport, archived_at, updated_at) VALUES ('lg_${KEY}', 'bench-ct', 'Bench contests', 'football', now(), now()) ON CONFLICT DO NOTHING`,
    );
    for (const t of ["h", "a"])
      await client.query(
        `INSERT INTO teams (id, slug, name, league_id, archived_at, updated_at) VALUES ('tm_${KEY}_${t}', 'bench-ct-${t}', 'Bench ${t}', 'lg_${KEY}', now(), now()) ON CONFLICT DO NOTHING`,
      );
    await client.query(
      `INSERT INTO players (id, team_id, name, position, updated_at) VALUES ('pl_${KEY}', 'tm_${KEY}_h', 'Bench QB', 'QB', now()) ON CONFLICT DO NOTHING`,
    );
    await client.query(
      `INSERT INTO games (id, league_id, home_team_id, away_team_id, starts_at, status, updated_at)
       VALUES ('gm_${KEY}', 'lg_${KEY}', 'tm_${KEY}_h', 'tm_${KEY}_a', now() - interval '1 day', 'final', now()) ON CONFLICT DO NOTHING`,
    );
    await client.query(
      `INSERT INTO users (id, external_id, handle, handle_key, updated_at)
       SELECT gen_random_uuid(), 'user_${KEY}_' || i, 'bench_ct_' || i, 'bench_ct_' || i, now() FROM generate_series(1, $1::int) i
       ON CONFLICT (external_id) DO NOTHING`,
      [CONTEST_LINEUPS],
    );
    await client.query(
      `INSERT INTO collectible_cards (id, kind, team_id, player_id, name, rarity, edition_size, minted_count)
       VALUES ('cc_${KEY}', 'player', 'tm_${KEY}_h', 'pl_${KEY}', 'Bench QB', 'common', $1, $1) ON CONFLICT DO NOTHING`,
      [CONTEST_LINEUPS],
    );
    await client.query(
      `INSERT INTO collectibles (id, card_id, serial, owner_id)
       SELECT gen_random_uuid(), 'cc_${KEY}', substr(u.external_id, length('user_${KEY}_') + 1)::int, u.id
       FROM users u WHERE u.external_id LIKE 'user_${KEY}_%'
       ON CONFLICT (card_id, serial) DO NOTHING`,
    );
    await client.query(
      `INSERT INTO contests (id, title, lineup_size, slots, prizes, lock_at, settled_at, settled_version, settled_on, lineup_count)
       VALUES ($1, 'Bench contest', 1, '{*}', '{100,50,20}', now() - interval '1 day', now(), 1, 'bench', $2)`,
      [CONTEST_ID, CONTEST_LINEUPS],
    );
    await client.query(`INSERT INTO contest_games (contest_id, game_id) VALUES ($1, 'gm_${KEY}')`, [CONTEST_ID]);
    // Scores with many ties (0..99), ranked as the settlement ranks: score, captain's points, submission, user id.
    await client.query(
      `WITH l AS (
         SELECT gen_random_uuid() AS id, c.owner_id, c.id AS cid, (random() * 99)::int AS score,
                now() - interval '2 days' + (random() * interval '1 day') AS at
         FROM collectibles c WHERE c.card_id = 'cc_${KEY}'
       )
       INSERT INTO contest_lineups (id, contest_id, user_id, captain_id, submitted_at, score, captain_score, rank)
       SELECT id, $1, owner_id, cid, at, score, score, row_number() OVER (ORDER BY score DESC, score DESC, at, owner_id) FROM l`,
      [CONTEST_ID],
    );
    await client.query(
      `INSERT INTO contest_lineup_cards (lineup_id, collectible_id, contest_id, slot, player_id)
       SELECT l.id, l.captain_id, l.contest_id, 0, 'pl_${KEY}' FROM contest_lineups l WHERE l.contest_id = $1`,
      [CONTEST_ID],
    );
    await client.query("COMMIT");
    await client.query("ANALYZE contest_lineups; ANALYZE contest_lineup_cards; ANALYZE users");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    await client.end();
  }
}

let prepared: Promise<void> | undefined;

/** The contests case, in the runner's order. */
export function contestCases(base: string, privateKey: string): Case[] {
  const auth = { authorization: `Bearer ${signSessionToken(privateKey, READER_SUB, { ttlSeconds: 3600 })}` };
  return [
    {
      name: `GET contest-leaderboard (${CONTEST_LINEUPS / 1000}k lineups)`,
      target: 0.5,
      load: async () => {
        await (prepared ??= prepareContest());
        return { url: `${base}/api/v1/contests/${CONTEST_ID}/leaderboard?limit=50`, headers: auth };
      },
    },
  ];
}
