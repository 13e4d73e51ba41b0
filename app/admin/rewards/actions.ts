"use server";

import { redirect } from "next/navigation";
import { rewardCreateSchema, rewardIdSchema, stockDeltaSchema, stockSetSchema } from "@/lib/operations/admin/schemas";
import { adjustStock, createReward, setRewardActive, setStock } from "@/lib/operations/admin/service";
import { db } from "@/lib/db/client";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { field, fields, issueCode, resultRedirects } from "../_lib/form";

// Server actions of the rewards page: each re-checks the staff session, validates its fields with zod and redirects
// back with a result code (never free text from the request).

const { back, attempt } = resultRedirects("/admin/rewards");

export async function createRewardAction(form: FormData) {
  const staff = await requireStaffAction("economy");
  const parsed = rewardCreateSchema.safeParse(
    fields(form, ["title", "slug", "description", "kind", "costRep", "stock", "perUserLimit", "milestone", "milestoneValue"]),
  );
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, ["milestone", "milestone_cost", "redeem_milestone"]) }));
  let id = "";
  await attempt(async () => (id = (await createReward(db, actorOf(staff), parsed.data)).id), { reward: "" });
  redirect(back({ done: "created", reward: id }));
}

export async function adjustStockAction(form: FormData) {
  const staff = await requireStaffAction("economy");
  const parsed = stockDeltaSchema.safeParse(fields(form, ["rewardId", "delta"]));
  const rewardId = field(form, "rewardId") ?? "";
  if (!parsed.success) redirect(back({ error: "delta", reward: rewardId }));
  await attempt(() => adjustStock(db, actorOf(staff), parsed.data.rewardId, parsed.data.delta), { reward: parsed.data.rewardId });
  redirect(back({ done: "stock", reward: parsed.data.rewardId }));
}

export async function setStockAction(form: FormData) {
  const staff = await requireStaffAction("economy");
  const parsed = stockSetSchema.safeParse(fields(form, ["rewardId", "stock"]));
  if (!parsed.success) redirect(back({ error: "stock", reward: field(form, "rewardId") ?? "" }));
  await attempt(() => setStock(db, actorOf(staff), parsed.data.rewardId, parsed.data.stock ?? null), { reward: parsed.data.rewardId });
  redirect(back({ done: "stock", reward: parsed.data.rewardId }));
}

async function changeActive(form: FormData, active: boolean) {
  const staff = await requireStaffAction("economy");
  const id = rewardIdSchema.safeParse(field(form, "rewardId"));
  if (!id.success) redirect(back({ error: "missing" }));
  await attempt(() => setRewardActive(db, actorOf(staff), id.data, active), { reward: id.data });
  redirect(back({ done: active ? "activated" : "deactivated", reward: id.data }));
}

export async function deactivateRewardAction(form: FormData) {
  await changeActive(form, false);
}

export async function activateRewardAction(form: FormData) {
  await changeActive(form, true);
}
