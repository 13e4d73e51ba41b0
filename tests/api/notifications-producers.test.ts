import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db } from "../helpers";
import { cron, HOUR, LIST, signedUp } from "./notifications-fixtures";

// Notifications: the producer crons (game alerts, rating prompts, Rep milestones). Their games live in a league and
// teams of this file, archived so no other suite's lists or counts see them.

const run = randomBytes(3).toString("hex");

const LEAGUE = `lg_ntf_${run}`;
const T = { home: `tm_ntf_${run}_h`, away: `tm_ntf_${run}_a`, empty: `tm_ntf_${run}_e` };
let gameSeq = 0;

async function game(home: string, away: string, startsInH: number, status: "scheduled" | "final" | "postponed", score?: [number, number]) {
  const id = `gm_ntf_${run}_${++gameSeq}`;
  await db().game.create({
    data: {
      id,
      leagueId: LEAGUE,
      homeTeamId: home,
      awayTeamId: away,
      startsAt: new Date(Date.now() + startsInH * HOUR),
      status,
      homeScore: score?.[0] ?? null,
      awayScore: score?.[1] ?? null,
      venue: status === "scheduled" ? "Test Arena" : null,
    },
  });
  return id;
}

async function fanOf(teams: string[], settings: { notifyTeams?: boolean; notifyMilestones?: boolean; repBalance?: number } = {}) {
  const user = await signedUp();
  if (teams.length) await db().teamFollow.createMany({ data: teams.map((teamId) => ({ userId: user.userId, teamId })) });
  if (Object.keys(settings).length) await db().user.update({ where: { id: user.userId }, data: settings });
  return user;
}

const causesOf = async (userIds: string[]) =>
  (await db().notification.findMany({ where: { userId: { in: userIds } }, select: { userId: true, causeKey: true } }))
    .map((n) => `${userIds.indexOf(n.userId)}:${n.causeKey}`)
    .sort();

beforeAll(async () => {
  const archivedAt = new Date();
  await db().league.create({ data: { id: LEAGUE, slug: `ntf-${run}`, name: `Notifications ${run}`, sport: "football", archivedAt } });
  await db().team.createMany({
    data: [
      { id: T.home, slug: `ntf-${run}-h`, name: `Home ${run}`, shortName: "Homers", abbreviation: "HOM", leagueId: LEAGUE, archivedAt },
      { id: T.away, slug: `ntf-${run}-a`, name: `Away ${run}`, shortName: null, abbreviation: "AWY", leagueId: LEAGUE, archivedAt },
      { id: T.empty, slug: `ntf-${run}-e`, name: `Empty ${run}`, leagueId: LEAGUE, archivedAt },
    ],
  });
  await db().player.createMany({
    data: [
      { id: `pl_ntf_${run}_h1`, teamId: T.home, name: "H One" },
      { id: `pl_ntf_${run}_a1`, teamId: T.away, name: "A One" },
      { id: `pl_ntf_${run}_e1`, teamId: T.empty, name: "E Injured", availability: "injured" },
    ],
  });
});

describe("producer: game alerts", () => {
  it("alerts followers (notifyTeams on) of either team of scheduled games starting within 24 h, once", async () => {
    const soon = await game(T.home, T.away, 2, "scheduled");
    const soonEmpty = await game(T.empty, T.home, 23, "scheduled");
    await game(T.home, T.away, 25, "scheduled"); // outside the window
    await game(T.home, T.away, -1, "scheduled"); // already started
    await game(T.home, T.away, 3, "postponed");
    const homeFan = await fanOf([T.home]);
    const bothFan = await fanOf([T.home, T.away]);
    const awayFan = await fanOf([T.away]);
    const optedOut = await fanOf([T.home, T.away], { notifyTeams: false });
    const nobody = await fanOf([]);
    const users = [homeFan, bothFan, awayFan, optedOut, nobody].map((u) => u.userId);

    const first = await cron("game-alerts");
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ type: "GAME_ALERT", created: expect.any(Number) });
    expect(first.body.data.created).toBeGreaterThanOrEqual(5);
    const expected = [`0:game_alert:${soon}`, `0:game_alert:${soonEmpty}`, `1:game_alert:${soon}`, `1:game_alert:${soonEmpty}`, `2:game_alert:${soon}`].sort();
    expect(await causesOf(users)).toEqual(expected);
    expect((await cron("game-alerts")).status).toBe(200);
    expect(await causesOf(users)).toEqual(expected);

    const list = await api("GET", LIST, { headers: homeFan.auth });
    const alert = list.body.data.notifications.find((n: { payload: { gameId: string } }) => n.payload.gameId === soon);
    expect(alert).toEqual({
      id: expect.any(String),
      type: "GAME_ALERT",
      createdAt: expect.any(String),
      readAt: null,
      archivedAt: null,
      payload: {
        gameId: soon,
        leagueId: LEAGUE,
        startsAt: (await db().game.findUniqueOrThrow({ where: { id: soon } })).startsAt.toISOString(),
        venue: "Test Arena",
        homeTeam: { id: T.home, slug: `ntf-${run}-h`, name: `Home ${run}`, shortName: "Homers", abbreviation: "HOM", logo: null },
        awayTeam: { id: T.away, slug: `ntf-${run}-a`, name: `Away ${run}`, shortName: null, abbreviation: "AWY", logo: null },
        title: `Away ${run} at Homers`,
        body: "Starts within 24 hours at Test Arena.",
        href: `/api/events/${soon}`,
      },
    });
  });

  it("concurrent runs write each alert once", async () => {
    const soon = await game(T.away, T.home, 5, "scheduled");
    const fans = await Promise.all([fanOf([T.home]), fanOf([T.away]), fanOf([T.home, T.away])]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => cron("game-alerts")));
    for (const a of answers) expect(a.status).toBe(200);
    const causes = await causesOf(fans.map((f) => f.userId));
    for (const i of [0, 1, 2]) expect(causes.filter((c) => c === `${i}:game_alert:${soon}`)).toHaveLength(1);
  });
});

describe("producer: rating prompts", () => {
  it("prompts followers who have not rated a ratable game final within 48 h; respects notifyTeams; once", async () => {
    const ratable = await game(T.home, T.away, -3, "final", [2, 1]);
    await game(T.empty, T.home, -3, "final", [0, 0]); // no available player on one side: not ratable
    await game(T.home, T.away, -50, "final", [1, 1]); // outside the window
    await game(T.home, T.away, 2, "scheduled"); // not final
    const homeFan = await fanOf([T.home]);
    const bothFan = await fanOf([T.home, T.away]);
    const rated = await fanOf([T.away]);
    const optedOut = await fanOf([T.home], { notifyTeams: false });
    const nobody = await fanOf([]);
    await db().gameRating.create({ data: { userId: rated.userId, gameId: ratable } });
    const users = [homeFan, bothFan, rated, optedOut, nobody].map((u) => u.userId);

    const res = await cron("rating-prompts");
    expect(res.status).toBe(200);
    expect(res.body.data.type).toBe("RATING");
    const expected = [`0:rating:${ratable}`, `1:rating:${ratable}`];
    expect((await causesOf(users)).filter((c) => c.includes(":rating:"))).toEqual(expected);
    await Promise.all([cron("rating-prompts"), cron("rating-prompts"), cron("rating-prompts")]);
    expect((await causesOf(users)).filter((c) => c.includes(":rating:"))).toEqual(expected);

    const list = await api("GET", `${LIST}?types=RATING`, { headers: bothFan.auth });
    expect(list.body.data.notifications).toHaveLength(1);
    expect(list.body.data.notifications[0].payload).toMatchObject({
      gameId: ratable,
      score: { home: 2, away: 1 },
      repAward: 15,
      title: `Rate the players: Away ${run} at Homers`,
      href: `/api/events/${ratable}`,
    });
  });

  it("concurrent first runs write each prompt once", async () => {
    const ratable = await game(T.away, T.home, -1, "final", [3, 3]);
    const fans = await Promise.all([fanOf([T.home]), fanOf([T.home, T.away])]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => cron("rating-prompts")));
    for (const a of answers) expect(a.status).toBe(200);
    expect((await causesOf(fans.map((f) => f.userId))).filter((c) => c.includes(ratable))).toEqual([`0:rating:${ratable}`, `1:rating:${ratable}`]);
  });
});

describe("producer: Rep milestones", () => {
  it("the highest threshold reached by the Rep balance, for notifyMilestones users, once; never a lower one later", async () => {
    const u150 = await fanOf([], { repBalance: 150 });
    const u1200 = await fanOf([], { repBalance: 1200 });
    const u50 = await fanOf([], { repBalance: 50 });
    const optedOut = await fanOf([], { repBalance: 700, notifyMilestones: false });
    const exact = await fanOf([], { repBalance: 5000 });
    const users = [u150, u1200, u50, optedOut, exact].map((u) => u.userId);

    const answers = await Promise.all(Array.from({ length: 5 }, () => cron("milestones")));
    for (const a of answers) expect(a.status).toBe(200);
    expect(answers[0]!.body.data.type).toBe("MILESTONE");
    expect(await causesOf(users)).toEqual(["0:milestone:rep:100", "1:milestone:rep:1000", "4:milestone:rep:5000"]);

    // Spending below 1000 brings back no 500; climbing past 500 from 150 adds it.
    await db().user.update({ where: { id: u1200.userId }, data: { repBalance: 600 } });
    await db().user.update({ where: { id: u150.userId }, data: { repBalance: 650 } });
    await cron("milestones");
    await cron("milestones");
    expect(await causesOf(users)).toEqual(["0:milestone:rep:100", "0:milestone:rep:500", "1:milestone:rep:1000", "4:milestone:rep:5000"]);

    const list = await api("GET", LIST, { headers: u1200.auth });
    expect(list.body.data.notifications).toEqual([
      expect.objectContaining({
        type: "MILESTONE",
        payload: {
          metric: "rep_balance",
          threshold: 1000,
          title: "1000 Rep reached",
          body: "You have 1000 Rep or more. See what you can redeem.",
          href: "/api/rewards",
        },
      }),
    ]);
  });
});
