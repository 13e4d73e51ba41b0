"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { dismissReports, liftSuspension, setCommentVisibility, setPostVisibility, suspendUser } from "@/lib/features/moderation/service";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { fields, issueCode, resultRedirects } from "../_lib/form";
import { liftForm, suspendForm, targetForm } from "./shared";

// Server actions of the moderation page. Each re-checks the staff session, validates its fields with zod, calls
// lib/features/moderation's service (the rules the API uses) with the staff member's identity-provider id, and redirects back
// with a result code (never free text from the request).

const { back, attempt } = resultRedirects("/admin/moderation");
const missing = { NOT_FOUND: "missing" };

async function target(form: FormData) {
  const staff = await requireStaffAction("moderation");
  const parsed = targetForm.safeParse(fields(form, ["kind", "id"]));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  return { staff, ...parsed.data };
}

async function setHidden(form: FormData, hide: boolean) {
  const { staff, kind, id } = await target(form);
  const set = kind === "post" ? setPostVisibility : setCommentVisibility;
  await attempt(() => set(db, id, actorOf(staff), hide), {}, missing);
  redirect(back({ [kind]: id, done: hide ? "hidden" : "restored" }));
}

export async function hideAction(form: FormData) {
  await setHidden(form, true);
}

export async function restoreAction(form: FormData) {
  await setHidden(form, false);
}

export async function dismissAction(form: FormData) {
  const { staff, kind, id } = await target(form);
  await attempt(() => dismissReports(db, kind === "post" ? { postId: id } : { commentId: id }, actorOf(staff)), {}, missing);
  redirect(back({ [kind]: id, done: "dismissed" }));
}

export async function suspendAction(form: FormData) {
  const staff = await requireStaffAction("moderation");
  const parsed = suspendForm.safeParse(fields(form, ["userId", "hours", "reason"]));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  await attempt(() => suspendUser(db, parsed.data, actorOf(staff)), {}, missing);
  redirect(back({ user: parsed.data.userId, done: "suspended" }));
}

export async function liftAction(form: FormData) {
  const staff = await requireStaffAction("moderation");
  const parsed = liftForm.safeParse(fields(form, ["suspensionId", "userId"]));
  if (!parsed.success) redirect(back({ error: "suspensionId" }));
  await attempt(() => liftSuspension(db, parsed.data.suspensionId, actorOf(staff)), { user: parsed.data.userId }, { NOT_FOUND: "suspensionId" });
  redirect(back({ user: parsed.data.userId, done: "lifted" }));
}
