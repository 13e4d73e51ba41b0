"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { upsertProduct } from "@/lib/features/payments/console";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { field, fields, issueCode, resultRedirects } from "../_lib/form";
import { productForm } from "./shared";

// Server actions of the payments page: each re-checks the staff session, validates with zod and redirects back with
// a result code.

const { back } = resultRedirects("/admin/payments");

export async function saveProductAction(form: FormData) {
  const staff = await requireStaffAction("economy");
  const parsed = productForm.safeParse({
    ...fields(form, ["id", "name", "coins", "prices", "appStoreProductId", "googlePlayProductId", "sortOrder"]),
    active: field(form, "active"),
  });
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  if (!(await upsertProduct(db, actorOf(staff), parsed.data))) redirect(back({ error: "STORE_ID_TAKEN" }));
  redirect(back({ done: "saved" }));
}
