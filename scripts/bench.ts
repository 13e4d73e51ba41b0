// npm run bench: load-tests the production build on a seeded database and prints, per route,
// requests/s and p50/p99 latency, then the ratios the foundation issue sets as targets, the live stream's delivery
// and the marketplace's buying under contention (BENCH_ONLY=contention for that alone).
// Options (env): BENCH_DURATION seconds per route (default 10), BENCH_CONNECTIONS (default 16), BENCH_ONLY (parts
// of route names, comma-separated: run only those, and GET /api/health), BENCH_TARGET_ROUNDS (default 3: how many
// times each route with a target is measured, in passes spread over the bench; its ratio is the median),
// BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/fan_bench), NEXT_DIST_DIR.
// BENCH_COMPARE_DIST_DIR: a second build (e.g. one made without middleware.ts); the bench then measures only
// GET /api/health, on both builds in alternating rounds (BENCH_ROUNDS, default 3; both servers up throughout),
// and prints NEXT_DIST_DIR's throughput and each server's CPU time per request (Linux /proc: a second view, less
// swayed than throughput by other processes competing for the cores) as shares of the other build's.
import { BENCH_DATABASE_URL, BOARD_PREFIX } from "./bench-env";
import { spawn } from "node:child_process";
import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import autocannon from "autocannon";
import pg from "pg";
import { DEV_ISSUER, signSessionToken } from "../lib/auth/sign";
import { createDb } from "../lib/db/client";
import { ensureDatabase, migrate } from "../lib/db/migrate";
import { seed } from "../lib/db/seed";
import { encodeCursor } from "../lib/http/cursor";
import { boardKey, moveBoards, rebuildBoards } from "../lib/leaderboard/service";
import { boardStore } from "../lib/leaderboard/store";
import { award } from "../lib/rep/grants";
import { freePort } from "../lib/ports";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const DB_URL = BENCH_DATABASE_URL;
const LEDGER_ENTRIES = 1_000_000;
const PAGE = 20;
const DEEP_PAGE = 5_000;
const SUB = "user_bench_ledger";
// One client at thousands of requests a second: lift the default policies (the limiter still runs, its cost is measured).
const LIFTED = { tokens: 100_000_000, window: "60 s" };
const BENCH_LIMITS = JSON.stringify({ anonymous: LIFTED, user: LIFTED, write: LIFTED, signals: LIFTED, money: LIFTED });
// Fans who write in the engagement-loop rows: each check-in, quiz answer and rating is one a real fan could make.
// Their (writer, team) pairs are the run's check-ins, once each: 3,000 writers and the seed's 35 teams with a check-in
// quest hold 105,000, enough for three rounds of 10 s at 3,500 check-ins a second (400 writers ran out on a fresh
// database in one round, and the rest answered 409). The bench says when a write ran past its pool (`pools`).
const WRITERS = 3_000;
// Every writer's attempt at each of the seed's 35 quizzes: 105,000 sessions, each answered once in the run. A second
// answer comes a pass later, long after its question (shown at the first answer) closed: the timeout path, not the
// answer path (with 15 quizzes each, the third round was that: 17% against the first two's 40–50%; with 1,500
// writers, a machine answering 1,935 a second ran out 7 s into the third round, which measured 13%).
const QUIZZES_PER_WRITER = 35;
const DASHBOARD_SUB = "user_bench_dashboard";

// The leaderboard board of BOARD_FANS fans (one ledger entry each, points BOARD_FANS down to 1), under its own prefix.
const BOARD_FANS = 1_000_000;
const BOARD_SUB = (i: number) => `user_bench_lb_${i}`;
const STREAMS = 1_000;

// The locker-room feed: FEED_POSTS public posts by FEED_AUTHORS fans, one a second back from an hour ago (every
// 10th pair sharing a publish time, to exercise the id tie-break), and a reader who blocked FEED_BLOCKED of the
// authors and was blocked by as many others.
const FEED_POSTS = 50_000;
const FEED_AUTHORS = 500;
const FEED_BLOCKED = 50;
const FEED_DEPTH = 1_000;
const FEED_AUTHOR_SUB = (i: number) => `user_bench_poster_${i}`;
const FEED_READER_SUB = "user_bench_feed_reader";
const STREAM_CHANGES = 20;
// The marketplace: listings to browse (once per database), and the contention run: few listings, many buyers.
const MARKET_LISTINGS = 20_000;
const MARKET_SELLERS = 200;
const MARKET_SELLER_SUB = (i: number) => `user_bench_seller_${i}`;
const CONTENDED_LISTINGS = 50;
const CONTENDING_BUYERS = 500;
const BUYER_SUB = (i: number) => `user_bench_buyer_${i}`;

const distDir = process.env.NEXT_DIST_DIR ?? ".next";
if (!existsSync(`${distDir}/BUILD_ID`)) {
  console.error("No production build: run `npm run build` first.");
  process.exit(1);
}
const compareDir = process.env.BENCH_COMPARE_DIST_DIR;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_ROUNDS = Math.max(1, Number(process.env.BENCH_TARGET_ROUNDS ?? 3));
if (compareDir && !existsSync(`${compareDir}/BUILD_ID`)) {
  console.error(`No production build in ${compareDir}: NEXT_DIST_DIR=${compareDir} npm run build first.`);
  process.exit(1);
}

async function prepareDatabase(): Promise<{ userId: string; deepCursor: string }> {
  await ensureDatabase(DB_URL);
  await migrate(DB_URL);
  const db = createDb(DB_URL, 2);
  await seed(db);
  await db.user.createMany({ data: [{ externalId: SUB }], skipDuplicates: true });
  const { id: userId } = await db.user.findUniqueOrThrow({ where: { externalId: SUB } });
  await db.$disconnect();

  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM rep_entries WHERE user_id = $1", [userId]);
  if (Number(rows[0]!.n) < LEDGER_ENTRIES) {
    console.log(`bench: writing ${LEDGER_ENTRIES.toLocaleString()} ledger entries (once per database)…`);
    await client.query("DELETE FROM rep_entries WHERE user_id = $1", [userId]);
    // One entry a second going back in time, with every 10th pair sharing a timestamp to exercise the id tie-break.
    await client.query(
      `INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, grant_key, created_at)
       SELECT gen_random_uuid(), $1, (ARRAY['fanAmp','club','playerAmp','serviceDirect']::"RepSource"[])[1 + i % 4],
              1 + i % 25, 'Bench entry ' || i, 'bench', 'bench:' || i,
              timestamptz '2026-11-01' - make_interval(secs => i - (i % 10 = 1)::int)
       FROM generate_series(1, $2::int) AS i`,
      [userId, LEDGER_ENTRIES],
    );
    await client.query("ANALYZE rep_entries");
  }
  for (const teamId of ["tm_hch", "tm_gfg", "tm_lsl", "tm_rvr", "tm_fpb", "prov_unsynced_1"]) {
    await client.query("INSERT INTO starred_teams (user_id, team_id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [userId, teamId, teamId]);
  }
  const deep = await client.query<{ id: string; created_at: Date }>(
    `SELECT id::text AS id, created_at FROM rep_entries WHERE user_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
    [userId, DEEP_PAGE * PAGE - 1],
  );
  await client.end();
  const row = deep.rows[0]!;
  return { userId, deepCursor: encodeCursor(row.created_at.getTime(), row.id) };
}

/** The feed's posts and authors (once per database) and its reader's blocks. */
async function prepareFeed(): Promise<void> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const subs = Array.from({ length: FEED_AUTHORS }, (_, i) => FEED_AUTHOR_SUB(i));
  await client.query(
    `INSERT INTO users (id, external_id, handle, handle_key, display_name, updated_at)
     SELECT gen_random_uuid(), s, 'poster' || i, 'poster' || i, 'Poster ' || i, now() FROM unnest($1::text[]) WITH ORDINALITY AS t(s, i)
     ON CONFLICT (external_id) DO NOTHING`,
    [[...subs, FEED_READER_SUB]],
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
  await client.end();
}

/** Bench cards (editions large enough) and MARKET_LISTINGS active fixed-price listings by MARKET_SELLERS sellers. */
async function prepareMarket(): Promise<void> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const { rows: counted } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM listings WHERE card_id LIKE 'cc_bench_%' AND status = 'active'`);
  if (Number(counted[0]!.n) < MARKET_LISTINGS) {
    console.log(`bench: writing ${MARKET_LISTINGS.toLocaleString()} marketplace listings (once per database)…`);
    const subs = Array.from({ length: MARKET_SELLERS }, (_, i) => MARKET_SELLER_SUB(i));
    await client.query(
      `INSERT INTO users (id, external_id, handle, handle_key, updated_at)
       SELECT gen_random_uuid(), s, 'seller' || i, 'seller' || i, now() FROM unnest($1::text[]) WITH ORDINALITY AS t(s, i)
       ON CONFLICT (external_id) DO NOTHING`,
      [subs],
    );
    await client.query(
      `INSERT INTO collectible_cards (id, kind, team_id, name, rarity, edition_size)
       SELECT 'cc_bench_' || t.id, 'team', t.id, t.name || ' bench card', (ARRAY['common','rare','epic','legendary']::"Rarity"[])[1 + i % 4], 1000000
       FROM teams t, LATERAL (SELECT row_number() OVER () AS i) r(i) WHERE t.archived_at IS NULL
       ON CONFLICT (id) DO NOTHING`,
    );
    await client.query(
      `WITH sellers AS (SELECT array_agg(id ORDER BY external_id) AS ids FROM users WHERE external_id = ANY($1::text[])),
            cards AS (SELECT array_agg(id ORDER BY id) AS ids FROM collectible_cards WHERE id LIKE 'cc_bench_%'),
            items AS (
              INSERT INTO collectibles (id, card_id, serial, owner_id)
              SELECT gen_random_uuid(), cards.ids[1 + i % array_length(cards.ids, 1)], 1000 + i, sellers.ids[1 + i % $2]
              FROM generate_series(1, $3::int) AS i, sellers, cards
              ON CONFLICT (card_id, serial) DO NOTHING
              RETURNING id, card_id, owner_id, serial
            )
       INSERT INTO listings (id, seller_id, collectible_id, active_item_id, kind, price, card_id, team_id, rarity, created_at)
       SELECT gen_random_uuid(), items.owner_id, items.id, items.id, 'fixed', 100 + (items.serial * 37) % 50000, k.id, k.team_id, k.rarity,
              now() - make_interval(secs => items.serial)
       FROM items JOIN collectible_cards k ON k.id = items.card_id`,
      [subs, MARKET_SELLERS, MARKET_LISTINGS],
    );
    await client.query("ANALYZE collectibles; ANALYZE listings; ANALYZE collectible_cards");
  }
  await client.end();
}

/**
 * Buying under contention: CONTENDED_LISTINGS fresh listings, CONTENDING_BUYERS funded buyers, ten tries per listing
 * from ten different buyers at once (every request its own Idempotency-Key). Answers the sales per second and
 * whether any listing sold twice (the database's count of sales, transfers and money against the listings).
 */
async function measureContention(base: string, token: (sub: string) => string) {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const subs = Array.from({ length: CONTENDING_BUYERS }, (_, i) => BUYER_SUB(i));
  await client.query(
    `INSERT INTO users (id, external_id, updated_at) SELECT gen_random_uuid(), s, now() FROM unnest($1::text[]) AS s ON CONFLICT (external_id) DO NOTHING`,
    [subs],
  );
  // Every buyer gets 1,000,000 (a staff adjustment, so the ledger and the balance agree).
  await client.query(
    `WITH b AS (SELECT id FROM users WHERE external_id = ANY($1::text[])),
          w AS (INSERT INTO wallets (user_id, currency, balance) SELECT id, 'COIN', 1000000 FROM b
                ON CONFLICT (user_id, currency) DO UPDATE SET balance = wallets.balance + 1000000 RETURNING user_id, balance)
     INSERT INTO wallet_transactions (id, user_id, currency, amount, balance_after, reason, reference_type, reference_id, note)
     SELECT gen_random_uuid(), w.user_id, 'COIN', 1000000, w.balance, 'adjustment', 'staff', 'bench', 'bench funds' FROM w`,
    [subs],
  );
  const { rows: seller } = await client.query<{ id: string }>(`SELECT id::text FROM users WHERE external_id = $1`, [MARKET_SELLER_SUB(0)]);
  const { rows: listed } = await client.query<{ id: string }>(
    `WITH items AS (
       INSERT INTO collectibles (id, card_id, serial, owner_id)
       SELECT gen_random_uuid(), 'cc_bench_tm_hch', 2000000 + (extract(epoch FROM clock_timestamp())::bigint % 100000) * 100 + i, $1::uuid
       FROM generate_series(1, $2::int) AS i
       RETURNING id, card_id
     )
     INSERT INTO listings (id, seller_id, collectible_id, active_item_id, kind, price, card_id, team_id, rarity)
     SELECT gen_random_uuid(), $1::uuid, items.id, items.id, 'fixed', 5000, k.id, k.team_id, k.rarity
     FROM items JOIN collectible_cards k ON k.id = items.card_id
     RETURNING id::text`,
    [seller[0]!.id, CONTENDED_LISTINGS],
  );
  const tries = listed.flatMap((l, i) => Array.from({ length: 10 }, (_, j) => ({ listing: l.id, sub: subs[(i * 10 + j) % subs.length]! })));
  tries.sort(() => Math.random() - 0.5);
  const statuses = new Map<number, number>();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS * 4 }, async () => {
      while (next < tries.length) {
        const t = tries[next++]!;
        const res = await fetch(`${base}/api/v1/marketplace/listings/${t.listing}/buy`, {
          method: "POST",
          headers: { authorization: `Bearer ${token(t.sub)}`, "idempotency-key": randomUUID() },
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const ids = listed.map((l) => l.id);
  const { rows: check } = await client.query<{ sold: number; transfers: number; debits: number; worst: number }>(
    `SELECT (SELECT count(*)::int FROM listings WHERE id = ANY($1::uuid[]) AND status = 'sold') AS sold,
            (SELECT count(*)::int FROM collectible_transfers WHERE reference_id = ANY($2::text[]) AND reason = 'sale') AS transfers,
            (SELECT count(*)::int FROM wallet_transactions WHERE reference_id = ANY($2::text[]) AND reason = 'purchase') AS debits,
            (SELECT coalesce(max(n), 0)::int FROM (SELECT count(*) AS n FROM collectible_transfers WHERE reference_id = ANY($2::text[]) AND reason = 'sale' GROUP BY reference_id) x) AS worst`,
    [ids, ids],
  );
  await client.end();
  const c = check[0]!;
  return {
    tries: tries.length,
    seconds,
    sales: statuses.get(200) ?? 0,
    refused: statuses.get(409) ?? 0,
    other: tries.length - (statuses.get(200) ?? 0) - (statuses.get(409) ?? 0),
    ...c,
  };
}

/** The cursor FEED_DEPTH posts into the feed, for one caller, by paging through it as a client does. */
async function feedCursorAtDepth(base: string, headers: Record<string, string>): Promise<string> {
  let cursor: string | undefined;
  for (let seen = 0; seen < FEED_DEPTH; seen += 50) {
    const res = await fetch(`${base}/api/locker-room?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { headers });
    const body = (await res.json()) as { data?: { nextCursor?: string } };
    if (!res.ok || !body.data?.nextCursor) throw new Error(`feed paging failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    cursor = body.data.nextCursor;
  }
  return cursor!;
}

/** Where the bench's check-in games are played (and its writers stand, 111 m away). */
const BENCH_VENUE = { latitude: 40.0, longitude: -100.0 };

interface Writers {
  subs: string[];
  /** Live teams with a check-in quest: (writer, team) pairs are the check-ins, once per UTC day each. */
  teams: string[];
  /** Today's quiz sessions, one answer each: [writer index, session id]. */
  sessions: [number, string][];
}

/**
 * The write benches' fans, made afresh each run (the day's check-ins and quiz attempts are once per UTC day): WRITERS
 * users following every live team, each with QUIZZES_PER_WRITER quiz sessions started today, and a dashboard fan
 * following three teams with a week of activity. Quiz sessions are inserted as the start route writes them, with the
 * first question shown in two hours so no answer of the run (its three rounds take about 25 minutes) arrives after its
 * deadline. Final games without a lineup get one from the players their teams have (the app seeds one only when both
 * teams have players, which four of the seed's games do): ratings then have 24 games, and 3,000 writers × 24 games
 * (72,000) hold three rounds of first submissions, each crediting Rep, as a fan's rating after a match does.
 */
async function prepareWriters(): Promise<Writers> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  await client.query("DELETE FROM users WHERE external_id LIKE 'user_bench_w_%' OR external_id = $1", [DASHBOARD_SUB]);
  const subs = Array.from({ length: WRITERS }, (_, i) => `user_bench_w_${i}`);
  const { rows: users } = await client.query<{ id: string; external_id: string }>(
    `INSERT INTO users (id, external_id, updated_at) SELECT gen_random_uuid(), unnest($1::text[]), now() RETURNING id::text, external_id`,
    [subs],
  );
  const idOf = new Map(users.map((u) => [u.external_id, u.id]));
  const { rows: teams } = await client.query<{ id: string }>(
    `SELECT t.id FROM teams t WHERE t.archived_at IS NULL AND EXISTS (SELECT 1 FROM quests q WHERE q.team_id = t.id AND q.kind = 'check_in') ORDER BY t.id`,
  );
  await client.query(
    `INSERT INTO team_follows (user_id, team_id) SELECT u.id, t.id FROM users u CROSS JOIN unnest($2::text[]) AS t(id) WHERE u.id = ANY($1::uuid[])`,
    [[...idOf.values()], teams.map((t) => t.id)],
  );
  // A check-in needs a game of the team under way, at whose venue the fan stands: one per team (gm_bench_<team>),
  // kicked off an hour ago, against an archived rival in an archived league (so no list shows them), made afresh.
  await client.query(`DELETE FROM games WHERE league_id = 'lg_bench'`);
  await client.query(`DELETE FROM teams WHERE id = 'tm_bench_rival'`);
  await client.query(`DELETE FROM leagues WHERE id = 'lg_bench'`);
  await client.query(`INSERT INTO leagues (id, slug, name, sport, archived_at, updated_at) VALUES ('lg_bench', 'bench', 'Bench', 'football', now(), now())`);
  await client.query(
    `INSERT INTO teams (id, slug, name, league_id, archived_at, updated_at) VALUES ('tm_bench_rival', 'bench-rival', 'Bench Rivals', 'lg_bench', now(), now())`,
  );
  await client.query(
    `INSERT INTO games (id, league_id, home_team_id, away_team_id, starts_at, status, venue, venue_latitude, venue_longitude, updated_at)
     SELECT 'gm_bench_' || t.id, 'lg_bench', t.id, 'tm_bench_rival', now() - interval '1 hour', 'live', 'Bench Park', $2, $3, now()
     FROM unnest($1::text[]) AS t(id)`,
    [teams.map((t) => t.id), BENCH_VENUE.latitude, BENCH_VENUE.longitude],
  );
  const { rows: sessions } = await client.query<{ id: string; user_id: string }>(
    `INSERT INTO quiz_sessions (id, user_id, quest_id, day, question_ids, question_shown_at)
     SELECT gen_random_uuid(), u.id, q.id, (now() AT TIME ZONE 'UTC')::date,
            ARRAY(SELECT qq.id FROM quiz_questions qq WHERE qq.quest_id = q.id AND qq.active ORDER BY qq.id LIMIT q.quiz_length),
            now() + interval '2 hours'
     FROM users u CROSS JOIN LATERAL (SELECT id, quiz_length FROM quests WHERE kind = 'quiz' AND active ORDER BY id LIMIT $2) q
     WHERE u.id = ANY($1::uuid[])
     RETURNING id::text, user_id::text`,
    [[...idOf.values()], QUIZZES_PER_WRITER],
  );
  await client.query(
    `INSERT INTO game_lineup_slots (game_id, player_id, team_id, position, slot)
     SELECT g.id, p.id, p.team_id, p.position, row_number() OVER (PARTITION BY g.id ORDER BY p.team_id = g.home_team_id DESC, p.id)
     FROM games g JOIN players p ON p.team_id IN (g.home_team_id, g.away_team_id) AND p.active AND p.availability = 'available'
     WHERE g.status = 'final' AND NOT EXISTS (SELECT 1 FROM game_lineup_slots s WHERE s.game_id = g.id)`,
  );
  // The games' earlier ratings (once per database): 1,000 of the board's fans rated every game with a lineup. Without
  // them each run starts with game_ratings empty (its writers' ratings went with them), the VACUUM below records it
  // empty, and the plans made from that (the scores' foreign-key check among them) scan it: 0.2 ms a row by the
  // run's end, 80% of a rating's database time. A platform's games have been rated before; the bench's should be too.
  await client.query(
    `WITH fans AS (SELECT id FROM users WHERE external_id = ANY(ARRAY(SELECT 'user_bench_lb_' || i FROM generate_series(1, 1000) AS i))),
     rated AS (
       INSERT INTO game_ratings (id, user_id, game_id, created_at, updated_at)
       SELECT gen_random_uuid(), f.id, g.id, now() - interval '1 day', now() - interval '1 day'
       FROM fans f CROSS JOIN (SELECT DISTINCT game_id AS id FROM game_lineup_slots) g
       WHERE NOT EXISTS (SELECT 1 FROM game_ratings r JOIN users u ON u.id = r.user_id WHERE u.external_id = 'user_bench_lb_1')
       RETURNING id, game_id
     )
     INSERT INTO game_rating_scores (rating_id, game_id, player_id, score)
     SELECT r.id, r.game_id, s.player_id, 1 + abs(hashtext(r.id::text || s.player_id)) % 10
     FROM rated r JOIN game_lineup_slots s ON s.game_id = r.game_id AND s.slot <= 5`,
  );
  const indexOf = new Map(subs.map((s, i) => [idOf.get(s)!, i]));
  // Interleaved by writer, so concurrent requests rarely touch one fan's row lock at once.
  const ordered = sessions.map((r) => [indexOf.get(r.user_id)!, r.id] as [number, string]).sort((a, b) => a[1].localeCompare(b[1]));

  const { rows: dash } = await client.query<{ id: string }>(
    `INSERT INTO users (id, external_id, updated_at) VALUES (gen_random_uuid(), $1, now()) RETURNING id::text`,
    [DASHBOARD_SUB],
  );
  const dashId = dash[0]!.id;
  await client.query(`INSERT INTO team_follows (user_id, team_id) VALUES ($1, 'tm_hch'), ($1, 'tm_fpb'), ($1, 'tm_whu')`, [dashId]);
  await client.query(
    `INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, grant_key, created_at)
     SELECT gen_random_uuid(), $1, (ARRAY['fanAmp','club','playerAmp','serviceDirect']::"RepSource"[])[1 + i % 4], 5 + i % 20,
            'Bench entry ' || i, 'bench', 'bench:' || i, now() - make_interval(hours => i)
     FROM generate_series(1, 200) AS i`,
    [dashId],
  );
  await client.query(
    `UPDATE users u SET rep_balance = t.total, rep_earned_fan_amp = t.fan_amp, rep_earned_club = t.club, rep_earned_player_amp = t.player_amp,
            rep_earned_service_direct = t.service_direct
     FROM (SELECT sum(amount) AS total, COALESCE(sum(amount) FILTER (WHERE source = 'fanAmp'), 0) AS fan_amp,
                  COALESCE(sum(amount) FILTER (WHERE source = 'club'), 0) AS club, COALESCE(sum(amount) FILTER (WHERE source = 'playerAmp'), 0) AS player_amp,
                  COALESCE(sum(amount) FILTER (WHERE source = 'serviceDirect'), 0) AS service_direct
           FROM rep_entries WHERE user_id = $1) t
     WHERE u.id = $1`,
    [dashId],
  );
  // Each run deletes the last run's writers and their rows: vacuum them away, as autovacuum would in production (a
  // machine may run PostgreSQL without it), or every run writes through more dead index entries than the last.
  await client.query("VACUUM (ANALYZE)");
  await client.end();
  return { subs, teams: teams.map((t) => t.id), sessions: ordered };
}

/** Final games whose lineup seeds, with their players (reading an event seeds its lineup). */
async function ratableGames(base: string, auth: Record<string, string>): Promise<{ id: string; players: string[] }[]> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const { rows } = await client.query<{ id: string }>(`SELECT id FROM games WHERE status = 'final' ORDER BY id`);
  await client.end();
  const games = [];
  for (const { id } of rows) {
    const res = await fetch(`${base}/api/events/${id}`, { headers: auth });
    const body = (await res.json()) as { data?: { event: { lineup: { status: string; players: { playerId: string }[] } } } };
    const lineup = body.data?.event.lineup;
    if (lineup?.status === "seeded" && lineup.players.length >= 5) games.push({ id, players: lineup.players.map((p) => p.playerId) });
  }
  return games;
}

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** The server process's own CPU time per measured request (PostgreSQL's is not in it). */
  cpuUs: number;
  /** CPU time of this machine's PostgreSQL processes per measured request (other databases' work included). */
  pgUs: number;
  errors: number;
}

/** A warm-up, then DURATION seconds of load on the server `pid`. */
async function measure(name: string, pid: number, options: autocannon.Options): Promise<Row> {
  await autocannon({ ...options, connections: CONNECTIONS, duration: 2 }); // warm-up
  const before = cpuSeconds(pid);
  const pgBefore = postgresCpuSeconds();
  const r = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION });
  const perRequest = (seconds: number) => (seconds / Math.max(r.requests.total, 1)) * 1e6;
  const cpuUs = perRequest(cpuSeconds(pid) - before);
  const pgUs = perRequest(postgresCpuSeconds() - pgBefore);
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuUs, pgUs, errors: r.errors + r.non2xx + r.timeouts };
}

/** POSTs that differ per request (`next` names path, caller and body): a write bench where every answer must be a 2xx. */
function postEach(next: () => { path: string; headers: Record<string, string>; body: string }): autocannon.Request[] {
  return [
    {
      method: "POST",
      setupRequest: (req) => {
        const n = next();
        return { ...req, path: n.path, headers: { ...n.headers, "content-type": "application/json" }, body: n.body };
      },
    },
  ];
}

/**
 * The 1,000,000-fan global board: fans user_bench_lb_1..N with one club entry each (N + 1 − i points, last season, so
 * the current season's boards stay small), made once; the rank index is rebuilt from the ledger when Redis lacks it.
 */
async function prepareBoard(): Promise<void> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM users WHERE external_id LIKE 'user_bench_lb_%'");
  if (Number(rows[0]!.n) < BOARD_FANS) {
    console.log(`seeding ${BOARD_FANS.toLocaleString()} leaderboard fans (once)…`);
    await client.query("DELETE FROM users WHERE external_id LIKE 'user_bench_lb_%'");
    await client.query(
      `INSERT INTO users (id, external_id, handle, handle_key, rep_balance, rep_earned_club, updated_at)
       SELECT gen_random_uuid(), 'user_bench_lb_' || i, 'benchfan' || i, 'benchfan' || i, $1 + 1 - i, $1 + 1 - i, now()
       FROM generate_series(1, $1::int) AS i`,
      [BOARD_FANS],
    );
    await client.query(
      `INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, grant_key, created_at)
       SELECT gen_random_uuid(), id, 'club', rep_balance, 'Bench board', 'bench_board', 'bench_board', '2025-06-01T00:00:00Z'::timestamptz + (rep_balance || ' s')::interval
       FROM users WHERE external_id LIKE 'user_bench_lb_%'`,
    );
    await client.query("ANALYZE users");
    await client.query("ANALYZE rep_entries");
  }
  await client.end();
  const store = await boardStore();
  if ((await store.stats(boardKey("global", "all"), [])).size < BOARD_FANS) {
    console.log("rebuilding the leaderboards from the ledger…");
    const started = Date.now();
    const db = createDb(DB_URL, 2);
    const { boards } = await rebuildBoards(db);
    await db.$disconnect();
    console.log(
      `  ${boards.reduce((n, b) => n + b.entries, 0).toLocaleString()} entries on ${boards.length} boards in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
}

/** The resident memory of process `pid` in bytes (Linux /proc). */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

/**
 * Live streams: STREAMS clients on the global board, then STREAM_CHANGES score changes made one after another; how
 * long each change took from its write to reaching each stream, and the server's memory per open stream.
 */
async function measureStreams(base: string, pid: number) {
  const rssBefore = rssOf(pid);
  const aborts: AbortController[] = [];
  const arrivals = new Map<string, number[]>(); // fan id → arrival times
  const readers = await Promise.all(
    Array.from({ length: STREAMS }, async (_, i) => {
      const abort = new AbortController();
      aborts.push(abort);
      // One address per client, as STREAMS fans would come: one address may hold only STREAMS_PER_CALLER streams.
      const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      const res = await fetch(`${base}/api/leaderboard/stream?board=global&period=all`, { signal: abort.signal, headers: { "x-forwarded-for": address } });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      let snapshot: () => void = () => {};
      const ready = new Promise<void>((resolve) => (snapshot = resolve));
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            buffer += decoder.decode(value, { stream: true });
            let i;
            while ((i = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, i);
              buffer = buffer.slice(i + 2);
              if (block.includes("event: snapshot")) snapshot();
              const m = /event: score\ndata: (.*)/.exec(block);
              if (m) {
                const fanId = (JSON.parse(m[1]!) as { fan: { id: string } }).fan.id;
                arrivals.set(fanId, [...(arrivals.get(fanId) ?? []), performance.now()]);
              }
            }
          }
        } catch {
          // aborted
        }
      })();
      return ready;
    }),
  );
  await Promise.all(readers);
  const bytesPerStream = (rssOf(pid) - rssBefore) / STREAMS;
  const db = createDb(DB_URL, 2);
  const fans = await db.user.findMany({
    where: { externalId: { in: Array.from({ length: STREAM_CHANGES }, (_, i) => BOARD_SUB(500_000 + i)) } },
    select: { id: true },
  });
  const delays: number[] = [];
  for (const { id } of fans) {
    await db.$transaction((tx) =>
      award(tx, id, { earnKind: "bench_stream", amount: 1, source: "club", reason: "Bench stream", grantKey: `bench_stream:${Date.now()}` }),
    );
    const written = performance.now();
    await moveBoards([id], new Date(), db);
    for (let waited = 0; (arrivals.get(id)?.length ?? 0) < STREAMS && waited < 5_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    delays.push(...(arrivals.get(id) ?? []).map((t) => t - written));
  }
  for (const a of aborts) a.abort();
  await db.$disconnect();
  const sorted = delays.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), delivered: sorted.length, expected: STREAMS * fans.length, bytesPerStream };
}

const { deepCursor } = await prepareDatabase();
const writers = await prepareWriters();
await prepareBoard();
await prepareFeed();
await prepareMarket();
const { publicKey, privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
});
// What a production server insists on; the bench never calls the identity provider.
const PRODUCTION_SETTINGS = {
  CLERK_SECRET_KEY: "sk_test_bench_unused",
  CLERK_ISSUER: DEV_ISSUER,
  CLERK_AUTHORIZED_PARTIES: "https://app.example.com",
  MOBILE_STATE_SECRET: randomBytes(32).toString("hex"),
  // Makes middleware.ts active (Clerk's middleware on the staff console) as in production; /api never reaches it.
  CLERK_PUBLISHABLE_KEY: `pk_live_${Buffer.from(`${new URL(DEV_ISSUER).host}$`).toString("base64")}`,
};

async function startServer(dir: string): Promise<{ base: string; pid: number; stop: () => void }> {
  const port = await freePort();
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NEXT_DIST_DIR: dir,
      NODE_ENV: "production",
      DATABASE_URL: DB_URL,
      // Production refuses to start without a Redis: the local one unless REDIS_URL says otherwise.
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      CLERK_JWT_KEY: publicKey,
      ...PRODUCTION_SETTINGS,
      NEXT_TELEMETRY_DISABLED: "1",
      CLERK_TELEMETRY_DISABLED: "1",
      RATE_LIMIT_PREFIX: `bench:${Date.now()}`,
      LEADERBOARD_PREFIX: BOARD_PREFIX,
      RATE_LIMIT_OVERRIDES: BENCH_LIMITS,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      if (i > 300) throw new Error("server did not start");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, pid: server.pid!, stop: () => server.kill("SIGTERM") };
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
/** CPU seconds (user + system) a process has used so far; Linux only (clock ticks of 1/100 s). */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
/**
 * CPU seconds used so far by this machine's PostgreSQL processes (backends included; Linux /proc). Backends that
 * exited in between are missed, but the server's pool keeps its connections for the whole run.
 */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue;
      total += cpuSeconds(Number(entry));
    } catch {
      // gone in between
    }
  }
  return total;
}
if (compareDir) {
  const builds = [
    { dir: distDir, ...(await startServer(distDir)), rps: [] as number[], cpu: [] as number[] },
    { dir: compareDir, ...(await startServer(compareDir)), rps: [] as number[], cpu: [] as number[] },
  ];
  console.log(`\nbench: GET /api/health, ${DURATION}s per round, ${CONNECTIONS} connections, builds alternating\n`);
  console.log(`${"round".padEnd(7)}${"build".padEnd(24)}${pad("req/s", 10)}${pad("p50 ms", 9)}${pad("p99 ms", 9)}${pad("CPU µs/req", 12)}${pad("errors", 8)}`);
  let errors = 0;
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const b of round % 2 ? builds : [...builds].reverse()) {
        const r = await measure("GET /api/health", b.pid, { url: `${b.base}/api/health` });
        b.rps.push(r.rps);
        b.cpu.push(r.cpuUs);
        errors += r.errors;
        console.log(
          `${String(round).padEnd(7)}${b.dir.padEnd(24)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50, 9)}${pad(r.p99, 9)}${pad(r.cpuUs.toFixed(0), 12)}${pad(r.errors, 8)}`,
        );
      }
    }
  } finally {
    for (const b of builds) b.stop();
  }
  const [a, b] = builds as [(typeof builds)[0], (typeof builds)[0]];
  // Each round's two measurements are back to back, so their ratio cancels most of the load other processes add.
  const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
  for (const [what, key] of [
    ["throughput", "rps"],
    ["CPU per request", "cpu"],
  ] as const) {
    const ratios = a[key].map((x, i) => x / b[key][i]!);
    console.log(`\n${what}: median ${a.dir} ${median(a[key]).toFixed(0)}, ${b.dir} ${median(b[key]).toFixed(0)}`);
    console.log(`  ${a.dir} / ${b.dir} per round: ${ratios.map(percent).join(", ")}`);
    console.log(`  median of the per-round ratios: ${percent(median(ratios))} (range ${percent(Math.min(...ratios))}–${percent(Math.max(...ratios))})`);
  }
  if (errors > 0) console.log("errors were recorded: the figures above are not valid");
  process.exit(errors > 0 ? 1 : 0);
}

const { base, pid, stop } = await startServer(distDir);

interface Case {
  name: string;
  /** Throughput as a share of GET /api/health's in the same run that the route must reach. */
  target?: number;
  /** What autocannon sends (made when the case runs). */
  load: () => autocannon.Options | Promise<autocannon.Options>;
}
const auth = { authorization: `Bearer ${signSessionToken(privateKey, SUB, { ttlSeconds: 3600 })}` };
const dashAuth = { authorization: `Bearer ${signSessionToken(privateKey, DASHBOARD_SUB, { ttlSeconds: 3600 })}` };
const writerAuth = writers.subs.map((sub) => ({ authorization: `Bearer ${signSessionToken(privateKey, sub, { ttlSeconds: 3600 })}` }));
let checkIns = 0;
let answers = 0;
let ratings = 0;
/** The (writer, game) pairs the ratings case has: its pool of first submissions (known once its games are read). */
let ratingPool = 0;
let signalBatches = 0;
const SIGNAL_TYPES = ["impression", "impression", "impression", "view", "click", "dwell", "like"] as const;
const boardAuth = (i: number) => ({ authorization: `Bearer ${signSessionToken(privateKey, BOARD_SUB(i), { ttlSeconds: 3600 })}` });
/**
 * Batch n of the signals case: 50 events whose types and items rotate with n, each with a new eventId. Built from a
 * template per rotation with the ids spliced in, so the client spends a few µs per body (not the ~100 µs that 50
 * objects, 50 randomUUID() and a JSON.stringify cost): the load generator shares the server's 2 cores.
 */
const signalTemplates = new Map<number, string[]>();
const signalIdPrefix = randomUUID().slice(0, 24);
let signalIds = 0;
function signalBody(n: number): string {
  const rotation = n % (SIGNAL_TYPES.length * writers.teams.length);
  let parts = signalTemplates.get(rotation);
  if (!parts) {
    const at = new Date().toISOString();
    const events = Array.from({ length: 50 }, (_, i) => {
      const type = SIGNAL_TYPES[(rotation + i) % SIGNAL_TYPES.length]!;
      return {
        type,
        itemType: "team",
        itemId: writers.teams[(rotation + i) % writers.teams.length]!,
        at,
        surface: "home_feed",
        position: i,
        eventId: "@ID@",
        ...(type === "dwell" ? { durationMs: 1_000 + i } : {}),
      };
    });
    parts = JSON.stringify({ events }).split("@ID@");
    signalTemplates.set(rotation, parts);
  }
  let body = parts[0]!;
  for (let i = 1; i < parts.length; i++) body += signalIdPrefix + (signalIds++).toString(16).padStart(12, "0") + parts[i];
  return body;
}
const readerAuth = { authorization: `Bearer ${signSessionToken(privateKey, FEED_READER_SUB, { ttlSeconds: 3600 })}` };
const cases: Case[] = [
  { name: "GET /api/health", load: () => ({ url: `${base}/api/health` }) },
  { name: "GET leaderboard (me at the top)", target: 0.5, load: () => ({ url: `${base}/api/leaderboard?limit=20`, headers: boardAuth(1) }) },
  { name: "GET leaderboard (me at the bottom)", target: 0.5, load: () => ({ url: `${base}/api/leaderboard?limit=20`, headers: boardAuth(BOARD_FANS) }) },
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
  { name: "GET marketplace listings", target: 0.5, load: () => ({ url: `${base}/api/v1/marketplace/listings?limit=${PAGE}` }) },
  { name: "GET listings (team, by price)", load: () => ({ url: `${base}/api/v1/marketplace/listings?teamId=tm_hch&sort=price&limit=${PAGE}` }) },
  { name: "GET /api/teams/{id}", target: 0.5, load: () => ({ url: `${base}/api/teams/tm_hch` }) },
  { name: "GET /api/me/starred-teams", target: 0.5, load: () => ({ url: `${base}/api/me/starred-teams`, headers: auth }) },
  { name: "GET ledger (first page)", target: 0.5, load: () => ({ url: `${base}/api/v1/engage/rep/ledger?limit=${PAGE}`, headers: auth }) },
  { name: `GET ledger (page ${DEEP_PAGE})`, load: () => ({ url: `${base}/api/v1/engage/rep/ledger?limit=${PAGE}&cursor=${deepCursor}`, headers: auth }) },
  { name: "GET /api/dashboard", target: 0.5, load: () => ({ url: `${base}/api/dashboard`, headers: dashAuth }) },
  {
    name: "POST arena check-in",
    target: 0.4,
    load: () => ({
      url: base,
      requests: postEach(() => {
        const n = checkIns++;
        const team = writers.teams[Math.floor(n / WRITERS) % writers.teams.length]!;
        const body = {
          teamId: team,
          gameId: `gm_bench_${team}`,
          location: { latitude: BENCH_VENUE.latitude + 0.001, longitude: BENCH_VENUE.longitude, accuracy: 20 },
        };
        return { path: "/api/v1/engage/quests/arena-check-in", headers: writerAuth[n % WRITERS]!, body: JSON.stringify(body) };
      }),
    }),
  },
  {
    name: "POST quiz submit",
    target: 0.4,
    load: () => ({
      url: base,
      requests: postEach(() => {
        const [writer, sessionId] = writers.sessions[answers++ % writers.sessions.length]!;
        return { path: `/api/v1/engage/quests/session/${sessionId}/submit`, headers: writerAuth[writer]!, body: JSON.stringify({ answerIndex: answers % 4 }) };
      }),
    }),
  },
  {
    name: "POST game ratings",
    target: 0.4,
    load: async () => {
      const games = await ratableGames(base, writerAuth[0]!);
      ratingPool = WRITERS * games.length;
      return {
        url: base,
        requests: postEach(() => {
          // Interleaved by writer, as the check-ins and quiz answers are: concurrent requests are different fans' (one
          // fan's 16 ratings at once all waited on that fan's row lock to credit the Rep).
          const n = ratings++;
          const game = games[Math.floor(n / WRITERS) % games.length]!;
          const body = { ratings: game.players.slice(0, 5).map((playerId, i) => ({ playerId, score: 1 + ((n + i) % 10) })) };
          return { path: `/api/events/${game.id}/ratings`, headers: writerAuth[n % WRITERS]!, body: JSON.stringify(body) };
        }),
      };
    },
  },
  {
    name: "POST /api/feed/signals (50 events)",
    target: 0.4,
    load: () => ({
      url: base,
      requests: postEach(() => {
        const n = signalBatches++;
        return { path: "/api/feed/signals", headers: writerAuth[n % WRITERS]!, body: signalBody(n) };
      }),
    }),
  },
];
// BENCH_ONLY: comma-separated parts of route names; GET /api/health always runs, as every ratio needs it.
const only = process.env.BENCH_ONLY?.toLowerCase()
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const selected = cases.filter((c, i) => i === 0 || !only || only.some((o) => c.name.toLowerCase().includes(o)));

// GET /api/health runs again after each route with a target, and each route's ratio is to the mean of the health
// runs on either side of it: single runs of the same route drift by ±20% over a bench (load from other processes,
// the server's heap growing, a host whose cores slow down for minutes), and neighbours share most of that drift.
// Routes with a target are measured TARGET_ROUNDS times, in passes over all of them (so a slow spell of the machine
// falls on different routes' rounds), and each one's ratio is the median of its rounds'.
type Round = Row & { target: number; healthRps: number; ratio: number };
const rows: (Row & { target?: number; healthRps?: number; rounds?: Round[] })[] = [];
const healthRuns: Row[] = [];
let streams: Awaited<ReturnType<typeof measureStreams>> | null = null;
let contention: Awaited<ReturnType<typeof measureContention>> | null = null;
try {
  const [healthCase, ...rest] = selected;
  healthRuns.push(await measure(healthCase!.name, pid, await healthCase!.load()));
  for (let pass = 1; pass <= TARGET_ROUNDS; pass++) {
    for (const c of rest) {
      if (pass > 1 && c.target === undefined) continue;
      const row = await measure(c.name, pid, await c.load());
      if (c.target === undefined) {
        rows.push(row);
        continue;
      }
      const before = healthRuns[healthRuns.length - 1]!;
      const after = await measure(healthCase!.name, pid, await healthCase!.load());
      healthRuns.push(after);
      const healthRps = (before.rps + after.rps) / 2;
      // Pass 1 holds the route's place in the table; its median round fills it below.
      if (pass === 1) rows.push({ ...row, rounds: [] });
      rows.find((r) => r.name === c.name)!.rounds!.push({ ...row, target: c.target, healthRps, ratio: row.rps / healthRps });
    }
  }
  // A targeted route's row is its median round (by ratio); errors are every round's.
  for (const [k, { rounds }] of rows.entries()) {
    if (!rounds) continue;
    const byRatio = [...rounds].sort((a, b) => a.ratio - b.ratio);
    rows[k] = { ...byRatio[(byRatio.length - 1) >> 1]!, errors: rounds.reduce((n, x) => n + x.errors, 0), rounds };
  }
  if (!only || only.some((o) => "stream".includes(o))) streams = await measureStreams(base, pid);
  if (!only || only.some((o) => "contention".includes(o))) {
    contention = await measureContention(base, (sub) => signSessionToken(privateKey, sub, { ttlSeconds: 3600 }));
  }
} finally {
  stop();
}
const healthRps = healthRuns.map((r) => r.rps);
rows.unshift({ ...healthRuns[0]!, name: `GET /api/health (×${healthRuns.length})`, rps: median(healthRps) });

console.log(`\nbench: ${DURATION}s per route, ${CONNECTIONS} connections, ${LEDGER_ENTRIES.toLocaleString()} ledger entries for one user\n`);
console.log(`${"route".padEnd(30)}${pad("req/s", 10)}${pad("p50 ms", 9)}${pad("p99 ms", 9)}${pad("CPU µs/req", 12)}${pad("PG µs/req", 11)}${pad("errors", 8)}`);
for (const r of rows) {
  console.log(
    `${r.name.padEnd(30)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50, 9)}${pad(r.p99, 9)}${pad(r.cpuUs.toFixed(0), 12)}${pad(r.pgUs.toFixed(0), 11)}${pad(r.errors, 8)}`,
  );
}
console.log("(CPU µs/req: the server process's own CPU time per request; PG µs/req: PostgreSQL's, all its processes on this machine)");
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
console.log(`(GET /api/health: the median of ${healthRuns.length} runs, ${Math.min(...healthRps).toFixed(0)}–${Math.max(...healthRps).toFixed(0)} req/s)`);
console.log(
  `\ntargets (each route's throughput to the mean of the health runs just before and after it; the median of ${TARGET_ROUNDS} round${TARGET_ROUNDS > 1 ? "s" : ""}, the rounds in brackets):`,
);
for (const r of rows) {
  if (r.target === undefined || r.healthRps === undefined) continue;
  const ratio = r.rps / r.healthRps;
  const rounds = TARGET_ROUNDS > 1 ? ` [${(r.rounds ?? []).map((x) => pct(x.ratio)).join(", ")}]` : "";
  console.log(
    `  ${r.name}: ${pct(ratio)} of /api/health throughput${rounds} ${ratio >= r.target ? `(ok, target ≥ ${pct(r.target)})` : `(BELOW the ${pct(r.target)} target)`}`,
  );
}
// A write past its pool of fresh requests measured another path from there on (a 409, a late answer, a replaced rating).
const pools: [string, number, number][] = [
  ["POST arena check-in", checkIns, WRITERS * writers.teams.length],
  ["POST quiz submit", answers, writers.sessions.length],
  ["POST game ratings", ratings, ratingPool],
];
for (const [name, used, pool] of pools) {
  if (pool > 0 && used > pool) {
    console.log(
      `  ${name}: ${used.toLocaleString()} requests for a pool of ${pool.toLocaleString()}: the last ${(used - pool).toLocaleString()} measured another path (raise WRITERS)`,
    );
  }
}
// The deep page runs once, right after the first page's first round: compared with that round, its neighbour.
const firstLedger = rows.find((r) => r.name === "GET ledger (first page)");
const firstRow = firstLedger?.rounds?.[0] ?? firstLedger;
const deepRow = rows.find((r) => r.name === `GET ledger (page ${DEEP_PAGE})`);
if (firstRow && deepRow) {
  const deepRatio = deepRow.p50 / Math.max(firstRow.p50, 0.001);
  console.log(
    `  ledger page ${DEEP_PAGE} p50 / first page p50: ${deepRatio.toFixed(2)} ${deepRatio <= 1.2 ? "(ok, target ≤ 1.20)" : "(ABOVE the 1.20 target)"}`,
  );
}
/**
 * Two routes measured side by side in each pass: the pass (its two rounds) whose `ratio` is the median, so a pair is
 * never compared across passes (a slow spell of the machine on one side only).
 */
function medianPair(a: string, b: string, ratio: (x: Row, y: Row) => number): [Row, Row] | undefined {
  const x = rows.find((r) => r.name === a);
  const y = rows.find((r) => r.name === b);
  if (!x || !y) return undefined;
  const pairs = (x.rounds ?? [x]).map((r, i) => [r, (y.rounds ?? [y])[i] ?? y] as [Row, Row]);
  return pairs.sort((p, q) => ratio(...p) - ratio(...q))[(pairs.length - 1) >> 1];
}
const p50Ratio = (top: Row, bottom: Row) => bottom.p50 / Math.max(top.p50, 0.001);
const [topRow, bottomRow] = medianPair("GET leaderboard (me at the top)", "GET leaderboard (me at the bottom)", p50Ratio) ?? [];
if (topRow && bottomRow) {
  const ratio = p50Ratio(topRow, bottomRow);
  console.log(
    `  leaderboard of ${BOARD_FANS.toLocaleString()}: p50 with me at the top ${topRow.p50} ms, at the bottom ${bottomRow.p50} ms (${ratio.toFixed(2)}; ${ratio <= 1.2 ? "ok, the bottom costs no more" : "ABOVE the top's by more than 20%"})`,
  );
}
const rpsRatio = (first: Row, deep: Row) => deep.rps / Math.max(first.rps, 0.001);
for (const who of ["anonymous", "with blocks"]) {
  const [first, deep] = medianPair(`GET feed (${who})`, `GET feed (${who}, ${FEED_DEPTH} deep)`, rpsRatio) ?? [];
  if (!first || !deep) continue;
  const ratio = rpsRatio(first, deep);
  console.log(
    `  feed ${who}: ${FEED_DEPTH} posts deep ${deep.rps.toFixed(0)} req/s, first page ${first.rps.toFixed(0)} req/s (${pct(ratio)}; ${ratio >= 0.8 ? "ok, within 20%" : "BELOW the first page's by more than 20%"})`,
  );
}
if (streams) {
  console.log(
    `  stream: ${STREAMS} clients on the global board, ${STREAM_CHANGES} changes: ${streams.delivered}/${streams.expected} events delivered, write → event p50 ${streams.p50.toFixed(0)} ms, p99 ${streams.p99.toFixed(0)} ms ${streams.p99 < 1000 ? "(ok, target p99 < 1 s)" : "(ABOVE the 1 s target)"}; server memory ${(streams.bytesPerStream / 1024).toFixed(0)} KiB per open stream`,
  );
  if (streams.delivered < streams.expected) process.exitCode = 1;
}
if (contention) {
  const c = contention;
  const once =
    c.sold === CONTENDED_LISTINGS && c.transfers === CONTENDED_LISTINGS && c.debits === CONTENDED_LISTINGS && c.worst === 1 && c.sales === CONTENDED_LISTINGS;
  console.log(
    `  buying under contention: ${CONTENDED_LISTINGS} listings, ${c.tries} tries by ${CONTENDING_BUYERS} buyers at once: ${c.sales} sales, ${c.refused} refused (409), ${c.other} other, in ${c.seconds.toFixed(2)} s (${(c.sales / c.seconds).toFixed(0)} sales/s, ${(c.tries / c.seconds).toFixed(0)} tries/s); ${once ? "no listing sold twice (ok)" : `SOLD TWICE OR MISSED: ${c.sold} sold, ${c.transfers} transfers, ${c.debits} debits, at most ${c.worst} per listing`}`,
  );
  if (!once || c.other > 0) process.exitCode = 1;
}
if (rows.some((r) => r.errors > 0)) {
  console.log("errors were recorded: the figures above are not valid");
  process.exitCode = 1;
}
// Redis and pool connections the lib modules opened would keep the process alive.
process.exit(process.exitCode ?? 0);
