"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { badgeInput, tierInput } from "@/lib/features/progress/schemas";
import { saveBadge, saveTier } from "@/lib/features/progress/service";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { field, fields, issueCode, resultRedirects } from "../_lib/form";
import { badgeFields, tierFields } from "./shared";

// Server actions of the progress page: each re-checks the staff session, needs the confirmation box, validates with
// lib/features/progress's schemas and saves with its audit entry (lib/features/progress/console.ts), then redirects back with a code.

const { back, attempt } = resultRedirects("/admin/progress");

export async function saveTierAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  if (field(form, "confirm") !== "yes") redirect(back({ error: "confirm" }));
  const parsed = tierInput.safeParse(tierFields(fields(form, ["slug", "name", "minRep", "perks"])));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  await attempt(() => saveTier(db, actorOf(staff), field(form, "id") || null, parsed.data));
  redirect(back({ done: "tier" }));
}

export async function saveBadgeAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  if (field(form, "confirm") !== "yes") redirect(back({ error: "confirm" }));
  const raw = fields(form, ["slug", "name", "description", "rule", "earnKinds", "threshold", "tierId", "repeatable", "revokeOnReversal"]);
  const parsed = badgeInput.safeParse(badgeFields(raw));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  const active = field(form, "id") ? field(form, "active") === "on" : true;
  await attempt(() => saveBadge(db, actorOf(staff), field(form, "id") || null, { ...parsed.data, active }));
  redirect(back({ done: "badge" }));
}
