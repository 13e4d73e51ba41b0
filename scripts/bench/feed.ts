// The locker-room feed: FEED_POSTS posts by FEED_AUTHORS fans (made once), a reader with blocks both ways and a reader
// with mutes and keyword filters; the first page and the page FEED_DEPTH posts in, anonymous and as each reader, whose
// throughputs the report compares.
import pg from "pg";
import { signSessionToken } from "../../lib/auth/sign";
import { DB_URL, medianPair, PAGE, pct, type Case, type Row } from "./common";

// The locker-room feed: FEED_POSTS public posts by FEED_AUTHORS fans, one a second back from an hour ago (every
// 10th pair sharing a publish time, to exercise the id tie-break), and a reader who blocked FEED_BLOCKED of the
// authors and was blocked by as many others.
const FEED_POSTS = 50_000;
const FEED_AUTHORS = 500;
const FEED_BLOCKED = 50;
const FEED_DEPTH = 1_000;
const FEED_AUTHOR_SUB = (i: number) => `user_bench_poster_${i}`;
const FEED_READER_SUB = "user_bench_feed_reader";
// A second reader who follows every author (FEED_AUTHORS fans) and reads the `following=true` feed, mutes FEED_MUTES
// of them (so about 40% of a page is left out: short pages) and keeps FEED_FILTERS keyword filters of two keywords
// each on the feed: the caps (100 filters, 200 keywords), words of eight letters with varied first letters (keywords
// sharing a first letter let V8 skip ahead and hide the cost of matching, issue 44).
const FEED_MUTES = 200;
const FEED_FILTERS = 100;
const FEED_MUTER_SUB = "user_bench_feed_muter";

/** The feed's posts and authors (once per database) and its reader's blocks. */
export async function prepareFeed(): Promise<void> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const subs = Array.from({ length: FEED_AUTHORS }, (_, i) => FEED_AUTHOR_SUB(i));
  await client.query(
    `INSERT INTO users (id, external_id, handle, handle_key, display_name, updated_at)
     SELECT gen_random_uuid(), s, 'poster' || i, 'poster' || i, 'Poster ' || i, now() FROM unnest($1::text[]) WITH ORDINALITY AS t(s, i)
     ON CONFLICT (external_id) DO NOTHING`,
    [[...subs, FEED_READER_SUB, FEED_MUTER_SUB]],
  );
  const { rows: authors } = await client.query<{ id: string }>(`SELECT id::text FROM users WHERE external_id = ANY($1::text[]) ORDER BY external_id`, [subs]);
  const { rows: counted } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM posts WHERE author_id = ANY($1::uuid[])`, [authors.map((a) => a.id)]);
  if (Number(counted[0]!.n) < FEED_POSTS) {
    console.log(`bench: writing ${FEED_POSTS.toLocaleString()} locker-room posts (once per database)…`);
    await client.query(
      `WITH a AS (SELECT array_agg(id::uuid ORDER BY id) AS ids FROM unnest($1::text[]) AS id),
            p AS (SELECT i, date_trunc('milliseconds', now()) - interval '1 hour' - make_interval(secs => i - (i % 10 = 1)::int) AS at
                  FROM generate_series(1, $2::int) AS i)
       INSERT INTO posts (id, author_id, team_id, content, publish_at, created_at, comment_count, reaction_counts)
       SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                placing substring(int8send(floor(extract(epoch FROM p.at) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid,
              a.ids[1 + p.i % $3], (ARRAY['tm_hch','tm_gfg','tm_lsl','tm_fpb'])[1 + p.i % 4],
              'Bench post ' || p.i || ': what a game last night, the defence finally held.', p.at, p.at, p.i % 7,
              jsonb_build_object('like', p.i % 13, 'fire', p.i % 5)
       FROM p, a`,
      [authors.map((a) => a.id), FEED_POSTS, FEED_AUTHORS],
    );
    await client.query("ANALYZE posts");
  }
  const { rows: reader } = await client.query<{ id: string }>(`SELECT id::text FROM users WHERE external_id = $1`, [FEED_READER_SUB]);
  const readerId = reader[0]!.id;
  await client.query(`DELETE FROM user_blocks WHERE blocker_id = $1 OR blocked_id = $1`, [readerId]);
  await client.query(`INSERT INTO user_blocks (blocker_id, blocked_id) SELECT $1, unnest($2::uuid[])`, [
    readerId,
    authors.slice(0, FEED_BLOCKED).map((a) => a.id),
  ]);
  await client.query(`INSERT INTO user_blocks (blocker_id, blocked_id) SELECT unnest($2::uuid[]), $1`, [
    readerId,
    authors.slice(FEED_BLOCKED, 2 * FEED_BLOCKED).map((a) => a.id),
  ]);
  // The muter: FEED_MUTES mutes (every other author from the last, so each page has some), FEED_FILTERS filters whose
  // whole-word keywords match no bench post.
  const { rows: muter } = await client.query<{ id: string }>(`SELECT id::text FROM users WHERE external_id = $1`, [FEED_MUTER_SUB]);
  const muterId = muter[0]!.id;
  await client.query(`DELETE FROM user_mutes WHERE muter_id = $1`, [muterId]);
  await client.query(`INSERT INTO user_mutes (muter_id, muted_id) SELECT $1, unnest($2::uuid[])`, [
    muterId,
    authors
      .filter((_, i) => i % 2 === 1)
      .slice(0, FEED_MUTES)
      .map((a) => a.id),
  ]);
  await client.query(`DELETE FROM user_follows WHERE follower_id = $1`, [muterId]);
  await client.query(`INSERT INTO user_follows (follower_id, followee_id) SELECT $1, unnest($2::uuid[])`, [muterId, authors.map((a) => a.id)]);
  await client.query(`DELETE FROM keyword_filters WHERE user_id = $1`, [muterId]);
  await client.query(
    `INSERT INTO keyword_filters (id, user_id, title, keywords, contexts)
     SELECT gen_random_uuid(), $1, 'Filter ' || i,
            jsonb_build_array(jsonb_build_object('keyword', translate(substr(md5('k' || i), 1, 8), '0123456789', 'qrstuvwxyz'), 'wholeWord', true),
                              jsonb_build_object('keyword', translate(substr(md5('r' || i), 1, 8), '0123456789', 'qrstuvwxyz'), 'wholeWord', true)),
            ARRAY['feed', 'comments', 'notifications']
     FROM generate_series(1, $2::int) AS i`,
    [muterId, FEED_FILTERS],
  );
  await client.end();
}

/** The cursor FEED_DEPTH posts into the feed, for one caller, by paging through it as a client does. */
async function feedCursorAtDepth(base: string, headers: Record<string, string>, query = ""): Promise<string> {
  let cursor: string | undefined;
  for (let seen = 0; seen < FEED_DEPTH; seen += 50) {
    const res = await fetch(`${base}/api/locker-room?${query}limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { headers });
    const body = (await res.json()) as { data?: { nextCursor?: string } };
    if (!res.ok || !body.data?.nextCursor) throw new Error(`feed paging failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    cursor = body.data.nextCursor;
  }
  return cursor!;
}

/** The feed cases, in the runner's order. */
export function feedCases(base: string, privateKey: string): Case[] {
  const readerAuth = { authorization: `Bearer ${signSessionToken(privateKey, FEED_READER_SUB, { ttlSeconds: 3600 })}` };
  const muterAuth = { authorization: `Bearer ${signSessionToken(privateKey, FEED_MUTER_SUB, { ttlSeconds: 3600 })}` };
  return [
    { name: "GET feed (anonymous)", target: 0.5, load: () => ({ url: `${base}/api/locker-room?limit=${PAGE}` }) },
    {
      name: `GET feed (anonymous, ${FEED_DEPTH} deep)`,
      target: 0.5,
      load: async () => ({ url: `${base}/api/locker-room?limit=${PAGE}&cursor=${encodeURIComponent(await feedCursorAtDepth(base, {}))}` }),
    },
    { name: "GET feed (with blocks)", target: 0.5, load: () => ({ url: `${base}/api/locker-room?limit=${PAGE}`, headers: readerAuth }) },
    {
      name: `GET feed (with blocks, ${FEED_DEPTH} deep)`,
      target: 0.5,
      load: async () => ({
        url: `${base}/api/locker-room?limit=${PAGE}&cursor=${encodeURIComponent(await feedCursorAtDepth(base, readerAuth))}`,
        headers: readerAuth,
      }),
    },
    {
      name: "GET feed (follows, mutes, filters)",
      target: 0.5,
      load: () => ({ url: `${base}/api/locker-room?following=true&limit=${PAGE}`, headers: muterAuth }),
    },
    {
      name: `GET feed (follows, mutes, filters, ${FEED_DEPTH} deep)`,
      target: 0.5,
      load: async () => ({
        url: `${base}/api/locker-room?following=true&limit=${PAGE}&cursor=${encodeURIComponent(await feedCursorAtDepth(base, muterAuth, "following=true&"))}`,
        headers: muterAuth,
      }),
    },
  ];
}

export function reportFeed(rows: (Row & { rounds?: Row[] })[]) {
  const rpsRatio = (first: Row, deep: Row) => deep.rps / Math.max(first.rps, 0.001);
  for (const who of ["anonymous", "with blocks", "follows, mutes, filters"]) {
    const [first, deep] = medianPair(rows, `GET feed (${who})`, `GET feed (${who}, ${FEED_DEPTH} deep)`, rpsRatio) ?? [];
    if (!first || !deep) continue;
    const ratio = rpsRatio(first, deep);
    console.log(
      `  feed ${who}: ${FEED_DEPTH} posts deep ${deep.rps.toFixed(0)} req/s, first page ${first.rps.toFixed(0)} req/s (${pct(ratio)}; ${ratio >= 0.8 ? "ok, within 20%" : "BELOW the first page's by more than 20%"})`,
    );
  }
}
