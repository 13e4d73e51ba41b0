"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { reviewTagBody, tagParams } from "@/lib/features/tags/schemas";
import { reviewTag } from "@/lib/features/tags/service";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { field, resultRedirects } from "../_lib/form";

// The trends page's one action: approve or reject a tag. It re-checks the staff session, needs the confirmation box,
// validates with lib/features/tags's schemas and saves with its audit entry (lib/features/tags reviewTag), then redirects back with a code.

const { back, attempt } = resultRedirects("/admin/trends");

export async function reviewTagAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  const from = field(form, "from") ?? "pending";
  if (field(form, "confirm") !== "yes") redirect(back({ status: from, error: "confirm" }));
  const tag = tagParams.safeParse({ tag: field(form, "tag") ?? "" });
  const body = reviewTagBody.safeParse({ status: field(form, "status") });
  if (!tag.success || !body.success) redirect(back({ status: from, error: "invalid" }));
  await attempt(() => reviewTag(db, tag.data.tag, body.data.status, actorOf(staff)), { status: from });
  redirect(back({ status: from, done: body.data.status }));
}
