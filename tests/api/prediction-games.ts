import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { api, db } from "../helpers";

// Games of predictions tests' own: two teams of their own in an archived league of their own (no list other suites
// assert shows them), and the settle cron.

const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
export const settle = () => api("GET", "/api/cron/predictions-settle", { headers: { authorization: `Bearer ${cronSecret()}` } });

export async function predictionGame(startsAt: Date, status: "scheduled" | "live" | "final" = "scheduled") {
  const key = randomUUID().slice(0, 8);
  const leagueId = `lg_pr_${key}`;
  const archivedAt = new Date();
  await db().league.create({ data: { id: leagueId, slug: `pr-${key}`, name: `Predictions ${key}`, sport: "football", archivedAt } });
  await db().team.createMany({
    data: [
      { id: `tm_prh_${key}`, slug: `prh-${key}`, name: `Home ${key}`, leagueId, archivedAt },
      { id: `tm_pra_${key}`, slug: `pra-${key}`, name: `Away ${key}`, leagueId, archivedAt },
    ],
  });
  const gameId = `gm_pr_${key}`;
  await db().game.create({ data: { id: gameId, leagueId, homeTeamId: `tm_prh_${key}`, awayTeamId: `tm_pra_${key}`, startsAt, status } });
  return gameId;
}

/** The game final with this score (as the sync or the live feed would write it). */
export const finish = (gameId: string, home: number, away: number) =>
  db().game.update({ where: { id: gameId }, data: { status: "final", homeScore: home, awayScore: away } });

export const outcomeOf = (h: number, a: number) => (h > a ? "home" : h < a ? "away" : "draw");
export const predict = (auth: Record<string, string>, gameId: string, homeScore: number, awayScore: number) =>
  api("PUT", `/api/events/${gameId}/prediction`, { headers: auth, json: { outcome: outcomeOf(homeScore, awayScore), homeScore, awayScore } });
