"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { decideAppeal, imposeSanction, liftAction, resolveTargetReports, reviewAction } from "@/lib/features/moderation/service";
import { actorOf, requireStaffAction } from "../../_lib/gate";
import { fields, issueCode, resultRedirects } from "../../_lib/form";
import { actionForm, appealForm, reportForm, reviewForm, sanctionForm } from "./shared";

// Server actions of the reports, sanctions and appeals page: each re-checks the staff session, validates its fields
// with zod, calls lib/features/moderation (the rules the API uses) with the staff member's identity-provider id, and
// redirects back with a result code.

const { back, attempt } = resultRedirects("/admin/moderation/accounts");
const refusals = { NOT_FOUND: "missing", APPEAL_DECIDED: "decided" };

export async function imposeAction(form: FormData) {
  const staff = await requireStaffAction("moderation");
  const parsed = sanctionForm.safeParse(fields(form, ["userId", "kind", "hours", "reason"]));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  await attempt(() => imposeSanction(db, parsed.data, actorOf(staff)), {}, refusals);
  redirect(back({ user: parsed.data.userId, done: "imposed" }));
}

export async function liftSanctionAction(form: FormData) {
  const staff = await requireStaffAction("moderation");
  const parsed = actionForm.safeParse(fields(form, ["actionId", "userId"]));
  if (!parsed.success) redirect(back({ error: "invalid" }));
  const user: Record<string, string> = parsed.data.userId ? { user: parsed.data.userId } : {};
  await attempt(() => liftAction(db, parsed.data.actionId, actorOf(staff)), user, refusals);
  redirect(back({ ...user, done: "lifted" }));
}

export async function decideAppealAction(form: FormData) {
  const staff = await requireStaffAction("moderation");
  const parsed = appealForm.safeParse(fields(form, ["appealId", "decision"]));
  if (!parsed.success) redirect(back({ error: "invalid" }));
  await attempt(() => decideAppeal(db, parsed.data.appealId, actorOf(staff), parsed.data.decision === "grant"), {}, refusals);
  redirect(back({ done: parsed.data.decision === "grant" ? "granted" : "denied" }));
}

export async function reviewTeamAction(form: FormData) {
  const staff = await requireStaffAction("moderation");
  const parsed = reviewForm.safeParse(fields(form, ["actionId", "decision"]));
  if (!parsed.success) redirect(back({ error: "invalid" }));
  await attempt(() => reviewAction(db, parsed.data.actionId, actorOf(staff), parsed.data.decision === "uphold"), {}, refusals);
  redirect(back({ done: parsed.data.decision === "uphold" ? "upheld" : "reverted" }));
}

export async function resolveReportsAction(form: FormData) {
  const staff = await requireStaffAction("moderation");
  const parsed = reportForm.safeParse(fields(form, ["kind", "id", "resolution"]));
  if (!parsed.success) redirect(back({ error: "invalid" }));
  await resolveTargetReports(db, { kind: parsed.data.kind, id: parsed.data.id }, actorOf(staff), parsed.data.resolution);
  redirect(back({ done: parsed.data.resolution }));
}
