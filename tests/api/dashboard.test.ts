import { describe, expect, it } from "vitest";
import { award, debit } from "../../lib/core/rep/grants";
import { api, db, errorOf, matchday, newUser, userIdOf } from "../helpers";

// The home screen: Rep per source with spending apart, the streak, today's quests, the next games; each in one call.

const ROUTES = ["/api/dashboard", "/api/dashboard/stats", "/api/dashboard/balance", "/api/dashboard/quests"];
const today = () => new Date().toISOString().slice(0, 10);

async function fan(...teams: string[]) {
  const user = newUser();
  expect((await api("GET", "/api/dashboard/balance", { headers: user.auth })).status).toBe(200);
  const userId = await userIdOf(user.sub);
  if (teams.length) await db().teamFollow.createMany({ data: teams.map((teamId) => ({ userId, teamId })) });
  return { ...user, userId };
}

const credit = (userId: string, amount: number, source: "fanAmp" | "club" | "playerAmp" | "serviceDirect", key: string) =>
  db().$transaction((tx) => award(tx, userId, { earnKind: "test_credit", amount, source, reason: "Test credit", grantKey: key }));

describe("dashboard routes", () => {
  it.each(ROUTES)("%s is 401 without a token", async (path) => {
    const res = await api("GET", path);
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
  });

  it("a new fan sees zeros, no streak, the global quests and no games", async () => {
    const { auth } = await fan();
    const res = await api("GET", "/api/dashboard", { headers: auth });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.rep).toEqual({ balance: 0, earned: 0, spent: 0, bySource: { fanAmp: 0, club: 0, playerAmp: 0, serviceDirect: 0 } });
    expect(d.streak).toEqual({ current: 0, longest: 0, lastDay: null });
    expect(d.quests.day).toBe(today());
    expect(d.quests.completedToday).toBe(0);
    expect(d.quests.available).toBe(d.quests.quests.length);
    expect(d.quests.quests.map((q: { id: string }) => q.id)).toContain("q_daily_checkin");
    expect(d.quests.quests.every((q: { scope: string }) => q.scope !== "team")).toBe(true);
    expect(d.nextGames).toEqual([]);
  });

  it("balance: earned per source net of reversals, spending apart, earned − spent = balance", async () => {
    const { auth, userId } = await fan();
    await credit(userId, 40, "club", "t:1");
    await credit(userId, 15, "fanAmp", "t:2");
    await credit(userId, 7, "playerAmp", "t:3");
    await db().$transaction((tx) =>
      debit(tx, userId, { earnKind: "reward_redemption", amount: 30, source: "serviceDirect", reason: "Reward", grantKey: "t:spend" }),
    );
    await db().$transaction((tx) => debit(tx, userId, { earnKind: "reversal", amount: 10, source: "club", reason: "Reversed", grantKey: "t:rev" }));
    const res = await api("GET", "/api/dashboard/balance", { headers: auth });
    expect(res.body.data).toEqual({ balance: 22, earned: 52, spent: 30, bySource: { fanAmp: 15, club: 30, playerAmp: 7, serviceDirect: 0 } });
    const { rep } = (await api("GET", "/api/dashboard", { headers: auth })).body.data;
    expect(rep).toEqual(res.body.data);
    // The totals kept on the user's row are the ledger's sums.
    const [sums] = await db().$queryRaw<{ kept: string; summed: string }[]>`
      SELECT concat_ws(',', rep_earned_fan_amp, rep_earned_club, rep_earned_player_amp, rep_earned_service_direct, rep_spent, rep_balance) AS kept,
             (SELECT concat_ws(',', COALESCE(SUM(amount) FILTER (WHERE source = 'fanAmp' AND earn_kind <> 'reward_redemption'), 0),
                     COALESCE(SUM(amount) FILTER (WHERE source = 'club' AND earn_kind <> 'reward_redemption'), 0),
                     COALESCE(SUM(amount) FILTER (WHERE source = 'playerAmp' AND earn_kind <> 'reward_redemption'), 0),
                     COALESCE(SUM(amount) FILTER (WHERE source = 'serviceDirect' AND earn_kind <> 'reward_redemption'), 0),
                     COALESCE(-SUM(amount) FILTER (WHERE earn_kind = 'reward_redemption'), 0), COALESCE(SUM(amount), 0))
              FROM rep_entries WHERE user_id = ${userId}::uuid) AS summed
      FROM users WHERE id = ${userId}::uuid`;
    expect(sums!.kept).toBe("15,30,7,0,30,22");
    expect(sums!.summed).toBe(sums!.kept);
  });

  it("after a check-in and a completed daily quest: Club Rep, activity counts, the streak and today's quest progress follow", async () => {
    await matchday("tm_bsb");
    const { auth, userId } = await fan("tm_bsb");
    expect((await api("POST", "/api/v1/engage/quests/arena-check-in", { headers: auth, json: { teamId: "tm_bsb" } })).status).toBe(201);
    expect((await api("POST", "/api/quests/daily-visit", { headers: auth })).status).toBe(200);

    const stats = (await api("GET", "/api/dashboard/stats", { headers: auth })).body.data;
    const credited = await db().repEntry.aggregate({ where: { userId }, _sum: { amount: true } });
    expect(stats.rep.balance).toBe(Number(credited._sum.amount));
    expect(stats.rep.bySource.club).toBeGreaterThanOrEqual(25);
    expect(stats.activity).toEqual({ questsCompleted: 2, questsCompletedToday: 2, checkIns: 1, gamesRated: 0, rewardsClaimed: 0 });
    expect(stats.streak).toMatchObject({ current: 1, longest: 1, lastDay: today() });

    const quests = (await api("GET", "/api/dashboard/quests", { headers: auth })).body.data;
    expect(quests.completedToday).toBe(2);
    const done = quests.quests.filter((q: { completed: boolean }) => q.completed).map((q: { id: string }) => q.id);
    expect(done.sort()).toEqual(["q_checkin_bsb", "q_daily_checkin"]);
    expect(quests.streak.current).toBe(1);
  });

  it("next games: the followed teams' undecided games, soonest first, at most five", async () => {
    const { auth } = await fan("tm_hch", "tm_fpb", "tm_whu");
    const games = (await api("GET", "/api/dashboard", { headers: auth })).body.data.nextGames as {
      startsAt: string;
      status: string;
      homeTeam: { id: string };
      awayTeam: { id: string };
    }[];
    expect(games.length).toBeGreaterThan(0);
    expect(games.length).toBeLessThanOrEqual(5);
    const mine = new Set(["tm_hch", "tm_fpb", "tm_whu"]);
    for (const g of games) {
      expect(mine.has(g.homeTeam.id) || mine.has(g.awayTeam.id)).toBe(true);
      expect(g.status).not.toBe("final");
    }
    const starts = games.map((g) => Date.parse(g.startsAt));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it("the one-statement home screen answers exactly what the separate routes answer", async () => {
    await matchday("tm_bsb");
    const { auth, userId } = await fan("tm_hch", "tm_fpb", "tm_bsb");
    expect((await api("POST", "/api/v1/engage/quests/arena-check-in", { headers: auth, json: { teamId: "tm_bsb" } })).status).toBe(201);
    await credit(userId, 12, "playerAmp", "t:eq");
    const [home, balance, quests, events] = await Promise.all([
      api("GET", "/api/dashboard", { headers: auth }),
      api("GET", "/api/dashboard/balance", { headers: auth }),
      api("GET", "/api/dashboard/quests", { headers: auth }),
      api("GET", "/api/events?status=upcoming&limit=5", { headers: auth }),
    ]);
    const d = home.body.data;
    expect(d.rep).toEqual(balance.body.data);
    expect(d.streak).toEqual(quests.body.data.streak);
    expect(d.streak.lastDay).toBe(today());
    const { streak: _streak, ...questsWithoutStreak } = quests.body.data;
    expect(d.quests).toEqual(questsWithoutStreak);
    expect(d.quests.quests.some((q: { completed: boolean; completedAt: string | null }) => q.completed && q.completedAt)).toBe(true);
    expect(d.nextGames).toEqual(events.body.data.events);
    expect(d.nextGames.length).toBeGreaterThan(0);
  });

  it("home screens and quest lists read at once (sharing statements) each answer their own fan's, as read alone", async () => {
    const teams = ["tm_hch", "tm_fpb", "tm_whu", "tm_mhm", "tm_gfg", "tm_kbf"];
    const fans = await Promise.all(teams.map((team) => fan(team)));
    await Promise.all(fans.map((f, i) => credit(f.userId, 10 + i, "club", `t:many:${i}`)));
    const readAll = () =>
      Promise.all(fans.flatMap((f) => [api("GET", "/api/dashboard", { headers: f.auth }), api("GET", "/api/v1/engage/quests", { headers: f.auth })]));
    const [first, second] = await Promise.all([readAll(), readAll()]);
    for (const [i, f] of fans.entries()) {
      const aloneHome = (await api("GET", "/api/dashboard", { headers: f.auth })).body.data;
      const aloneQuests = (await api("GET", "/api/v1/engage/quests", { headers: f.auth })).body.data;
      expect(aloneHome.rep.balance).toBe(10 + i);
      const teamQuests = aloneHome.quests.quests.filter((q: { teamId: string | null }) => q.teamId).map((q: { teamId: string }) => q.teamId);
      expect(new Set(teamQuests)).toEqual(new Set([teams[i]]));
      for (const read of [first, second]) {
        expect(read[2 * i]!.body.data).toEqual(aloneHome);
        expect(read[2 * i + 1]!.body.data).toEqual(aloneQuests);
      }
    }
  });
});
