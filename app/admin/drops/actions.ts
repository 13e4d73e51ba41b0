"use server";

import { redirect } from "next/navigation";
import { createChallenge } from "@/lib/features/challenges/service";
import { challengeCreateBody } from "@/lib/features/challenges/schemas";
import { db } from "@/lib/db/client";
import { createDropBody } from "@/lib/features/drops/schemas";
import { createDrop, runDropsCron } from "@/lib/features/drops/service";
import { recordAudit } from "@/lib/core/audit/service";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { fields, issueCode, resultRedirects } from "../_lib/form";
import { challengeBody, dropBody } from "./shared";

// Server actions of the drops page: each re-checks the staff session, validates with the API's own schema, calls the
// service the admin API uses and redirects back with a result code.

const { back, attempt } = resultRedirects("/admin/drops");

export async function createDropAction(form: FormData) {
  const staff = await requireStaffAction("economy");
  const parsed = createDropBody.safeParse(
    dropBody(fields(form, ["name", "packId", "mode", "price", "quantity", "perUserCap", "opensAt", "closesAt", "queueWindow"])),
  );
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  await attempt(() => createDrop(db, parsed.data, actorOf(staff)));
  redirect(back({ done: "drop" }));
}

export async function createChallengeAction(form: FormData) {
  const staff = await requireStaffAction("economy");
  const parsed = challengeCreateBody.safeParse(
    challengeBody(fields(form, ["title", "description", "startsAt", "endsAt", "cards", "rewardCardId", "rewardSupply", "rewardRep"])),
  );
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  await attempt(() => createChallenge(db, parsed.data, actorOf(staff)));
  redirect(back({ done: "challenge" }));
}

export async function runDrawsAction() {
  const staff = await requireStaffAction("economy");
  const result = await runDropsCron(db);
  // Each draw is the cron's own work (the same as a scheduled run): the entry records who asked for it early.
  await recordAudit(db, actorOf(staff), { action: "drops.run", targetType: "drops", targetId: "due", after: result });
  redirect(back({ done: result.packsPaused ? "packsPaused" : "ran" }));
}
