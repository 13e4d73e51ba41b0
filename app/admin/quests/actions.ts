"use server";

import { redirect } from "next/navigation";
import { questCreateSchema, questIdSchema, questionCreateSchema, questWindowSchema, QUESTION_CHOICES_MAX } from "@/lib/operations/admin/schemas";
import { addQuestion, ConsoleRefusal, createQuest, deactivateQuestion, retireQuest, setQuestWindow } from "@/lib/operations/admin/service";
import { db } from "@/lib/db/client";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { field, fields, issueCode } from "../_lib/form";

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

const questPage = (id: string, extra: Record<string, string>) => `/admin/quests/${encodeURIComponent(id)}?${new URLSearchParams(extra)}`;

export async function createQuestAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  const parsed = questCreateSchema.safeParse(fields(form, QUEST_FIELDS));
  if (!parsed.success) redirect(`/admin/quests?error=${issueCode(parsed.error, ["window", "team", "pass"])}`);
  let id: string;
  try {
    id = (await createQuest(db, actorOf(staff), parsed.data)).id;
  } catch (error) {
    if (error instanceof ConsoleRefusal) redirect(`/admin/quests?error=${error.code}`);
    throw error;
  }
  redirect(questPage(id, { done: "created" }));
}

export async function scheduleQuestAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  const id = questIdSchema.safeParse(field(form, "questId"));
  if (!id.success) redirect("/admin/quests?error=missing");
  const parsed = questWindowSchema.safeParse(fields(form, ["questId", "availableFrom", "availableUntil"]));
  if (!parsed.success) redirect(questPage(id.data, { error: issueCode(parsed.error, ["window"]) }));
  const { availableFrom, availableUntil } = parsed.data;
  if (!(await setQuestWindow(db, actorOf(staff), id.data, availableFrom ?? null, availableUntil ?? null))) redirect("/admin/quests?error=missing");
  redirect(questPage(id.data, { done: "scheduled" }));
}

export async function retireQuestAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  const id = questIdSchema.safeParse(field(form, "questId"));
  if (!id.success) redirect("/admin/quests?error=missing");
  const result = await retireQuest(db, actorOf(staff), id.data);
  if (!result) redirect("/admin/quests?error=missing");
  redirect(questPage(id.data, { done: "retired" }));
}

export async function addQuestionAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  const id = questIdSchema.safeParse(field(form, "questId"));
  if (!id.success) redirect("/admin/quests?error=missing");
  const choices = Array.from({ length: QUESTION_CHOICES_MAX }, (_, i) => field(form, `choice${i}`) ?? "");
  const parsed = questionCreateSchema.safeParse({ questId: id.data, prompt: field(form, "prompt"), choices, answerIndex: field(form, "answerIndex") });
  if (!parsed.success) redirect(questPage(id.data, { error: issueCode(parsed.error, ["choices", "answer"]) }));
  try {
    await addQuestion(db, actorOf(staff), parsed.data);
  } catch (error) {
    if (error instanceof ConsoleRefusal) redirect(questPage(id.data, { error: error.code }));
    throw error;
  }
  redirect(questPage(id.data, { done: "question" }));
}

export async function deactivateQuestionAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  const id = questIdSchema.safeParse(field(form, "questId"));
  const questionId = questIdSchema.safeParse(field(form, "questionId"));
  if (!id.success) redirect("/admin/quests?error=missing");
  if (!questionId.success || !(await deactivateQuestion(db, actorOf(staff), id.data, questionId.data)))
    redirect(questPage(id.data, { error: "question_missing" }));
  redirect(questPage(id.data, { done: "deactivated" }));
}
