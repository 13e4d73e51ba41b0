import { expect } from "vitest";
import { api, newUser, userIdOf } from "../helpers";

// What the events tests share (events.test.ts, events-ratings.test.ts): the routes, a signed-up user, a ratings
// submission and the lineups the seed's rosters make.
// Seeded games these tests rely on (dev/seed/data.ts): rosters exist for hch, rmr, kpk, lsl, ccc, fpb, gbo, whu, kbf.
//   gm_nfl_007 hch–rmr final (both rosters): rating flow.   gm_psl_001 whu–kbf final: averages (only these tests).
//   gm_psl_009 whu–kbf final: concurrent seeding (only these tests).   gm_psl_005 whu–kbf final: concurrent ratings.
//   gm_nfl_003 irf–kpk final (one roster), gm_nfl_006 bsb–tbw final (no roster): LINEUP_UNAVAILABLE.
//   gm_nfl_013 gfg–hch scheduled: GAME_NOT_FINISHED.

export const EVENTS = "/api/events";
export const ratings = (id: string) => `/api/events/${encodeURIComponent(id)}/ratings`;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export async function signedUp() {
  const user = newUser();
  const res = await api("GET", EVENTS, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

export const rate = (auth: Record<string, string>, gameId: string, list: [string, number][]) =>
  api("POST", ratings(gameId), { headers: auth, json: { ratings: list.map(([playerId, score]) => ({ playerId, score })) } });

// Home team's available active players in roster order, then the away team's (see the seed's rosters).
export const LINEUP_NFL_007 = [
  "pl_hch_07", "pl_hch_01", "pl_hch_08", "pl_hch_06", "pl_hch_02", "pl_hch_05", "pl_hch_04", "pl_hch_03",
  "pl_rmr_06", "pl_rmr_01", "pl_rmr_03", "pl_rmr_02", "pl_rmr_04", "pl_rmr_07",
]; // prettier-ignore
export const LINEUP_WHU_KBF = [
  "pl_whu_01", "pl_whu_02", "pl_whu_05", "pl_whu_03", "pl_whu_04", "pl_whu_06", "pl_whu_09", "pl_whu_07", "pl_whu_11",
  "pl_kbf_01", "pl_kbf_02", "pl_kbf_06", "pl_kbf_04", "pl_kbf_07", "pl_kbf_03", "pl_kbf_08",
]; // prettier-ignore
