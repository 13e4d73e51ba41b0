"use server";

import { redirect } from "next/navigation";
import { reversalSchema, userIdSchema } from "@/lib/operations/admin/schemas";
import { reverseEntry } from "@/lib/operations/admin/service";
import { db } from "@/lib/db/client";
import { actorOf, requireStaffAction } from "../../_lib/gate";
import { field, fields, issueCode, resultRedirects } from "../../_lib/form";

// Reversing a credit, from the ledger page or the fan's page (field `from` = "fan": back to the fan's page). Re-checks
// the staff session, needs the confirmation box, validates the fields, redirects back with a result code (never free
// text from the request). The reversal and its audit entry are one transaction (lib/operations/admin reverseEntry).

export async function reverseEntryAction(form: FormData) {
  const staff = await requireStaffAction("support");
  const user = userIdSchema.safeParse(field(form, "userId"));
  if (!user.success) redirect("/admin/users?error=invalid");
  const fromFan = field(form, "from") === "fan";
  const { back, attempt } = resultRedirects(fromFan ? `/admin/users/${user.data}` : "/admin/users/ledger");
  const at = (extra: Record<string, string>) => (fromFan ? `${back(extra)}#rep` : back({ user: user.data, ...extra }));
  if (field(form, "confirm") !== "yes") redirect(at({ error: "confirm" }));
  const parsed = reversalSchema.safeParse(fields(form, ["userId", "entryId", "reason"]));
  if (!parsed.success) redirect(at({ error: issueCode(parsed.error, []) }));
  const { entryId } = parsed.data;
  await attempt(() => reverseEntry(db, actorOf(staff), parsed.data.userId, entryId, parsed.data.reason), fromFan ? {} : { user: user.data, entry: entryId });
  redirect(at({ done: "reversed", entry: entryId }));
}
