"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { contestCreateBody } from "@/lib/features/contests/schemas";
import { createContest, runContestsCron } from "@/lib/features/contests/service";
import { DomainError } from "@/lib/kernel/errors";
import { recordAudit } from "@/lib/core/audit/service";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { field, fields, issueCode, resultRedirects } from "../_lib/form";
import { contestBody } from "./shared";

// Server actions of the contests page: each re-checks the staff session, validates with the API's own schema, calls
// the service the admin API uses (audited in its transaction) and redirects back with a result code.

const { back } = resultRedirects("/admin/contests");

export async function createContestAction(form: FormData) {
  const staff = await requireStaffAction("economy");
  if (field(form, "confirm") !== "yes") redirect(back({ error: "confirm" }));
  const parsed = contestCreateBody.safeParse(contestBody(fields(form, ["title", "gameIds", "slots", "rarityCap", "captainMultiplier", "prizes", "lockAt"])));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  try {
    await createContest(db, parsed.data, actorOf(staff));
  } catch (error) {
    if (error instanceof DomainError) redirect(back({ error: error.details?.[0]?.path.split(".")[1] ?? error.code }));
    throw error;
  }
  redirect(back({ done: "contest" }));
}

export async function runSettlementsAction() {
  const staff = await requireStaffAction("economy");
  const result = await runContestsCron(db);
  await recordAudit(db, actorOf(staff), { action: "contests.settle", targetType: "contests", targetId: "due", after: result });
  redirect(back({ done: "ran" }));
}
