"use server";

import { redirect } from "next/navigation";
import { userIdSchema } from "@/lib/operations/admin/schemas";
import { db } from "@/lib/db/client";
import { adjust } from "@/lib/core/wallets/service";
import { actorOf, requireStaffAction } from "../../_lib/gate";
import { field, fields, issueCode, resultRedirects } from "../../_lib/form";
import { adjustForm } from "../../economy/shared";

// The fan page's wallet adjustment: staff session re-checked, the confirmation box required, the economy page's form
// schema (coins to minor units, at most ADJUSTMENT_MAX either way), then lib/core/wallets adjust(): the ledger row and its
// audit entry in one transaction. Back to the fan's page with a result code.

export async function adjustFanWalletAction(form: FormData) {
  const staff = await requireStaffAction("wallets");
  const user = userIdSchema.safeParse(field(form, "userId"));
  if (!user.success) redirect("/admin/users?error=invalid");
  const { back, attempt } = resultRedirects(`/admin/users/${user.data}`);
  const at = (extra: Record<string, string>) => `${back(extra)}#wallet`;
  if (field(form, "confirm") !== "yes") redirect(at({ error: "confirm" }));
  const parsed = adjustForm.safeParse(fields(form, ["userId", "amount", "note"]));
  if (!parsed.success) redirect(at({ error: issueCode(parsed.error, []) }));
  const { userId, amount, note } = parsed.data;
  await attempt(() => adjust(db, { userId, currency: "COIN", amount, note }, actorOf(staff)));
  redirect(at({ done: "adjusted" }));
}
