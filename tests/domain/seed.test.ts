import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { ensureDatabase, migrate } from "../../lib/db/migrate";
import { seed } from "../../dev/seed/seed";

const ADMIN = process.env.TEST_ADMIN_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const url = new URL(ADMIN);
url.pathname = `/fan_seed_${Math.random().toString(36).slice(2, 10)}`;
const db = createDb(url.toString(), 2);

const TABLES = [
  "leagues",
  "conferences",
  "divisions",
  "teams",
  "players",
  "games",
  "passes",
  "quests",
  "quest_steps",
  "quiz_questions",
  "rewards",
  "packs",
  "collectible_cards",
  "team_achievements",
  "coin_products",
  "challenges",
];

async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const t of TABLES) {
    const rows = await db.$queryRawUnsafe<unknown[]>(`SELECT * FROM ${t} ORDER BY id`);
    parts.push(JSON.stringify(rows, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)));
  }
  return parts.join("\n");
}

beforeAll(async () => {
  await ensureDatabase(url.toString());
  await migrate(url.toString());
  await seed(db);
});

afterAll(async () => {
  await db.$disconnect();
  const c = new pg.Client({ connectionString: ADMIN });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
  await c.end();
});

describe("demo seed", () => {
  it("is deterministic and idempotent, and restores rows that drifted", async () => {
    const first = await snapshot();
    await seed(db);
    expect(await snapshot()).toBe(first);
    await db.team.update({ where: { id: "tm_hch" }, data: { name: "Changed" } });
    await db.game.delete({ where: { id: "gm_nfl_001" } });
    await db.quizQuestion.update({ where: { id: "qq_hch_01" }, data: { choices: ["a", "b", "c", "d"], answerIndex: 0 } });
    await db.questStep.delete({ where: { id: "qs_hawks_superfan_2" } });
    await seed(db);
    expect(await snapshot()).toBe(first);
  });

  it("covers what the demo and the tests need", async () => {
    const sports = await db.league.findMany({ distinct: ["sport"], select: { sport: true } });
    expect(sports.length).toBeGreaterThanOrEqual(3);
    expect(await db.conference.count()).toBeGreaterThan(0);
    expect(await db.division.count()).toBeGreaterThan(0);
    expect(await db.team.count()).toBeGreaterThanOrEqual(30);
    expect(await db.team.count({ where: { archivedAt: { not: null } } })).toBe(1);
    expect(await db.team.count({ where: { sport: "" } })).toBe(1);
    expect(await db.player.count({ where: { active: false } })).toBeGreaterThan(0);
    expect(await db.player.count({ where: { active: true, availability: { not: "available" } } })).toBeGreaterThan(0);
    expect(await db.player.count({ where: { active: true, availability: "available" } })).toBeGreaterThan(0);
    expect(await db.game.count({ where: { status: "final", homeScore: { not: null }, awayScore: { not: null } } })).toBeGreaterThan(0);
    expect(await db.game.count({ where: { status: "scheduled" } })).toBeGreaterThan(0);
    expect(await db.quest.count()).toBeGreaterThan(0);
    expect(await db.reward.count()).toBeGreaterThan(0);
    // Every live team has a daily quiz with at least 8 four-choice questions, and a daily check-in quest.
    const liveTeams = await db.team.count({ where: { archivedAt: null } });
    expect(await db.quest.count({ where: { kind: "quiz", scope: "team", cadence: "daily", quizLength: 5, quizSeconds: 20, repSource: "club" } })).toBe(
      liveTeams,
    );
    expect(await db.quest.count({ where: { kind: "check_in", scope: "team", cadence: "daily" } })).toBe(liveTeams);
    const perQuiz = await db.quizQuestion.groupBy({ by: ["questId"], _count: { _all: true } });
    expect(perQuiz).toHaveLength(liveTeams);
    expect(Math.min(...perQuiz.map((g) => g._count._all))).toBeGreaterThanOrEqual(8);
    for (const q of await db.quizQuestion.findMany()) {
      expect(q.choices).toHaveLength(4);
      expect(new Set(q.choices).size).toBe(4);
    }
    expect(await db.quest.findUniqueOrThrow({ where: { id: "q_daily_prediction" } })).toMatchObject({ active: false });
    expect(await db.pass.count()).toBe(2);
    expect(await db.quest.count({ where: { scope: "pass", passId: { not: null } } })).toBeGreaterThanOrEqual(1);
    expect(await db.pack.count({ where: { isFreeStarter: true, active: true } })).toBe(1);
    // A demo collection challenge: three cards, its 50 reward serials taken from the crest's edition once.
    const challenge = await db.challenge.findFirstOrThrow({ include: { cards: true } });
    expect(challenge).toMatchObject({ rewardCardId: "cc_tm_hch", rewardSupply: 50, firstSerial: 1, seedHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(challenge.cards).toHaveLength(3);
    expect((await db.collectibleCard.findUniqueOrThrow({ where: { id: "cc_tm_hch" } })).mintedCount).toBe(50);
  });
});
