// Match predictions (scenario `prediction-put`): PUT /api/events/{gameId}/prediction by PREDICTORS fans over GAMES
// games of the bench's own that kick off in a week (an archived league of its own, made afresh each run), interleaved
// by fan as a matchday's traffic is: each fan's first PUT of a game inserts, later ones edit, all through the one
// statement guarded by the lock (lib/features/predictions/queries.ts upsertPrediction).
import pg from "pg";
import { signSessionToken } from "../../lib/auth/sign";
import { DB_URL, ensureUsers, type Case } from "./common";

const PREDICTORS = 2_000;
const GAMES = 20;

export async function preparePredictions(): Promise<{ subs: string[]; games: string[] }> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  try {
    const subs = Array.from({ length: PREDICTORS }, (_, i) => `user_bench_pr_${i}`);
    await ensureUsers(client, subs);
    await client.query(`DELETE FROM games WHERE league_id = 'lg_bench_pr'`);
    await client.query(`DELETE FROM teams WHERE league_id = 'lg_bench_pr'`);
    await client.query(`DELETE FROM leagues WHERE id = 'lg_bench_pr'`);
    await client.query(
      `INSERT INTO leagues (id, slug, name, sport, archived_at, updated_at) VALUES ('lg_bench_pr', 'bench-pr', 'Bench predictions', 'football', now(), now())`,
    );
    await client.query(
      `INSERT INTO teams (id, slug, name, league_id, archived_at, updated_at)
       VALUES ('tm_bench_pr_h', 'bench-pr-h', 'Bench Home', 'lg_bench_pr', now(), now()), ('tm_bench_pr_a', 'bench-pr-a', 'Bench Away', 'lg_bench_pr', now(), now())`,
    );
    const games = Array.from({ length: GAMES }, (_, i) => `gm_bench_pr_${i}`);
    await client.query(
      `INSERT INTO games (id, league_id, home_team_id, away_team_id, starts_at, status, updated_at)
       SELECT g, 'lg_bench_pr', 'tm_bench_pr_h', 'tm_bench_pr_a', now() + interval '7 days', 'scheduled', now() FROM unnest($1::text[]) AS g`,
      [games],
    );
    await client.query("VACUUM ANALYZE predictions");
    return { subs, games };
  } finally {
    await client.end();
  }
}

export function predictionCases(base: string, privateKey: string, p: { subs: string[]; games: string[] }): Case[] {
  const auth = p.subs.map((sub) => ({ authorization: `Bearer ${signSessionToken(privateKey, sub, { ttlSeconds: 3600 })}` }));
  let n = 0;
  return [
    {
      name: "prediction-put: PUT /api/events/{gameId}/prediction",
      target: 0.4,
      load: () => ({
        url: base,
        requests: [
          {
            method: "PUT",
            setupRequest: (req) => {
              const i = n++;
              const game = p.games[Math.floor(i / PREDICTORS) % p.games.length]!;
              const home = i % 4;
              const away = (i >> 2) % 3;
              const outcome = home > away ? "home" : home < away ? "away" : "draw";
              return {
                ...req,
                path: `/api/events/${game}/prediction`,
                headers: { ...auth[i % PREDICTORS]!, "content-type": "application/json" },
                body: JSON.stringify({ outcome, homeScore: home, awayScore: away }),
              };
            },
          },
        ],
      }),
    },
  ];
}
