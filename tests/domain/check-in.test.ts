import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuest } from "../../lib/operations/admin/service";
import { db } from "../../lib/db/client";
import { arenaCheckIn } from "../../lib/features/quests/service";
import { matchday } from "../helpers";

// A check-in completes its team's check-in quest: the first of the team's check-in quests, in the quest list's order,
// that the fan may take. One created in the console counts at once.

// tm_bsb's seeded check-in quest q_checkin_bsb, at a game of the team far from any other test's (its check-ins are
// made at that time: \`now\`).
const TEAM = "tm_bsb";
const CHECK_IN_QUEST = "q_checkin_bsb";
const AT = new Date(Date.UTC(2031, 4, 5, 18, 30));
beforeAll(() => matchday(TEAM, { startsAt: new Date(Date.UTC(2031, 4, 5, 18, 0)) }));

async function follower(passId?: string) {
  const user = await db.user.create({ data: { externalId: `user_checkin_${randomUUID()}` } });
  await db.teamFollow.create({ data: { userId: user.id, teamId: TEAM } });
  if (passId) await db.userPass.create({ data: { userId: user.id, passId } });
  return user.id;
}

const created: string[] = [];
afterAll(async () => {
  await db.quest.updateMany({ where: { id: { in: created } }, data: { active: false, retiredAt: new Date() } });
  await db.$disconnect();
});

describe("arena check-in and the team's check-in quests", () => {
  it("completes the first check-in quest the fan may take: a pass-gated one ahead of the team's, only for pass holders", async () => {
    // A check-in before the quest exists, as a running server would have served.
    await arenaCheckIn(db, await follower(), { teamId: TEAM }, AT);

    const suffix = randomUUID().slice(0, 8);
    const pass = await db.pass.create({ data: { id: `ps_checkin_${suffix}`, slug: `checkin-${suffix}`, name: "Check-in pass", kind: "global" } });
    // Same cadence, team and kind as the team's check-in quest (q_checkin_…); its id (q_c_…) sorts first.
    const { id } = await createQuest(
      db,
      { id: "staff_check_in_test", role: "admin" },
      {
        title: "Pass holders' check-in",
        slug: `c-bsb-pass-${suffix}`,
        kind: "check_in",
        scope: "pass",
        teamId: TEAM,
        passId: pass.id,
        cadence: "daily",
        repReward: 0,
        repSource: "club",
      },
    );
    created.push(id);
    expect(id < CHECK_IN_QUEST).toBe(true);

    const holder = await follower(pass.id);
    const other = await follower();
    const [held, notHeld] = await Promise.all([arenaCheckIn(db, holder, { teamId: TEAM }, AT), arenaCheckIn(db, other, { teamId: TEAM }, AT)]);
    expect(held.questCompleted).toBe(id);
    expect(notHeld.questCompleted).toBe(CHECK_IN_QUEST);
    // One completion each, and the check-in's Rep only.
    for (const [userId, questId] of [
      [holder, id],
      [other, CHECK_IN_QUEST],
    ] as const) {
      const done = await db.questProgress.findMany({ where: { userId }, select: { questId: true, repAwarded: true } });
      expect(done).toEqual([{ questId, repAwarded: 0n }]);
      expect(await db.repEntry.count({ where: { userId } })).toBe(1);
      expect(await db.userStreak.findUnique({ where: { userId }, select: { current: true } })).toEqual({ current: 1 });
    }
  });
});
