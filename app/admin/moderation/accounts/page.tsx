import { db } from "@/lib/db/client";
import { DomainError } from "@/lib/kernel/errors";
import { UUID_PATTERN } from "@/lib/kernel/schemas";
import { SANCTION_HOURS_MAX, SANCTION_KINDS, SUSPENSION_REASON_MAX } from "@/lib/features/moderation/schemas";
import { accountReportQueue, appealQueue, reviewQueue, userModerationActions } from "@/lib/features/moderation/service";
import { requireStaff } from "../../_lib/gate";
import { Field, first, Notice, Select, styles, type SearchParams, TableHead, when, ScrollTable } from "../../_lib/ui";
import { decideAppealAction, imposeAction, liftSanctionAction, resolveReportsAction, reviewTeamAction } from "./actions";
import { ACCOUNT_DONE, ACCOUNT_ERRORS, KIND_LABEL } from "./shared";

// Reports of users, listings and binders; sanctions (impose posting, trading or full; a user's actions with Lift);
// pending appeals (grant, deny); team staff actions awaiting review (uphold, revert).

function Button({ label, fields, action }: { label: string; fields: Record<string, string>; action: (form: FormData) => Promise<void> }) {
  return (
    <form action={action}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" style={styles.secondary}>
        {label}
      </button>
    </form>
  );
}

async function safely<T>(read: (cursor?: string) => Promise<T>, cursor?: string): Promise<T> {
  try {
    return await read(cursor);
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return read(); // a stale or malformed cursor: start again
  }
}

async function ActionsPanel({ userId }: { userId: string }) {
  const { actions } = await userModerationActions(db, userId, { limit: 50 });
  return (
    <section aria-label="Moderation actions" data-user={userId}>
      <h3>
        Actions against <code>{userId}</code>
      </h3>
      {actions.length === 0 ? <p>None.</p> : null}
      {actions.length ? (
        <ScrollTable label="Action history">
          <TableHead columns={["Since", "Kind", "Until", "Reason", "By", "Appeal", "Status", ""]} />
          <tbody>
            {actions.map((a) => (
              <tr key={a.id} data-action={a.id}>
                <td style={styles.td}>{when(a.createdAt)}</td>
                <td style={styles.td}>{KIND_LABEL[a.kind]}</td>
                <td style={styles.td}>{when(a.endsAt)}</td>
                <td style={styles.td}>{a.reason}</td>
                <td style={styles.td}>
                  <code>{a.staffId}</code>
                  {a.teamId ? ` (team ${a.teamId})` : ""}
                </td>
                <td style={styles.td}>{a.appeal ? a.appeal.status : "—"}</td>
                <td style={styles.td} data-testid="action-status">
                  {a.liftedAt ? `Lifted ${when(a.liftedAt)}` : a.active ? "Active" : "Ended"}
                </td>
                <td style={styles.td}>{a.liftedAt ? null : <Button label="Lift" action={liftSanctionAction} fields={{ actionId: a.id, userId }} />}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
    </section>
  );
}

export default async function AccountModerationPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/moderation/accounts", "moderation");
  const sp = await searchParams;
  const done = first(sp.done);
  const error = first(sp.error);
  const user = first(sp.user);
  const userId = user && UUID_PATTERN.test(user) ? user.toLowerCase() : undefined;
  const [reports, appeals, reviews] = await Promise.all([
    safely((cursor) => accountReportQueue(db, { cursor, limit: 50 }), first(sp.reports)),
    safely((cursor) => appealQueue(db, { cursor, limit: 50 }), first(sp.appeals)),
    safely((cursor) => reviewQueue(db, { cursor, limit: 50 }), first(sp.reviews)),
  ]);

  return (
    <>
      <h1>Reports, sanctions and appeals</h1>
      <p>
        <a href="/admin/moderation">Reported posts and comments</a>
      </p>
      {done && ACCOUNT_DONE[done] ? <Notice>{ACCOUNT_DONE[done]}</Notice> : null}
      {error ? <Notice kind="error">{`${ACCOUNT_ERRORS[error] ?? ACCOUNT_ERRORS.invalid} Nothing changed.`}</Notice> : null}

      <h2>Appeals</h2>
      {appeals.appeals.length === 0 ? <p>No pending appeals.</p> : null}
      {appeals.appeals.length ? (
        <ScrollTable label="Pending appeals">
          <TableHead columns={["Appealed", "User", "Action", "Appeal", ""]} />
          <tbody>
            {appeals.appeals.map((a) => (
              <tr key={a.id} data-appeal={a.id}>
                <td style={styles.td}>{when(a.createdAt)}</td>
                <td style={styles.td}>
                  <a href={`/admin/moderation/accounts?user=${a.userId}`}>
                    <code>{a.userId}</code>
                  </a>
                </td>
                <td style={styles.td}>
                  {KIND_LABEL[a.action.kind]}: {a.action.reason}
                  {a.action.hiddenPosts.length + a.action.hiddenComments.length
                    ? ` (hides ${a.action.hiddenPosts.length} posts, ${a.action.hiddenComments.length} comments)`
                    : ""}
                </td>
                <td style={styles.td} data-testid="appeal-text">
                  {a.text}
                </td>
                <td style={{ ...styles.td, display: "flex", gap: 8 }}>
                  <Button label="Grant" action={decideAppealAction} fields={{ appealId: a.id, decision: "grant" }} />
                  <Button label="Deny" action={decideAppealAction} fields={{ appealId: a.id, decision: "deny" }} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
      {appeals.nextCursor ? <a href={`/admin/moderation/accounts?appeals=${encodeURIComponent(appeals.nextCursor)}`}>More appeals</a> : null}

      <h2>Team staff actions to review</h2>
      {reviews.actions.length === 0 ? <p>Nothing to review.</p> : null}
      {reviews.actions.length ? (
        <ScrollTable label="Team staff actions">
          <TableHead columns={["When", "Team", "Against", "Reason", "Comments", ""]} />
          <tbody>
            {reviews.actions.map((a) => (
              <tr key={a.id} data-review={a.id}>
                <td style={styles.td}>{when(a.createdAt)}</td>
                <td style={styles.td}>{a.teamId}</td>
                <td style={styles.td}>
                  <code>{a.userId}</code>
                </td>
                <td style={styles.td}>{a.reason}</td>
                <td style={styles.td}>
                  {a.hiddenComments.map((c) => (
                    <a key={c} href={`/admin/moderation?comment=${c}`}>
                      <code>{c}</code>
                    </a>
                  ))}
                </td>
                <td style={{ ...styles.td, display: "flex", gap: 8 }}>
                  <Button label="Uphold" action={reviewTeamAction} fields={{ actionId: a.id, decision: "uphold" }} />
                  <Button label="Revert" action={reviewTeamAction} fields={{ actionId: a.id, decision: "revert" }} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
      {reviews.nextCursor ? <a href={`/admin/moderation/accounts?reviews=${encodeURIComponent(reviews.nextCursor)}`}>More to review</a> : null}

      <h2>Reports of users, listings and binders</h2>
      {reports.reports.length === 0 ? <p>No open reports.</p> : null}
      {reports.reports.length ? (
        <ScrollTable label="Open reports">
          <TableHead columns={["Reported", "Target", "Reason", "Note", ""]} />
          <tbody>
            {reports.reports.map((r) => (
              <tr key={r.id} data-report={r.id} data-target={r.target.id}>
                <td style={styles.td}>{when(r.createdAt)}</td>
                <td style={styles.td}>
                  {r.target.type}{" "}
                  {r.target.type === "user" ? (
                    <a href={`/admin/moderation/accounts?user=${r.target.id}`}>
                      <code>{r.target.id}</code>
                    </a>
                  ) : (
                    <code>{r.target.id}</code>
                  )}
                </td>
                <td style={styles.td}>{r.reason}</td>
                <td style={styles.td}>{r.note ?? "—"}</td>
                <td style={{ ...styles.td, display: "flex", gap: 8 }}>
                  <Button label="Actioned" action={resolveReportsAction} fields={{ kind: r.target.type, id: r.target.id, resolution: "actioned" }} />
                  <Button label="Dismiss" action={resolveReportsAction} fields={{ kind: r.target.type, id: r.target.id, resolution: "dismissed" }} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
      {reports.nextCursor ? <a href={`/admin/moderation/accounts?reports=${encodeURIComponent(reports.nextCursor)}`}>More reports</a> : null}

      <h2>Sanctions</h2>
      <form action={imposeAction} aria-label="Impose a sanction" style={styles.form}>
        <Field label="User id" name="userId" required defaultValue={userId ?? ""} width={320} />
        <Select name="kind" label="Sanction" options={SANCTION_KINDS} defaultValue="posting" />
        <Field label="Hours" name="hours" type="number" min={1} max={SANCTION_HOURS_MAX} required defaultValue={24} width={100} />
        <Field label="Reason" name="reason" required maxLength={SUSPENSION_REASON_MAX} minWidth={300} />
        <button type="submit" style={styles.button}>
          Impose
        </button>
      </form>
      <form method="get" action="/admin/moderation/accounts" aria-label="Look up actions" style={styles.form}>
        <Field label="Actions against user id" name="user" required defaultValue={userId ?? ""} width={320} />
        <button type="submit" style={styles.secondary}>
          Show
        </button>
      </form>
      {userId ? <ActionsPanel userId={userId} /> : null}
    </>
  );
}
