"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { log } from "@/lib/kernel/log";
import { cancelListingAsStaff, refundSale } from "@/lib/features/marketplace/service";
import { setStock } from "@/lib/features/packs/service";
import { adjust } from "@/lib/core/wallets/service";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { fields, issueCode, resultRedirects } from "../_lib/form";
import { adjustForm, listingForm, stockForm } from "./shared";

// Server actions of the economy page. Each re-checks the staff session, validates its fields with zod, calls the
// services the API uses (lib/core/wallets, lib/features/marketplace) and redirects back with a result code.

const { back, attempt } = resultRedirects("/admin/economy");

export async function adjustWalletAction(form: FormData) {
  const staff = await requireStaffAction("wallets");
  const parsed = adjustForm.safeParse(fields(form, ["userId", "amount", "note"]));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  const { userId, amount, note } = parsed.data;
  await attempt(() => adjust(db, { userId, currency: "COIN", amount, note }, actorOf(staff)), { user: userId });
  log("info", { msg: "wallet adjusted", actor: staff.externalId, user: userId, amount });
  redirect(back({ user: userId, done: "adjusted" }));
}

async function listingAction(form: FormData, act: "cancelled" | "refunded") {
  const staff = await requireStaffAction("economy");
  const parsed = listingForm.safeParse(fields(form, ["listingId"]));
  if (!parsed.success) redirect(back({ error: "listingId" }));
  const id = parsed.data.listingId;
  await attempt(() => (act === "cancelled" ? cancelListingAsStaff(db, id, actorOf(staff)) : refundSale(db, id, actorOf(staff))), {});
  redirect(back({ done: act }));
}

export async function cancelListingAction(form: FormData) {
  await listingAction(form, "cancelled");
}

export async function refundSaleAction(form: FormData) {
  await listingAction(form, "refunded");
}

export async function setPackStockAction(form: FormData) {
  const staff = await requireStaffAction("economy");
  const parsed = stockForm.safeParse(fields(form, ["packId", "stock"]));
  if (!parsed.success) redirect(back({ error: "stock" }));
  await attempt(() => setStock(db, actorOf(staff), parsed.data.packId, parsed.data.stock), {});
  redirect(back({ done: "stock" }));
}
