// A locker room of MILLION_POSTS posts (made once per database) for the discovery benches: search and the ranked
// feeds. MILLION_AUTHORS fans post over the last 30 days, about 1 post in 20 is private to its team, 1 in 97 hidden
// and 1 in 101 deleted. Every post has a few words from a small vocabulary, COMMON_WORD in 1 post in 5 and RARE_WORD
// in 1 in 50,000 (20 posts), so a search can be measured for a word with many matches and one with few.
import pg from "pg";
import { DB_URL } from "./common";

export const MILLION_POSTS = 1_000_000;
export const MILLION_AUTHORS = 2_000;
export const COMMON_WORD = "goal";
export const RARE_WORD = "zeppelin";
export const millionAuthorSub = (i: number) => `user_bench_mp_${i}`;
const WORDS =
  "defence midfield striker keeper corner penalty referee derby season transfer coach captain tactics pressing counter " +
  "stadium crowd chant away home fixture table points relegation promotion trophy final semi quarter injury comeback " +
  "header volley tackle offside foul card substitute bench lineup formation winger fullback academy debut hattrick";

/** Writes the posts and their authors unless they are there; answers the authors' ids (by sub order). */
export async function prepareMillionPosts(): Promise<{ authorIds: string[] }> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  try {
    const subs = Array.from({ length: MILLION_AUTHORS }, (_, i) => millionAuthorSub(i));
    await client.query(
      `INSERT INTO users (id, external_id, handle, handle_key, display_name, updated_at)
       SELECT gen_random_uuid(), s, 'mp_fan' || i, 'mp_fan' || i, 'Million Fan ' || i, now() FROM unnest($1::text[]) WITH ORDINALITY AS t(s, i)
       ON CONFLICT (external_id) DO NOTHING`,
      [subs],
    );
    const { rows } = await client.query<{ id: string }>(`SELECT id::text FROM users WHERE external_id = ANY($1::text[]) ORDER BY external_id`, [subs]);
    const authorIds = rows.map((r) => r.id);
    const { rows: counted } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM posts WHERE author_id = ANY($1::uuid[])`, [authorIds]);
    const have = Number(counted[0]!.n);
    if (have < MILLION_POSTS) {
      console.log(`bench: writing ${(MILLION_POSTS - have).toLocaleString()} more locker-room posts for the discovery benches (once per database; minutes)…`);
      const words = WORDS.split(" ");
      // In batches of 100,000, each its own statement, so the progress shows and no single transaction is huge.
      for (let from = have + 1; from <= MILLION_POSTS; from += 100_000) {
        const to = Math.min(MILLION_POSTS, from + 99_999);
        await client.query(
          `WITH a AS (SELECT $1::uuid[] AS ids),
                w AS (SELECT $2::text[] AS words),
                p AS (SELECT i, date_trunc('milliseconds', now()) - make_interval(secs => i * 2.592) AS at
                      FROM generate_series($3::int, $4::int) AS i)
           INSERT INTO posts (id, author_id, team_id, visibility, content, publish_at, created_at, comment_count, reaction_counts, hidden_at, deleted_at)
           SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                    placing substring(int8send(floor(extract(epoch FROM p.at) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid,
                  a.ids[1 + p.i % cardinality(a.ids)],
                  (ARRAY['tm_hch','tm_gfg','tm_lsl','tm_fpb'])[1 + p.i % 4],
                  CASE WHEN p.i % 20 = 0 THEN 'PRIVATE' ELSE 'PUBLIC' END::"PostVisibility",
                  concat_ws(' ', 'Post ' || p.i || ':',
                    w.words[1 + p.i % cardinality(w.words)], w.words[1 + (p.i / 7) % cardinality(w.words)],
                    w.words[1 + (p.i / 49) % cardinality(w.words)], w.words[1 + (p.i * 31) % cardinality(w.words)],
                    CASE WHEN p.i % 5 = 0 THEN '${COMMON_WORD}' END, CASE WHEN p.i % 50000 = 7 THEN '${RARE_WORD}' END,
                    'what a match that was.'),
                  p.at, p.at, p.i % 7, jsonb_build_object('like', p.i % 13, 'fire', p.i % 5),
                  CASE WHEN p.i % 97 = 0 THEN p.at END, CASE WHEN p.i % 101 = 0 THEN p.at END
           FROM p, a, w`,
          [authorIds, words, from, to],
        );
        console.log(`bench: … ${to.toLocaleString()} of ${MILLION_POSTS.toLocaleString()}`);
      }
      // VACUUM also merges the GIN indexes' pending lists, which these bulk inserts (outside the pool) filled.
      await client.query("VACUUM ANALYZE posts");
    }
    return { authorIds };
  } finally {
    await client.end();
  }
}
