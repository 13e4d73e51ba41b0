"use server";

import { redirect } from "next/navigation";
import { reversalSchema, userIdSchema } from "@/lib/admin/schemas";
import { ConsoleRefusal, reverseEntry } from "@/lib/admin/service";
import { db } from "@/lib/db/client";
import { requireStaffAction } from "../../_lib/gate";
import { field, fields, issueCode } from "../../_lib/form";

// The ledger page's server action: reversing a credit. Re-checks the staff session, validates the fields, redirects
// back with a result code (never free text from the request).

export async function reverseEntryAction(form: FormData) {
  const staff = await requireStaffAction();
  const user = userIdSchema.safeParse(field(form, "userId"));
  if (!user.success) redirect("/admin/users?error=invalid");
  const back = (extra: Record<string, string>) => `/admin/users/ledger?${new URLSearchParams({ user: user.data, ...extra })}`;
  const parsed = reversalSchema.safeParse(fields(form, ["userId", "entryId", "reason"]));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  try {
    await reverseEntry(db, staff.externalId, parsed.data.userId, parsed.data.entryId, parsed.data.reason);
  } catch (error) {
    if (error instanceof ConsoleRefusal) redirect(back({ error: error.code, entry: parsed.data.entryId }));
    throw error;
  }
  redirect(back({ done: "reversed", entry: parsed.data.entryId }));
}
