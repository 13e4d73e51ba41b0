"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { DomainError } from "@/lib/http/errors";
import { reviewTagBody, tagParams } from "@/lib/tags/schemas";
import { reviewTag } from "@/lib/tags/service";
import { requireStaffAction } from "../_lib/gate";
import { field } from "../_lib/form";

// The trends page's one action: approve or reject a tag. It re-checks the staff session, needs the confirmation box,
// validates with lib/tags's schemas and saves with its audit entry (lib/tags reviewTag), then redirects back with a code.

const back = (extra: Record<string, string>) => `/admin/trends?${new URLSearchParams(extra)}`;

export async function reviewTagAction(form: FormData) {
  const staff = await requireStaffAction();
  const from = field(form, "from") ?? "pending";
  if (field(form, "confirm") !== "yes") redirect(back({ status: from, error: "confirm" }));
  const tag = tagParams.safeParse({ tag: field(form, "tag") ?? "" });
  const body = reviewTagBody.safeParse({ status: field(form, "status") });
  if (!tag.success || !body.success) redirect(back({ status: from, error: "invalid" }));
  try {
    await reviewTag(db, tag.data.tag, body.data.status, { id: staff.externalId, role: "admin" });
  } catch (error) {
    if (error instanceof DomainError) redirect(back({ status: from, error: error.code }));
    throw error;
  }
  redirect(back({ status: from, done: body.data.status }));
}
