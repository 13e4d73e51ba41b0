// Reports of users, listings and binders (posts and comments: service.ts), the caller's own reports with their
// status, and the console's list of open ones.
import type { RawDb } from "../../db/raw";
import { recordAudit, type StaffActor } from "../../core/audit/service";
import type { Db, DbTx } from "../../db/client";
import { txOptions } from "../../db/tx";
import { DomainError, notFound } from "../../kernel/errors";
import { decodeCursor, decodeUuidTimeCursor, encodeCursor, invalidCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { log } from "../../kernel/log";
import { UUID_PATTERN } from "../../kernel/schemas";
import {
  insertAccountReport,
  openAccountReports,
  reportsBy,
  resolveAccountReports,
  targetOf,
  visibleTargetOwner,
  type AccountTarget,
  type AnyReportRow,
} from "./queries";
import type { ReportReason } from "./schemas";
import { errors as moderationErrors } from "./errors";

const NOUN = { user: "User", listing: "Listing", binder: "Binder" } as const;

const toTargetReport = (r: AnyReportRow) => ({
  id: r.id,
  target: targetOf(r),
  reason: r.reason.toLowerCase() as ReportReason,
  note: r.note,
  createdAt: r.createdAt.toISOString(),
});

/** What the reporter sees of a report: its status, never what staff did or why. */
const toMyReport = (r: AnyReportRow) => ({
  ...toTargetReport(r),
  status: r.resolvedAt === null ? ("open" as const) : r.resolution === "dismissed" ? ("dismissed" as const) : ("actioned" as const),
  reviewedAt: r.resolvedAt?.toISOString() ?? null,
});

/**
 * Reports a user, listing or binder the reporter can see (404 otherwise), not their own (400), with one open report
 * per reporter and target: a second while the first is open is 409 ALREADY_REPORTED (the unique index decides, so
 * of concurrent reports one is stored); once staff resolved it, the reporter may report the target again.
 */
export async function reportTarget(db: RawDb | DbTx, reporterId: string, target: AccountTarget, reason: ReportReason, note?: string) {
  const owner = await visibleTargetOwner(db, reporterId, target);
  if (!owner) throw notFound(NOUN[target.kind]);
  if (owner === reporterId) {
    throw new DomainError(
      moderationErrors.CANNOT_REPORT_OWN,
      target.kind === "user" ? "You cannot report yourself." : `You cannot report your own ${target.kind}.`,
    );
  }
  const row = await insertAccountReport(db, reporterId, target, reason, note || null);
  if (!row) throw new DomainError(moderationErrors.ALREADY_REPORTED, "You already reported this; staff have not reviewed it yet.");
  return toTargetReport(row);
}

const reportIdCursor = (cursor: string) => {
  const { sortKey, id } = decodeCursor(cursor);
  if (sortKey !== "myreports" || !UUID_PATTERN.test(id)) throw invalidCursor();
  return id;
};

/** The caller's reports of every kind, newest first (keyset), with their status. */
export async function myReports(db: RawDb | DbTx, reporterId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const rows = await reportsBy(db, reporterId, cursor ? reportIdCursor(cursor) : undefined, limit + 1);
  return keysetPage("reports", rows, limit, (r) => encodeCursor("myreports", r.id), toMyReport);
}

/** Open reports of users, listings and binders, oldest first (keyset), for staff. */
export async function accountReportQueue(db: RawDb | DbTx, { cursor, limit }: { cursor?: string; limit: number }) {
  const rows = await openAccountReports(db, cursor ? decodeUuidTimeCursor(cursor) : undefined, limit + 1);
  return keysetPage(
    "reports",
    rows,
    limit,
    (r) => encodeCursor(r.createdAt.getTime(), r.id),
    (r) => ({ ...toTargetReport(r), reporterId: r.reporterId }),
  );
}

/** Resolves a user's, listing's or binder's open reports as actioned or dismissed; answers how many. */
export async function resolveTargetReports(db: Db, target: AccountTarget, actor: StaffActor, resolution: "actioned" | "dismissed") {
  const resolvedReports = await db.$transaction(async (tx) => {
    const resolved = await resolveAccountReports(tx, target, actor.id, resolution);
    const audit = { action: `${target.kind}.reports_${resolution}`, targetType: target.kind, targetId: target.id, after: { resolvedReports: resolved } };
    if (resolved) await recordAudit(tx, actor, audit);
    return resolved;
  }, txOptions());
  log("info", { msg: `reports ${resolution}`, actor: actor.id, ...target, resolvedReports });
  return { resolvedReports };
}
