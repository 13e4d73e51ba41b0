// Following fans: GET /api/v1/users/relationships for RELATIONSHIP_IDS users, as a reader who follows some of them,
// is followed by some, asked to follow some, blocked some and was blocked by some (made once per database, reset on
// every run).
import pg from "pg";
import { signSessionToken } from "../../lib/auth/sign";
import { DB_URL, type Case } from "./common";

const RELATIONSHIP_IDS = 50;
const READER_SUB = "user_bench_relationships";
const OTHER_SUB = (i: number) => `user_bench_rel_${i}`;

/** The reader, the other users and the reader's follows, followers, requests and blocks among them; answers their ids. */
export async function prepareFollows(): Promise<{ ids: string[] }> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const subs = Array.from({ length: RELATIONSHIP_IDS }, (_, i) => OTHER_SUB(i));
  await client.query(
    `INSERT INTO users (id, external_id, handle, handle_key, display_name, updated_at)
     SELECT gen_random_uuid(), s, 'bench_rel_' || i, 'bench_rel_' || i, 'Bench fan ' || i, now() FROM unnest($1::text[]) WITH ORDINALITY AS t(s, i)
     ON CONFLICT (external_id) DO NOTHING`,
    [[...subs, READER_SUB]],
  );
  const { rows: others } = await client.query<{ id: string }>(
    `SELECT id::text FROM users WHERE external_id = ANY($1::text[]) ORDER BY array_position($1::text[], external_id)`,
    [subs],
  );
  const ids = others.map((o) => o.id);
  const { rows: reader } = await client.query<{ id: string }>(`SELECT id::text FROM users WHERE external_id = $1`, [READER_SUB]);
  const me = reader[0]!.id;
  await client.query(`DELETE FROM user_follows WHERE follower_id = $1 OR followee_id = $1`, [me]);
  await client.query(`DELETE FROM follow_requests WHERE requester_id = $1 OR target_id = $1`, [me]);
  await client.query(`DELETE FROM user_blocks WHERE blocker_id = $1 OR blocked_id = $1`, [me]);
  // Of the 50: the reader follows 0..19, 10..29 follow the reader (10..19 both ways), requests to 30..34, blocks
  // 35..39, blocked by 40..44; 45..49 are strangers.
  await client.query(`INSERT INTO user_follows (follower_id, followee_id) SELECT $1, unnest($2::uuid[])`, [me, ids.slice(0, 20)]);
  await client.query(`INSERT INTO user_follows (follower_id, followee_id) SELECT unnest($2::uuid[]), $1`, [me, ids.slice(10, 30)]);
  await client.query(`INSERT INTO follow_requests (requester_id, target_id) SELECT $1, unnest($2::uuid[])`, [me, ids.slice(30, 35)]);
  await client.query(`INSERT INTO user_blocks (blocker_id, blocked_id) SELECT $1, unnest($2::uuid[])`, [me, ids.slice(35, 40)]);
  await client.query(`INSERT INTO user_blocks (blocker_id, blocked_id) SELECT unnest($2::uuid[]), $1`, [me, ids.slice(40, 45)]);
  await client.end();
  return { ids };
}

/** The follows cases, in the runner's order. */
export function followsCases(base: string, privateKey: string, { ids }: { ids: string[] }): Case[] {
  const auth = { authorization: `Bearer ${signSessionToken(privateKey, READER_SUB, { ttlSeconds: 3600 })}` };
  return [
    {
      name: `GET relationships (${RELATIONSHIP_IDS} ids)`,
      target: 0.6,
      load: () => ({ url: `${base}/api/v1/users/relationships?ids=${ids.join(",")}`, headers: auth }),
    },
  ];
}
