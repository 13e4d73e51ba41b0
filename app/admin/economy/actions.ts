"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { log } from "@/lib/kernel/log";
import { cancelListing, refundSale } from "@/lib/marketplace/service";
import { setStock } from "@/lib/packs/service";
import { adjust } from "@/lib/wallets/service";
import { requireStaffAction } from "../_lib/gate";
import { fields, issueCode, resultRedirects } from "../_lib/form";
import { adjustForm, listingForm, stockForm } from "./shared";

// Server actions of the economy page. Each re-checks the staff session, validates its fields with zod, calls the
// services the API uses (lib/wallets, lib/marketplace) and redirects back with a result code.

const { back, attempt } = resultRedirects("/admin/economy");

export async function adjustWalletAction(form: FormData) {
  const staff = await requireStaffAction();
  const parsed = adjustForm.safeParse(fields(form, ["userId", "amount", "note"]));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  const { userId, amount, note } = parsed.data;
  await attempt(() => adjust(db, { userId, currency: "COIN", amount, note }, { id: staff.externalId, role: "admin" }), { user: userId });
  log("info", { msg: "wallet adjusted", actor: staff.externalId, user: userId, amount });
  redirect(back({ user: userId, done: "adjusted" }));
}

async function listingAction(form: FormData, act: "cancelled" | "refunded") {
  const staff = await requireStaffAction();
  const parsed = listingForm.safeParse(fields(form, ["listingId"]));
  if (!parsed.success) redirect(back({ error: "listingId" }));
  const id = parsed.data.listingId;
  await attempt(() => (act === "cancelled" ? cancelListing(db, null, id) : refundSale(db, id, staff.externalId)), {});
  log("info", { msg: `listing ${act}`, actor: staff.externalId, listing: id });
  redirect(back({ done: act }));
}

export async function cancelListingAction(form: FormData) {
  await listingAction(form, "cancelled");
}

export async function refundSaleAction(form: FormData) {
  await listingAction(form, "refunded");
}

export async function setPackStockAction(form: FormData) {
  const staff = await requireStaffAction();
  const parsed = stockForm.safeParse(fields(form, ["packId", "stock"]));
  if (!parsed.success) redirect(back({ error: "stock" }));
  await attempt(() => setStock(db, parsed.data.packId, parsed.data.stock), {});
  log("info", { msg: "pack stock set", actor: staff.externalId, pack: parsed.data.packId, stock: parsed.data.stock });
  redirect(back({ done: "stock" }));
}
