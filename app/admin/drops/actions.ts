"use server";

import { redirect } from "next/navigation";
import { createChallenge } from "@/lib/challenges/service";
import { challengeCreateBody } from "@/lib/challenges/schemas";
import { db } from "@/lib/db/client";
import { createDropBody } from "@/lib/drops/schemas";
import { createDrop, runDropsCron } from "@/lib/drops/service";
import { DomainError } from "@/lib/http/errors";
import { log } from "@/lib/kernel/log";
import { requireStaffAction } from "../_lib/gate";
import { fields, issueCode } from "../_lib/form";
import { challengeBody, dropBody } from "./shared";

// Server actions of the drops page: each re-checks the staff session, validates with the API's own schema, calls the
// service the admin API uses and redirects back with a result code.

const back = (extra: Record<string, string>) => `/admin/drops?${new URLSearchParams(extra)}`;

async function attempt(write: () => Promise<unknown>) {
  try {
    await write();
  } catch (error) {
    if (error instanceof DomainError) redirect(back({ error: error.code }));
    throw error;
  }
}

export async function createDropAction(form: FormData) {
  const staff = await requireStaffAction();
  const parsed = createDropBody.safeParse(
    dropBody(fields(form, ["name", "packId", "mode", "price", "quantity", "perUserCap", "opensAt", "closesAt", "queueWindow"])),
  );
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  await attempt(() => createDrop(db, parsed.data, staff.externalId));
  log("info", { msg: "drop created", actor: staff.externalId, name: parsed.data.name, pack: parsed.data.packId });
  redirect(back({ done: "drop" }));
}

export async function createChallengeAction(form: FormData) {
  const staff = await requireStaffAction();
  const parsed = challengeCreateBody.safeParse(
    challengeBody(fields(form, ["title", "description", "startsAt", "endsAt", "cards", "rewardCardId", "rewardSupply", "rewardRep"])),
  );
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  await attempt(() => createChallenge(db, parsed.data));
  log("info", { msg: "challenge created", actor: staff.externalId, title: parsed.data.title });
  redirect(back({ done: "challenge" }));
}

export async function runDrawsAction() {
  const staff = await requireStaffAction();
  const result = await runDropsCron(db);
  log("info", { msg: "drops cron run from the console", actor: staff.externalId, ...result });
  redirect(back({ done: "ran" }));
}
