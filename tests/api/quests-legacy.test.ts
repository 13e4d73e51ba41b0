import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db, errorOf, matchday, newUser, userIdOf } from "../helpers";

// The legacy quest routes (/api/quests/*, deprecated) over the same engine, and /api/sync-quest-points.

const today = () => new Date().toISOString().slice(0, 10);

async function signedUp() {
  const user = newUser();
  const res = await api("GET", "/api/v1/engage/quests", { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

const post = (auth: Record<string, string>, path: string, json?: unknown) => api("POST", path, { headers: auth, json });
const balanceOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);
const entriesOf = (userId: string) => db().repEntry.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
const holdSeasonPass = (userId: string) => db().userPass.create({ data: { userId, passId: "pass_season_2026" } });

// A quest like the seed's Hawks superfan (join the team, check in at its game, rate a game) for tm_spf, which has
// games under way (tests/helpers.ts matchday); this file's only quest for that team, as the seed's is tm_hch's.
const SUPERFAN_TEAM = "tm_spf";
const quest = `q_superfan_${randomUUID().slice(0, 8)}`;
const steps = [1, 2, 3].map((n) => `${quest}_${n}`);
beforeAll(async () => {
  await Promise.all([matchday(SUPERFAN_TEAM), matchday("tm_crc")]);
  await db().quest.create({
    data: {
      id: quest,
      slug: quest.replace(/_/g, "-"),
      title: "Superfan",
      teamId: SUPERFAN_TEAM,
      repReward: 100,
      kind: "multi_step",
      scope: "team",
      repSource: "club",
    },
  });
  await db().questStep.createMany({
    data: (["joined_team", "arena_check_in", "game_rated"] as const).map((condition, i) => ({
      id: steps[i]!,
      questId: quest,
      position: i + 1,
      title: condition,
      condition,
    })),
  });
});

describe("legacy quest routes", () => {
  it("GET /api/quests is the v1 list, marked deprecated", async () => {
    const { auth } = await signedUp();
    const [legacy, v1] = await Promise.all([api("GET", "/api/quests", { headers: auth }), api("GET", "/api/v1/engage/quests", { headers: auth })]);
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual(v1.body);
    expect(legacy.headers.get("deprecation")).toBe(`@${Date.parse("2026-06-01") / 1000}`);
    expect(legacy.headers.get("link")).toBe('</api/v1/engage/quests>; rel="successor-version"');
  });

  it("start creates the progress row once; 404 when not eligible", async () => {
    const { auth, userId } = await signedUp();
    const [a, b] = await Promise.all([
      post(auth, "/api/quests/start", { questId: "q_follow_three" }),
      post(auth, "/api/quests/start", { questId: "q_follow_three" }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data).toMatchObject({ id: "q_follow_three", started: true, completed: false });
    expect(await db().questProgress.count({ where: { userId, questId: "q_follow_three", periodKey: "once" } })).toBe(1);
    for (const questId of ["q_quiz_hch", "q_daily_prediction", "q_season_pass_kickoff"]) {
      const res = await post(auth, "/api/quests/start", { questId });
      expect(res.status).toBe(404);
      expect(errorOf(res)).toEqual({ code: "NOT_FOUND", message: "Quest not found." });
    }
    expect((await post(auth, "/api/quests/start", {})).status).toBe(400);
  });

  it("complete-step: client steps count once; the last one completes the quest and awards once", async () => {
    const { auth, userId } = await signedUp();
    await holdSeasonPass(userId);
    let res = await post(auth, "/api/quests/complete-step", { questId: "q_season_pass_kickoff", stepId: "qs_season_pass_kickoff_1" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ stepCompleted: true, questCompleted: false, quest: { stepsDone: 1, stepsTotal: 2, completed: false } });
    res = await post(auth, "/api/quests/complete-step", { questId: "q_season_pass_kickoff", stepId: "qs_season_pass_kickoff_1" });
    expect(res.body.data).toMatchObject({ stepCompleted: false, questCompleted: false });
    res = await post(auth, "/api/quests/complete-step", { questId: "q_season_pass_kickoff", stepId: "qs_season_pass_kickoff_2" });
    expect(res.body.data).toMatchObject({ stepCompleted: true, questCompleted: true, quest: { stepsDone: 2, completed: true, repAwarded: 40 } });
    res = await post(auth, "/api/quests/complete-step", { questId: "q_season_pass_kickoff", stepId: "qs_season_pass_kickoff_2" });
    expect(res.body.data).toMatchObject({ stepCompleted: false, questCompleted: false });
    const entries = await entriesOf(userId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ earnKind: "quest_completion", amount: 40n, source: "serviceDirect", grantKey: "quest:q_season_pass_kickoff:once" });
    expect(await balanceOf(userId)).toBe(40);
  });

  it("complete-step: a step of another quest is 404; a conditioned step needs its condition", async () => {
    const { auth, userId } = await signedUp();
    const other = await post(auth, "/api/quests/complete-step", { questId: "q_follow_three", stepId: "qs_complete_profile_1" });
    expect(other.status).toBe(404);
    expect(errorOf(other)).toEqual({ code: "NOT_FOUND", message: "Quest step not found." });

    const refused = await post(auth, "/api/quests/complete-step", { questId: "q_follow_three", stepId: "qs_follow_three_1" });
    expect(refused.status).toBe(409);
    expect(errorOf(refused)).toEqual({
      code: "QUEST_STEP_CONDITION_NOT_MET",
      message: "This step is checked by the server (follows_three_teams) and is not met yet.",
    });
    expect(await db().questStepProgress.count({ where: { userId } })).toBe(0);

    await db().teamFollow.createMany({ data: ["tm_hch", "tm_gfg", "tm_lsl"].map((teamId) => ({ userId, teamId })) });
    const ok = await post(auth, "/api/quests/complete-step", { questId: "q_follow_three", stepId: "qs_follow_three_1" });
    expect(ok.body.data).toMatchObject({ stepCompleted: true, questCompleted: true });
    expect(await balanceOf(userId)).toBe(50);
  });

  it("concurrent complete-step of the last step awards once", async () => {
    const { auth, userId } = await signedUp();
    await holdSeasonPass(userId);
    await post(auth, "/api/quests/complete-step", { questId: "q_season_pass_kickoff", stepId: "qs_season_pass_kickoff_1" });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post(auth, "/api/quests/complete-step", { questId: "q_season_pass_kickoff", stepId: "qs_season_pass_kickoff_2" })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.data.questCompleted)).toHaveLength(1);
    expect(results.filter((r) => r.body.data.stepCompleted)).toHaveLength(1);
    expect(await db().repEntry.count({ where: { userId } })).toBe(1);
    expect(await balanceOf(userId)).toBe(40);
  });

  it("the two last steps completed at once, by each of eight fans: every quest completes, once, with one award", async () => {
    const fans = await Promise.all(Array.from({ length: 8 }, () => signedUp()));
    await Promise.all(fans.map((f) => holdSeasonPass(f.userId)));
    const results = await Promise.all(
      fans.flatMap((f) =>
        ["qs_season_pass_kickoff_1", "qs_season_pass_kickoff_2"].map((stepId) =>
          post(f.auth, "/api/quests/complete-step", { questId: "q_season_pass_kickoff", stepId }),
        ),
      ),
    );
    expect(results.every((r) => r.status === 200 && r.body.data.stepCompleted)).toBe(true);
    for (const [i, f] of fans.entries()) {
      expect(results.slice(2 * i, 2 * i + 2).filter((r) => r.body.data.questCompleted)).toHaveLength(1);
      const p = await db().questProgress.findUniqueOrThrow({
        where: { userId_questId_periodKey: { userId: f.userId, questId: "q_season_pass_kickoff", periodKey: "once" } },
      });
      expect(p.completedAt).not.toBeNull();
      expect(await db().repEntry.count({ where: { userId: f.userId } })).toBe(1);
      expect(await balanceOf(f.userId)).toBe(40);
    }
  });

  it("daily-visit completes today's visit quests once, even concurrently", async () => {
    const { auth, userId } = await signedUp();
    const results = await Promise.all(Array.from({ length: 8 }, () => post(auth, "/api/quests/daily-visit")));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.flatMap((r) => r.body.data.completed)).toEqual(["q_daily_checkin"]);
    expect(results[0]!.body.data.quests.map((q: { id: string }) => q.id)).toEqual(["q_daily_checkin"]);
    const entries = await entriesOf(userId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      earnKind: "daily_quest_completion",
      amount: 10n,
      source: "serviceDirect",
      grantKey: `quest:q_daily_checkin:${today()}`,
    });
    const again = await post(auth, "/api/quests/daily-visit");
    expect(again.body.data.completed).toEqual([]);
    expect(again.body.data.quests[0]).toMatchObject({ completed: true, repAwarded: 10 });
  });

  it("check-progress completes profile steps the server sees", async () => {
    const { auth, userId } = await signedUp();
    let res = await post(auth, "/api/quests/check-progress", { questId: "q_complete_profile" });
    expect(res.status).toBe(200);
    expect(res.body.data.completed).toEqual([]);
    await db().user.update({ where: { id: userId }, data: { handle: `h${userId.slice(0, 8)}`, handleKey: `h${userId.slice(0, 8)}`, displayName: "Pat" } });
    res = await post(auth, "/api/quests/check-progress", { questId: "q_complete_profile" });
    expect(res.body.data.completed).toEqual([]);
    expect(res.body.data.quests[0]).toMatchObject({ stepsDone: 2, completed: false });
    await db().user.update({ where: { id: userId }, data: { avatarUrl: "https://img.example.com/a.png" } });
    res = await post(auth, "/api/quests/check-progress"); // no body: every eligible quest
    expect(res.body.data.completed).toEqual(["q_complete_profile"]);
    expect(await balanceOf(userId)).toBe(25);
    res = await post(auth, "/api/quests/check-progress");
    expect(res.body.data.completed).toEqual([]);
    expect(await balanceOf(userId)).toBe(25);
  });

  it("check-progress: a superfan quest needs the join, a check-in at the team's game and a rating", async () => {
    const { auth, userId } = await signedUp();
    await db().teamFollow.create({ data: { userId, teamId: "tm_crc" } });
    expect((await post(auth, "/api/quests/check-progress", { questId: quest })).status).toBe(404);
    await db().teamMember.create({ data: { userId, teamId: SUPERFAN_TEAM } });
    await post(auth, "/api/v1/engage/quests/arena-check-in", { teamId: "tm_crc" }); // another team's check-in does not count
    let res = await post(auth, "/api/quests/check-progress", { questId: quest });
    expect(res.body.data.quests[0].steps.map((s: { done: boolean }) => s.done)).toEqual([true, false, false]);
    await post(auth, "/api/v1/engage/quests/arena-check-in", { teamId: SUPERFAN_TEAM }); // marks the step itself
    expect(await db().questStepProgress.count({ where: { userId, stepId: steps[1] } })).toBe(1);
    await db().gameRating.create({ data: { userId, gameId: "gm_nfl_001" } });
    res = await post(auth, "/api/quests/check-progress", { questId: quest });
    expect(res.body.data.completed).toEqual([quest]);
    const award = (await entriesOf(userId)).find((e) => e.earnKind === "quest_completion");
    expect(award).toMatchObject({ amount: 100n, source: "club", grantKey: `quest:${quest}:once` });
  });

  it("a check-in that meets a quest's last steps completes it at once", async () => {
    const { auth, userId } = await signedUp();
    await db().teamMember.create({ data: { userId, teamId: SUPERFAN_TEAM } });
    await db().gameRating.create({ data: { userId, gameId: "gm_nfl_001" } });
    const res = await post(auth, "/api/v1/engage/quests/arena-check-in", { teamId: SUPERFAN_TEAM });
    expect(res.status).toBe(201);
    expect(await db().questStepProgress.count({ where: { userId, stepId: { in: steps } } })).toBe(3);
    const p = await db().questProgress.findUniqueOrThrow({ where: { userId_questId_periodKey: { userId, questId: quest, periodKey: "once" } } });
    expect(p).toMatchObject({ repAwarded: 100n });
    expect(p.completedAt).not.toBeNull();
    expect(await balanceOf(userId)).toBe(125);
  });

  it("a check-in whose Rep was already granted still marks its step (under the user's lock)", async () => {
    const { auth, userId } = await signedUp();
    await db().teamMember.create({ data: { userId, teamId: SUPERFAN_TEAM } });
    expect((await post(auth, "/api/v1/engage/quests/arena-check-in", { teamId: SUPERFAN_TEAM })).status).toBe(201);
    // Staff removed the check-in and the step: the grant key stays used, so the next check-in credits nothing.
    await db().arenaCheckIn.deleteMany({ where: { userId } });
    await db().questStepProgress.deleteMany({ where: { userId, stepId: steps[1] } });
    const again = await post(auth, "/api/v1/engage/quests/arena-check-in", { teamId: SUPERFAN_TEAM });
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ repAwarded: 0, balance: 25 });
    expect(await db().questStepProgress.count({ where: { userId, stepId: steps[1] } })).toBe(1);
  });

  it("a check-in and the other last steps at once, by each of eight fans: every quest completes, once, with one award", async () => {
    const fans = await Promise.all(Array.from({ length: 8 }, () => signedUp()));
    await db().teamMember.createMany({ data: fans.map((f) => ({ userId: f.userId, teamId: SUPERFAN_TEAM })) });
    await db().gameRating.createMany({ data: fans.map((f) => ({ userId: f.userId, gameId: "gm_nfl_001" })) });
    const results = await Promise.all(
      fans.flatMap((f) => [
        post(f.auth, "/api/v1/engage/quests/arena-check-in", { teamId: SUPERFAN_TEAM }),
        post(f.auth, "/api/quests/complete-step", { questId: quest, stepId: steps[0] }),
        post(f.auth, "/api/quests/complete-step", { questId: quest, stepId: steps[2] }),
      ]),
    );
    expect(results.map((r) => r.status)).toEqual(fans.flatMap(() => [201, 200, 200]));
    for (const f of fans) {
      const p = await db().questProgress.findUniqueOrThrow({
        where: { userId_questId_periodKey: { userId: f.userId, questId: quest, periodKey: "once" } },
      });
      expect(p.completedAt).not.toBeNull();
      expect(await db().repEntry.count({ where: { userId: f.userId, earnKind: "quest_completion" } })).toBe(1);
      expect(await balanceOf(f.userId)).toBe(125);
    }
  });

  it("the conditioned step through complete-step: 409 until met, then counts", async () => {
    const { auth, userId } = await signedUp();
    await db().teamMember.create({ data: { userId, teamId: SUPERFAN_TEAM } });
    const refused = await post(auth, "/api/quests/complete-step", { questId: quest, stepId: steps[2] });
    expect(errorOf(refused).code).toBe("QUEST_STEP_CONDITION_NOT_MET");
    const ok = await post(auth, "/api/quests/complete-step", { questId: quest, stepId: steps[0] });
    expect(ok.body.data).toMatchObject({ stepCompleted: true, questCompleted: false });
  });
});

describe("POST /api/sync-quest-points", () => {
  it("recomputes quest points, writes missing ledger entries, and a second run changes nothing", async () => {
    const { auth, userId } = await signedUp();
    await post(auth, "/api/quests/daily-visit"); // 10, with its ledger entry
    // A completion from before the engine, without a ledger entry.
    await db().questProgress.create({
      data: { userId, questId: "q_daily_prediction", periodKey: "2026-01-02", completedAt: new Date("2026-01-02T10:00:00Z"), repAwarded: 15 },
    });
    await db().user.update({ where: { id: userId }, data: { questPoints: 3 } });

    const first = await post(auth, "/api/sync-quest-points");
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ questPoints: 25, previous: 3, entriesWritten: 1 });
    const written = (await entriesOf(userId)).find((e) => e.grantKey === "quest:q_daily_prediction:2026-01-02");
    expect(written).toMatchObject({ amount: 15n, earnKind: "daily_quest_completion", createdAt: new Date("2026-01-02T10:00:00Z") });
    expect(await balanceOf(userId)).toBe(25);

    const second = await post(auth, "/api/sync-quest-points");
    expect(second.body.data).toEqual({ questPoints: 25, previous: 25, entriesWritten: 0 });
    expect(await balanceOf(userId)).toBe(25);
    expect(await db().repEntry.count({ where: { userId } })).toBe(2);
  });

  it("401 without a token", async () => {
    expect((await api("POST", "/api/sync-quest-points")).status).toBe(401);
  });
});
