import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import {
  addQuestion,
  adjustStock,
  ConsoleRefusal,
  createQuest,
  createReward,
  deactivateQuestion,
  retireQuest,
  setQuestWindow,
  setRewardActive,
  setStock,
} from "../../lib/operations/admin/service";
import type { StaffActor } from "../../lib/core/audit/service";
import { db } from "../../lib/db/client";
import { upsertProduct } from "../../lib/features/payments/console";

// The console-only staff changes (no staff API): each writes one audit entry with its change, in its transaction,
// with the actor's id and role (no request id: a console action); a refused or no-op call writes none.

const actor = (): StaffActor => ({ id: `user_audit_${randomUUID().slice(0, 12)}`, role: "admin" });
const entriesOf = (targetType: string, targetId: string) =>
  db.auditEntry.findMany({
    where: { targetType, targetId },
    orderBy: { id: "asc" },
    select: { actorId: true, actorRole: true, action: true, requestId: true, before: true, after: true },
  });

const quests: string[] = [];
const rewards: string[] = [];
afterAll(async () => {
  await db.quest.updateMany({ where: { id: { in: quests } }, data: { active: false, retiredAt: new Date() } });
  await db.reward.updateMany({ where: { id: { in: rewards } }, data: { active: false } });
  await db.$disconnect();
});

describe("console audit coverage", () => {
  // Team archive and restore: tests/e2e/console.test.ts (a restored team is live, which this project's tests avoid).

  it("quests and questions: create, schedule, retire, add and deactivate each write one entry; refusals and no-ops none", async () => {
    const staff = actor();
    const slug = `audit-quiz-${randomUUID().slice(0, 8)}`;
    const later = new Date(Date.UTC(2099, 0, 1));
    const quest = {
      title: "Audited quiz",
      slug,
      kind: "quiz" as const,
      scope: "global" as const,
      cadence: "daily" as const,
      repReward: 0,
      repSource: "club" as const,
      availableFrom: later,
    };
    const { id } = await createQuest(db, staff, quest);
    quests.push(id);
    await expect(createQuest(db, staff, quest)).rejects.toBeInstanceOf(ConsoleRefusal);
    expect(await setQuestWindow(db, staff, id, later, null)).toBe(true); // the same window: no change
    const end = new Date(Date.UTC(2099, 1, 1));
    expect(await setQuestWindow(db, staff, id, later, end)).toBe(true);

    const { id: questionId } = await addQuestion(db, staff, { questId: id, prompt: "Two plus two?", choices: ["3", "4"], answerIndex: 1 });
    expect(await deactivateQuestion(db, staff, id, questionId)).toBe(true);
    expect(await deactivateQuestion(db, staff, id, questionId)).toBe(true); // already inactive: no entry
    expect(await deactivateQuestion(db, staff, id, "qq_missing")).toBe(false);

    expect(await retireQuest(db, staff, id)).toEqual({ changed: true });
    expect(await retireQuest(db, staff, id)).toEqual({ changed: false });

    expect((await entriesOf("quest", id)).map((e) => [e.action, e.actorId, e.actorRole])).toEqual([
      ["quest.create", staff.id, "admin"],
      ["quest.schedule", staff.id, "admin"],
      ["quest.retire", staff.id, "admin"],
    ]);
    const scheduled = (await entriesOf("quest", id))[1]!;
    expect(scheduled.after).toEqual({ availableFrom: later.toISOString(), availableUntil: end.toISOString() });
    expect((await entriesOf("question", questionId)).map((e) => e.action)).toEqual(["question.create", "question.deactivate"]);
  });

  it("rewards: create, stock changes and (de)activation each write one entry; refusals and no-ops none", async () => {
    const staff = actor();
    const slug = `audit-reward-${randomUUID().slice(0, 8)}`;
    const reward = { title: "Audited reward", slug, kind: "redeem" as const, costRep: 10, stock: 3 };
    const { id } = await createReward(db, staff, reward);
    rewards.push(id);
    await expect(createReward(db, staff, reward)).rejects.toBeInstanceOf(ConsoleRefusal);
    expect(await adjustStock(db, staff, id, 2)).toBe(5);
    await expect(adjustStock(db, staff, id, -6)).rejects.toMatchObject({ code: "below_zero" });
    await setStock(db, staff, id, 5); // unchanged
    await setStock(db, staff, id, null);
    await setRewardActive(db, staff, id, false);
    await setRewardActive(db, staff, id, false); // already inactive
    await expect(setRewardActive(db, staff, "rw_missing_audit", false)).rejects.toMatchObject({ code: "missing" });

    const entries = await entriesOf("reward", id);
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ["reward.create", null, expect.objectContaining({ id, stock: 3 })],
      ["reward.stock", { stock: 3 }, { stock: 5 }],
      ["reward.stock", { stock: 5 }, { stock: null }],
      ["reward.deactivate", { active: true }, { active: false }],
    ]);
    expect(entries.every((e) => e.actorId === staff.id && e.requestId === null)).toBe(true);
  });

  it("coin bundles: a save writes one entry, a save that changes nothing none", async () => {
    const staff = actor();
    const id = `audit_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
    // Not on sale, so the fans' bundle list never shows it.
    const product = {
      id,
      name: "Audit bundle",
      coins: 100,
      prices: { usd: 99 },
      appStoreProductId: null,
      googlePlayProductId: null,
      active: false,
      sortOrder: 99,
    };
    expect(await upsertProduct(db, staff, product)).toBe(true);
    expect(await upsertProduct(db, staff, product)).toBe(true);
    expect(await upsertProduct(db, staff, { ...product, coins: 120 })).toBe(true);
    const entries = await entriesOf("coin_product", id);
    expect(entries.map((e) => [e.action, e.before && (e.before as { coins: number }).coins, (e.after as { coins: number }).coins])).toEqual([
      ["payment.product_save", null, 100],
      ["payment.product_save", 100, 120],
    ]);
  });
});
