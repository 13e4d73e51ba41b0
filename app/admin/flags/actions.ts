"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { featureParams, flagBody, flagParams, killSwitchBody, settingBody, settingParams } from "@/lib/features/config/schemas";
import { putFlag, putKillSwitch, putSetting } from "@/lib/features/config/service";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { field, issueCode, resultRedirects } from "../_lib/form";

// Server actions of the flags page: each re-checks the staff session, needs the confirmation box, validates with the
// API's own schemas and calls the service the admin API uses (audited there; this process's config cache cleared),
// then redirects back with a result code.

const { back, attempt } = resultRedirects("/admin/flags");

/** "a, b c": the user ids of a scoped pause (any separators). */
const idList = (v: string | undefined) =>
  (v ?? "")
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

export async function killSwitchAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  if (field(form, "confirm") !== "yes") redirect(back({ error: "confirm" }));
  const feature = featureParams.safeParse({ feature: field(form, "feature") });
  const userIds = idList(field(form, "userIds"));
  const message = field(form, "message")?.trim();
  const body = killSwitchBody.safeParse({
    paused: field(form, "paused") === "yes",
    ...(message ? { message } : {}),
    ...(userIds.length ? { userIds } : {}),
  });
  if (!feature.success) redirect(back({ error: "feature" }));
  if (!body.success) redirect(back({ error: issueCode(body.error, []) }));
  await attempt(() => putKillSwitch(db, feature.data.feature, body.data, actorOf(staff)));
  redirect(back({ done: body.data.paused ? "paused" : "resumed", feature: feature.data.feature }));
}

export async function flagAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  if (field(form, "confirm") !== "yes") redirect(back({ error: "confirm" }));
  const key = flagParams.safeParse({ key: field(form, "key")?.trim() });
  const percent = field(form, "rolloutPercent")?.trim();
  const description = field(form, "description")?.trim();
  const body = flagBody.safeParse({
    rolloutPercent: percent && /^\d{1,3}(\.\d{1,2})?$/.test(percent) ? Number(percent) : percent,
    ...(description !== undefined ? { description } : {}),
  });
  if (!key.success) redirect(back({ error: "key" }));
  if (!body.success) redirect(back({ error: issueCode(body.error, []) }));
  await attempt(() => putFlag(db, key.data.key, body.data, actorOf(staff)));
  redirect(back({ done: "flag", flag: key.data.key }));
}

export async function settingAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  if (field(form, "confirm") !== "yes") redirect(back({ error: "confirm" }));
  const key = settingParams.safeParse({ key: field(form, "key") });
  const body = settingBody.safeParse({ value: field(form, "value") });
  if (!key.success) redirect(back({ error: "key" }));
  if (!body.success) redirect(back({ error: "value" }));
  await attempt(() => putSetting(db, key.data.key, body.data.value, actorOf(staff)));
  redirect(back({ done: "setting" }));
}
