"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { announcementCreateBody, announcementParams } from "@/lib/features/announcements/schemas";
import { createAnnouncement, endAnnouncement } from "@/lib/features/announcements/service";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { field, fields, issueCode, resultRedirects } from "../_lib/form";
import { utc } from "../drops/shared";

// Server actions of the announcements page: each re-checks the staff session, needs the confirmation box, validates
// with the API's own schemas and calls the service the admin API uses (audited there), then redirects back.

const { back, attempt } = resultRedirects("/admin/announcements");

export async function createAnnouncementAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  if (field(form, "confirm") !== "yes") redirect(back({ error: "confirm" }));
  const f = fields(form, ["title", "body", "linkUrl", "startsAt", "endsAt"]);
  const parsed = announcementCreateBody.safeParse({
    title: f.title,
    body: f.body,
    ...(f.linkUrl ? { linkUrl: f.linkUrl.trim() } : {}),
    ...(f.startsAt ? { startsAt: utc(f.startsAt) } : {}),
    ...(f.endsAt ? { endsAt: utc(f.endsAt) } : {}),
  });
  if (!parsed.success) redirect(back({ error: issueCode(parsed.error, []) }));
  await attempt(() => createAnnouncement(db, parsed.data, actorOf(staff)));
  redirect(back({ done: "created" }));
}

export async function endAnnouncementAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  if (field(form, "confirm") !== "yes") redirect(back({ error: "confirm" }));
  const parsed = announcementParams.safeParse({ announcementId: field(form, "announcementId") });
  if (!parsed.success) redirect(back({ error: "NOT_FOUND" }));
  await attempt(() => endAnnouncement(db, parsed.data.announcementId, actorOf(staff)));
  redirect(back({ done: "ended" }));
}
