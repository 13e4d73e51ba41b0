// Search (GET /api/v1/search) over the million locker-room posts (million-posts.ts, prepared once by the runner):
// posts for COMMON_WORD (1 post in 5: 200,000 matches) and for RARE_WORD (20 posts), signed in as a reader with blocks
// both ways and mutes among the posts' authors, and a users trigram search (a handle with a typo).
import pg from "pg";
import { signSessionToken } from "../../lib/auth/sign";
import { DB_URL, PAGE, type Case } from "./common";
import { COMMON_WORD, millionAuthorSub, RARE_WORD } from "./million-posts";

const SEARCH_READER_SUB = "user_bench_search_reader";
const SEARCH_BLOCKS = 20;
const SEARCH_MUTES = 20;

/** The reader and its blocks (both ways) and mutes among the million posts' authors (renewed each run). */
export async function prepareSearch(): Promise<void> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO users (id, external_id, handle, handle_key, display_name, updated_at)
       VALUES (gen_random_uuid(), $1, 'search_reader', 'search_reader', 'Search Reader', now()) ON CONFLICT (external_id) DO NOTHING`,
      [SEARCH_READER_SUB],
    );
    const { rows } = await client.query<{ id: string; sub: string }>(`SELECT id::text, external_id AS sub FROM users WHERE external_id = ANY($1::text[])`, [
      [SEARCH_READER_SUB, ...Array.from({ length: 3 * SEARCH_BLOCKS }, (_, i) => millionAuthorSub(i))],
    ]);
    const id = (sub: string) => rows.find((r) => r.sub === sub)!.id;
    const reader = id(SEARCH_READER_SUB);
    const authors = (from: number, n: number) => Array.from({ length: n }, (_, i) => id(millionAuthorSub(from + i)));
    await client.query(`DELETE FROM user_blocks WHERE blocker_id = $1 OR blocked_id = $1`, [reader]);
    await client.query(`DELETE FROM user_mutes WHERE muter_id = $1`, [reader]);
    await client.query(`INSERT INTO user_blocks (blocker_id, blocked_id) SELECT $1, unnest($2::uuid[])`, [reader, authors(0, SEARCH_BLOCKS)]);
    await client.query(`INSERT INTO user_blocks (blocker_id, blocked_id) SELECT unnest($2::uuid[]), $1`, [reader, authors(SEARCH_BLOCKS, SEARCH_BLOCKS)]);
    await client.query(`INSERT INTO user_mutes (muter_id, muted_id) SELECT $1, unnest($2::uuid[])`, [reader, authors(2 * SEARCH_BLOCKS, SEARCH_MUTES)]);
  } finally {
    await client.end();
  }
}

export function searchCases(base: string, privateKey: string): Case[] {
  const auth = { authorization: `Bearer ${signSessionToken(privateKey, SEARCH_READER_SUB, { ttlSeconds: 3600 })}` };
  const url = (query: Record<string, string>) => `${base}/api/v1/search?${new URLSearchParams({ ...query, limit: String(PAGE) })}`;
  return [
    { name: `GET search posts (common "${COMMON_WORD}")`, target: 0.5, load: () => ({ url: url({ type: "posts", q: COMMON_WORD }), headers: auth }) },
    { name: `GET search posts (rare "${RARE_WORD}")`, target: 0.5, load: () => ({ url: url({ type: "posts", q: RARE_WORD }), headers: auth }) },
    // The million posts' authors are mp_fan0..mp_fan1999 (among a million other users): a handle being typed.
    { name: "GET search users (trigram)", target: 0.5, load: () => ({ url: url({ type: "users", q: "mp_fan123" }), headers: auth }) },
  ];
}
