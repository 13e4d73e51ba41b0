"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { externalIdSchema, teamIdSchema, teamSearchSchema } from "@/lib/operations/admin/schemas";
import { SelfRevokeError, setStaffRole, setTeamArchived } from "@/lib/operations/admin/service";
import { db } from "@/lib/db/client";
import { log } from "@/lib/kernel/log";
import { runSync } from "@/lib/features/sync/service";
import { STAFF_ROLES } from "@/lib/auth/roles";
import { field, resultRedirects } from "./_lib/form";
import { actorOf, requireStaffAction } from "./_lib/gate";

// Server actions of the staff console. Each one is a public POST endpoint, so each re-checks the staff session
// first (requireStaffAction), validates its form fields with zod, then redirects back with a result code
// (never free text from the request) for the page to display.

const teams = resultRedirects("/admin/teams");
const sync = resultRedirects("/admin/sync");
const users = resultRedirects("/admin/users");
const rolePage = resultRedirects("/admin/users/role");

/** Back to the teams list with its search kept. */
function teamsReturn(form: FormData, extra: Record<string, string>): string {
  const search = teamSearchSchema.safeParse({ q: field(form, "q"), league: field(form, "league"), archived: field(form, "archived") });
  const kept: Record<string, string> = {};
  if (search.success) {
    if (search.data.q) kept.q = search.data.q;
    if (search.data.league) kept.league = search.data.league;
    if (search.data.archived) kept.archived = "1";
  }
  return teams.back({ ...kept, ...extra });
}

async function changeArchived(form: FormData, archived: boolean) {
  const staff = await requireStaffAction("admin");
  const id = teamIdSchema.safeParse(field(form, "teamId"));
  if (!id.success) redirect(teamsReturn(form, { error: "invalid" }));
  const result = await setTeamArchived(db, actorOf(staff), id.data, archived);
  redirect(teamsReturn(form, result ? { done: archived ? "archived" : "restored", team: id.data } : { error: "missing" }));
}

export async function archiveTeam(form: FormData) {
  await changeArchived(form, true);
}

export async function restoreTeam(form: FormData) {
  await changeArchived(form, false);
}

const scopeSchema = z.enum(["leagues", "teams"]);

export async function startSync(form: FormData) {
  const staff = await requireStaffAction("admin");
  const scope = scopeSchema.safeParse(field(form, "scope"));
  if (!scope.success) redirect(sync.back({ error: "scope" }));
  // runSync records a failed run rather than throwing; an exception here means the run could not be recorded.
  let runId: string | null = null;
  try {
    runId = (await runSync(db, { scope: scope.data, trigger: "admin", actor: actorOf(staff) })).id;
  } catch (error) {
    log("error", { msg: "console sync failed to start", error: error instanceof Error ? error.message : String(error) });
  }
  redirect(sync.back(runId ? { run: runId } : { error: "start" }));
}

/** A role form's choice: `role` (a staff role or "none"), or the older `grant` (1: admin, 0: none). */
const roleChoice = z.enum([...STAFF_ROLES, "none"]);
const chosenRole = (form: FormData) => roleChoice.catch("none").parse(field(form, "role") ?? (field(form, "grant") === "1" ? "admin" : "none"));

export async function changeRole(form: FormData) {
  const staff = await requireStaffAction("admin");
  const target = externalIdSchema.safeParse(field(form, "externalId"));
  const role = chosenRole(form);
  const grant = role !== "none";
  const q = z
    .string()
    .trim()
    .max(200)
    .catch("")
    .parse(field(form, "q") ?? "");
  const back = (extra: Record<string, string>) => users.back({ ...(q ? { q } : {}), ...extra });
  if (!target.success) redirect(back({ error: "invalid" }));
  // The confirmation step: the staff member typed the target's id (a framed or forged one-click POST cannot).
  if (field(form, "confirm")?.trim() !== target.data) {
    redirect(rolePage.back({ user: target.data, role, ...(q ? { q } : {}), error: "confirm" }));
  }
  let outcome: Record<string, string>;
  try {
    await setStaffRole(db, actorOf(staff), target.data, role === "none" ? null : role);
    outcome = { done: grant ? "granted" : "revoked", user: target.data };
  } catch (error) {
    if (!(error instanceof SelfRevokeError)) log("error", { msg: "staff role change failed", error: error instanceof Error ? error.message : String(error) });
    outcome = { error: error instanceof SelfRevokeError ? "self" : "provider", user: target.data };
  }
  redirect(back(outcome));
}
