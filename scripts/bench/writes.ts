// The engagement loop's writes: arena check-ins, quiz answers, game ratings and feed signals by WRITERS fans made
// afresh each run (prepareWriters, which also makes the dashboard's fan), every request one a real fan could make;
// the report says when a write ran past its pool of fresh requests.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { signSessionToken } from "../../lib/auth/sign";
import { DB_URL, postEach, type Case } from "./common";
import { DASHBOARD_SUB } from "./reads";

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

/** Where the bench's check-in games are played (and its writers stand, 111 m away). */
const BENCH_VENUE = { latitude: 40.0, longitude: -100.0 };

export interface Writers {
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
export async function prepareWriters(): Promise<Writers> {
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

let checkIns = 0;
let answers = 0;
let ratings = 0;
/** The (writer, game) pairs the ratings case has: its pool of first submissions (known once its games are read). */
let ratingPool = 0;
let signalBatches = 0;
const SIGNAL_TYPES = ["impression", "impression", "impression", "view", "click", "dwell", "like"] as const;
/**
 * Batch n of the signals case: 50 events whose types and items rotate with n, each with a new eventId. Built from a
 * template per rotation with the ids spliced in, so the client spends a few µs per body (not the ~100 µs that 50
 * objects, 50 randomUUID() and a JSON.stringify cost): the load generator shares the server's 2 cores.
 */
const signalTemplates = new Map<number, string[]>();
const signalIdPrefix = randomUUID().slice(0, 24);
let signalIds = 0;
function signalBody(writers: Writers, n: number): string {
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

/** The write cases, in the runner's order. */
export function writeCases(base: string, privateKey: string, writers: Writers): Case[] {
  const writerAuth = writers.subs.map((sub) => ({ authorization: `Bearer ${signSessionToken(privateKey, sub, { ttlSeconds: 3600 })}` }));
  return [
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
          return {
            path: `/api/v1/engage/quests/session/${sessionId}/submit`,
            headers: writerAuth[writer]!,
            body: JSON.stringify({ answerIndex: answers % 4 }),
          };
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
          return { path: "/api/feed/signals", headers: writerAuth[n % WRITERS]!, body: signalBody(writers, n) };
        }),
      }),
    },
  ];
}

export function reportPools(writers: Writers) {
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
}
