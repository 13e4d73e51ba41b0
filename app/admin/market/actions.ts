"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { voidTradeAsStaff } from "@/lib/features/marketplace/service";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { fields, issueCode, resultRedirects } from "../_lib/form";
import { voidForm } from "./shared";

// Server actions of the market page: each re-checks the staff session, validates with zod, calls the service the API
// uses and redirects back with a result code.

const { back, attempt } = resultRedirects("/admin/market");

export async function voidTradeAction(form: FormData) {
  const staff = await requireStaffAction("economy");
  const parsed = voidForm.safeParse(fields(form, ["tradeId", "reason"]));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  const { tradeId, reason } = parsed.data;
  await attempt(() => voidTradeAsStaff(db, tradeId, actorOf(staff), reason));
  redirect(back({ done: "voided" }));
}
