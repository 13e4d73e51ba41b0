// The for-you feed over the million posts (prepareMillionPosts): a reader who follows FEEDS_FOLLOWS of the authors and
// a team, and whose feed signals like and dwell on the posts of FEEDS_LIKED authors and hide a few posts. The cases:
// the first page (its snapshot reused while young, re-ranked once a minute) and the page FEEDS_DEPTH pages deep of the
// same snapshot (its cursor built from the first page's: position FEEDS_DEPTH × PAGE).
import pg from "pg";
import { signSessionToken } from "../../lib/auth/sign";
import { decodeCursor, encodeCursor } from "../../lib/kernel/cursor";
import { DB_URL, PAGE, type Case } from "./common";
import { millionAuthorSub } from "./million-posts";

const FEEDS_READER_SUB = "user_bench_feeds_reader";
const FEEDS_FOLLOWS = 50;
const FEEDS_LIKED = 10;
const FEEDS_DEPTH = 1_000;

/** The reader, their follows and signals (replaced on every run). Needs prepareMillionPosts first. */
export async function prepareFeeds(): Promise<void> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO users (id, external_id, updated_at) VALUES (gen_random_uuid(), $1, now()) ON CONFLICT (external_id) DO UPDATE SET analytics_personalization = true`,
      [FEEDS_READER_SUB],
    );
    const { rows: reader } = await client.query<{ id: string }>(`SELECT id::text FROM users WHERE external_id = $1`, [FEEDS_READER_SUB]);
    const readerId = reader[0]!.id;
    const subs = Array.from({ length: FEEDS_FOLLOWS + FEEDS_LIKED }, (_, i) => millionAuthorSub(i * 37));
    const { rows: authors } = await client.query<{ id: string }>(`SELECT id::text FROM users WHERE external_id = ANY($1::text[]) ORDER BY external_id`, [subs]);
    await client.query(`DELETE FROM user_follows WHERE follower_id = $1`, [readerId]);
    await client.query(`INSERT INTO user_follows (follower_id, followee_id) SELECT $1, unnest($2::uuid[])`, [
      readerId,
      authors.slice(0, FEEDS_FOLLOWS).map((a) => a.id),
    ]);
    await client.query(`INSERT INTO team_follows (user_id, team_id) VALUES ($1, 'tm_hch') ON CONFLICT DO NOTHING`, [readerId]);
    await client.query(`DELETE FROM feed_signal_batches WHERE user_id = $1`, [readerId]);
    await client.query(`DELETE FROM feed_snapshots WHERE user_id = $1`, [readerId]);
    // 20 batches of 50 events: likes and dwells on the liked authors' newest posts, a few hides.
    const liked = authors.slice(FEEDS_FOLLOWS).map((a) => a.id);
    await client.query(
      `WITH p AS (SELECT x.id, x.n FROM unnest($2::uuid[]) AS a(id) CROSS JOIN LATERAL (
                    SELECT id, row_number() OVER () AS n FROM (SELECT id FROM posts WHERE author_id = a.id ORDER BY publish_at DESC LIMIT 100) y) x),
            e AS (SELECT (row_number() OVER ()) AS k,
                         jsonb_build_object('type', CASE WHEN n % 25 = 0 THEN 'hide' WHEN n % 2 = 0 THEN 'dwell' ELSE 'like' END,
                                            'itemType', 'post', 'itemId', id::text, 'at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                            'durationMs', 12000) AS ev
                  FROM p)
       INSERT INTO feed_signal_batches (id, user_id, received_at, event_count, events)
       SELECT gen_random_uuid(), $1, now(), count(*), jsonb_agg(ev) FROM e GROUP BY k % 20`,
      [readerId, liked],
    );
  } finally {
    await client.end();
  }
}

/** The first page's answer: its nextCursor names the snapshot the deep page reads. */
async function firstPage(base: string, headers: Record<string, string>) {
  const res = await fetch(`${base}/api/v1/feeds/for-you?limit=${PAGE}`, { headers });
  const body = (await res.json()) as { data?: { order?: string; nextCursor?: string } };
  if (!res.ok || body.data?.order !== "ranked" || !body.data.nextCursor) throw new Error(`for-you failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body.data.nextCursor;
}

export function feedsCases(base: string, privateKey: string): Case[] {
  const headers = { authorization: `Bearer ${signSessionToken(privateKey, FEEDS_READER_SUB, { ttlSeconds: 3600 })}` };
  return [
    { name: "GET for-you (first page)", target: 0.5, load: () => ({ url: `${base}/api/v1/feeds/for-you?limit=${PAGE}`, headers }) },
    {
      name: `GET for-you (${FEEDS_DEPTH.toLocaleString()} pages deep)`,
      target: 0.5,
      load: async () => {
        const { id: snapshotId } = decodeCursor(await firstPage(base, headers));
        const cursor = encodeCursor(`r${FEEDS_DEPTH * PAGE}`, snapshotId);
        return { url: `${base}/api/v1/feeds/for-you?limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`, headers };
      },
    },
  ];
}
