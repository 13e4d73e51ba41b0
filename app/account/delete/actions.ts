"use server";

import { redirect } from "next/navigation";
import { cancelDeletion, scheduleDeletion } from "@/lib/core/accounts/service";
import { db } from "@/lib/db/client";
import { DomainError } from "@/lib/kernel/errors";
import { ACCOUNT_DELETE_PATH, requireFan } from "../_lib/session";

// The deletion page's server actions: each re-checks the browser session, then calls lib/core/accounts' service (the
// rules the API uses) and redirects back with a result code.

const back = (result: Record<string, string>) => `${ACCOUNT_DELETE_PATH}?${new URLSearchParams(result)}`;

export async function scheduleAction(form: FormData) {
  const { userId } = await requireFan();
  if (form.get("confirm") !== "yes") redirect(back({ step: "confirm", error: "unconfirmed" }));
  await scheduleDeletion(db, userId);
  redirect(back({ done: "scheduled" }));
}

export async function cancelAction() {
  const { userId } = await requireFan();
  try {
    await cancelDeletion(db, userId);
  } catch (error) {
    if (error instanceof DomainError && (error.code === "DELETION_IN_PROGRESS" || error.code === "NOT_FOUND")) {
      redirect(back({ error: error.code === "NOT_FOUND" ? "none" : "in_progress" }));
    }
    throw error;
  }
  redirect(back({ done: "cancelled" }));
}
