"use server";

import { redirect } from "next/navigation";
import { reversalSchema, userIdSchema } from "@/lib/admin/schemas";
import { reverseEntry } from "@/lib/admin/service";
import { db } from "@/lib/db/client";
import { requireStaffAction } from "../../_lib/gate";
import { field, fields, issueCode, resultRedirects } from "../../_lib/form";

// The ledger page's server action: reversing a credit. Re-checks the staff session, validates the fields, redirects
// back with a result code (never free text from the request).

export async function reverseEntryAction(form: FormData) {
  const staff = await requireStaffAction("support");
  const user = userIdSchema.safeParse(field(form, "userId"));
  if (!user.success) redirect("/admin/users?error=invalid");
  const { back, attempt } = resultRedirects("/admin/users/ledger");
  const parsed = reversalSchema.safeParse(fields(form, ["userId", "entryId", "reason"]));
  if (!parsed.success) redirect(back({ user: user.data, error: issueCode(parsed.error, []) }));
  const { entryId } = parsed.data;
  await attempt(() => reverseEntry(db, staff.externalId, parsed.data.userId, entryId, parsed.data.reason), { user: user.data, entry: entryId });
  redirect(back({ user: user.data, done: "reversed", entry: entryId }));
}
