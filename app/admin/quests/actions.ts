"use server";

import { redirect } from "next/navigation";
import { questCreateSchema, questIdSchema, questionCreateSchema, questWindowSchema, QUESTION_CHOICES_MAX } from "@/lib/operations/admin/schemas";
import { addQuestion, createQuest, deactivateQuestion, retireQuest, setQuestWindow } from "@/lib/operations/admin/service";
import { db } from "@/lib/db/client";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { field, fields, issueCode, resultRedirects } from "../_lib/form";

// Server actions of the quests pages: each re-checks the staff session, validates its fields with zod and redirects
// back with a result code (never free text from the request).

const QUEST_FIELDS = [
  "title",
  "slug",
  "description",
  "kind",
  "scope",
  "teamId",
  "passId",
  "cadence",
  "repReward",
  "repSource",
  "quizLength",
  "quizSeconds",
  "availableFrom",
  "availableUntil",
] as const;

const quests = resultRedirects("/admin/quests");
/** A quest's own page; a refusal to change the quest comes back there. */
const questPage = (id: string) => resultRedirects(`/admin/quests/${encodeURIComponent(id)}`);

export async function createQuestAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  const parsed = questCreateSchema.safeParse(fields(form, QUEST_FIELDS));
  if (!parsed.success) redirect(quests.back({ error: issueCode(parsed.error, ["window", "team", "pass"]) }));
  const { id } = await quests.attempt(() => createQuest(db, actorOf(staff), parsed.data));
  redirect(questPage(id).back({ done: "created" }));
}

export async function scheduleQuestAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  const id = questIdSchema.safeParse(field(form, "questId"));
  if (!id.success) redirect(quests.back({ error: "missing" }));
  const { back } = questPage(id.data);
  const parsed = questWindowSchema.safeParse(fields(form, ["questId", "availableFrom", "availableUntil"]));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, ["window"]) }));
  const { availableFrom, availableUntil } = parsed.data;
  if (!(await setQuestWindow(db, actorOf(staff), id.data, availableFrom ?? null, availableUntil ?? null))) redirect(quests.back({ error: "missing" }));
  redirect(back({ done: "scheduled" }));
}

export async function retireQuestAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  const id = questIdSchema.safeParse(field(form, "questId"));
  if (!id.success) redirect(quests.back({ error: "missing" }));
  const result = await retireQuest(db, actorOf(staff), id.data);
  if (!result) redirect(quests.back({ error: "missing" }));
  redirect(questPage(id.data).back({ done: "retired" }));
}

export async function addQuestionAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  const id = questIdSchema.safeParse(field(form, "questId"));
  if (!id.success) redirect(quests.back({ error: "missing" }));
  const { back, attempt } = questPage(id.data);
  const choices = Array.from({ length: QUESTION_CHOICES_MAX }, (_, i) => field(form, `choice${i}`) ?? "");
  const parsed = questionCreateSchema.safeParse({ questId: id.data, prompt: field(form, "prompt"), choices, answerIndex: field(form, "answerIndex") });
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, ["choices", "answer"]) }));
  await attempt(() => addQuestion(db, actorOf(staff), parsed.data));
  redirect(back({ done: "question" }));
}

export async function deactivateQuestionAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  const id = questIdSchema.safeParse(field(form, "questId"));
  const questionId = questIdSchema.safeParse(field(form, "questionId"));
  if (!id.success) redirect(quests.back({ error: "missing" }));
  const { back } = questPage(id.data);
  if (!questionId.success || !(await deactivateQuestion(db, actorOf(staff), id.data, questionId.data))) redirect(back({ error: "question_missing" }));
  redirect(back({ done: "deactivated" }));
}
