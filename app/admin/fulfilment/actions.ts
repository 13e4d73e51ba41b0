"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { addVoucherCodes, setClaimStatus, setRewardFulfilment } from "@/lib/features/rewards/fulfilment";
import { voucherCodesBody } from "@/lib/features/rewards/schemas";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { field, fields, issueCode, resultRedirects } from "../_lib/form";
import { codesForm, kindForm, moveForm, parseCodes } from "./shared";

// Server actions of the fulfilment page: each re-checks the staff session, needs the Confirm box, validates its
// fields and calls the service the staff API uses (which writes the audit entry in its transaction), then redirects
// back with a result code.

const { back, attempt } = resultRedirects("/admin/fulfilment");

export async function moveClaimAction(form: FormData) {
  const staff = await requireStaffAction("economy");
  const tab = field(form, "tab") ?? "pending";
  const parsed = moveForm.safeParse(fields(form, ["claimId", "status", "trackingCode", "note", "confirm"]));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, ["confirm", "missing", "status", "tracking", "note"]), status: tab }));
  const { claimId, status, trackingCode, note } = parsed.data;
  const result = await attempt(() => setClaimStatus(db, claimId, { status, trackingCode: trackingCode || null, note: note || null }, actorOf(staff)), {
    status: tab,
  });
  redirect(back({ done: result.changed ? status : "unchanged", status: tab, claim: claimId }));
}

export async function addCodesAction(form: FormData) {
  const staff = await requireStaffAction("economy");
  const parsed = codesForm.safeParse(fields(form, ["rewardId", "codes", "confirm"]));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, ["confirm", "missing", "codes"]) }));
  const codes = voucherCodesBody.safeParse({ codes: parseCodes(parsed.data.codes) });
  if (!codes.success) redirect(back({ error: "codes" }));
  const result = await attempt(() => addVoucherCodes(db, parsed.data.rewardId, codes.data.codes, actorOf(staff)), {
    status: "pending",
  });
  redirect(back({ done: "codes", added: String(result.added), available: String(result.available) }));
}

export async function setKindAction(form: FormData) {
  const staff = await requireStaffAction("economy");
  const parsed = kindForm.safeParse(fields(form, ["rewardId", "fulfilment", "confirm"]));
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, ["confirm", "missing", "kind"]) }));
  await attempt(() => setRewardFulfilment(db, parsed.data.rewardId, parsed.data.fulfilment, actorOf(staff)), { status: "pending" });
  redirect(back({ done: "kind" }));
}
