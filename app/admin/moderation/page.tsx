import { db } from "@/lib/db/client";
import { DomainError } from "@/lib/kernel/errors";
import { UUID_PATTERN } from "@/lib/kernel/schemas";
import { snapshots, type Snapshot } from "@/lib/features/moderation/queries";
import { moderationQueue, targetReports, userSuspensions } from "@/lib/features/moderation/service";
import { dismissAction, hideAction, liftAction, restoreAction, suspendAction } from "./actions";
import { requireStaff } from "../_lib/gate";
import { Field, first, Notice, styles, type SearchParams, TableHead, when, ScrollTable } from "../_lib/ui";
import { MODERATION_DONE, MODERATION_ERRORS } from "./shared";
import { SUSPENSION_HOURS_MAX, SUSPENSION_REASON_MAX } from "@/lib/features/moderation/schemas";

// The moderation queue (reported posts and comments, oldest open report first), one target's reports (after acting
// on it, or by ?post= / ?comment=), and posting suspensions (suspend; a user's history with Lift).

const uuidParam = (v: string | string[] | undefined) => {
  const s = first(v);
  return s && UUID_PATTERN.test(s) ? s.toLowerCase() : undefined;
};

const reasonsText = (reasons: Record<string, number>) =>
  Object.entries(reasons)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reason, n]) => `${reason} ×${n}`)
    .join(", ");

function TargetButtons({ kind, id, hidden, dismiss = true }: { kind: "post" | "comment"; id: string; hidden: boolean; dismiss?: boolean }) {
  const inputs = (
    <>
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={id} />
    </>
  );
  return (
    <div style={{ display: "flex", gap: 8 }}>
      <form action={hidden ? restoreAction : hideAction}>
        {inputs}
        <button type="submit" style={styles.secondary}>
          {hidden ? "Restore" : "Hide"}
        </button>
      </form>
      {dismiss ? (
        <form action={dismissAction}>
          {inputs}
          <button type="submit" style={styles.secondary}>
            Dismiss
          </button>
        </form>
      ) : null}
    </div>
  );
}

function ContentCell({ snap, kind }: { snap: Pick<Snapshot, "content" | "mediaCount" | "hiddenAt" | "deletedAt" | "handle" | "authorId">; kind: string }) {
  return (
    <>
      <div data-testid="content" style={{ whiteSpace: "pre-wrap" }}>
        {snap.content || <em>(no text)</em>}
      </div>
      <div style={{ ...styles.muted, fontSize: 13 }}>
        {kind} by {snap.handle ? `@${snap.handle}` : <code>{snap.authorId}</code>}
        {snap.mediaCount ? ` · ${snap.mediaCount} media` : ""}
        {snap.deletedAt ? ` · deleted ${when(snap.deletedAt)}` : ""}
        <span data-testid="target-state">{snap.hiddenAt ? ` · hidden ${when(snap.hiddenAt)}` : ""}</span>
      </div>
    </>
  );
}

async function TargetPanel({ kind, id }: { kind: "post" | "comment"; id: string }) {
  const [snap] = await snapshots(db, kind === "post" ? [id] : [], kind === "comment" ? [id] : []);
  if (!snap) return <Notice kind="error">{`No such ${kind}.`}</Notice>;
  const { reports } = await targetReports(db, { ...(kind === "post" ? { postId: id } : { commentId: id }), limit: 50 });
  return (
    <section aria-label="Target" data-target={id} style={{ border: "1px solid #ddd", borderRadius: 6, padding: "8px 16px", margin: "16px 0" }}>
      <h2>
        {kind === "post" ? "Post" : "Comment"} <code>{id}</code>
      </h2>
      <ContentCell snap={{ ...snap, authorId: snap.authorId }} kind={kind} />
      <p data-testid="visibility">{snap.hiddenAt ? "Hidden" : "Visible"}</p>
      <TargetButtons kind={kind} id={id} hidden={snap.hiddenAt !== null} />
      <h3>Reports ({reports.length})</h3>
      {reports.length ? (
        <ScrollTable label="Reports of this target">
          <TableHead columns={["Reported", "Reason", "Note", "Status"]} />
          <tbody>
            {reports.map((r) => (
              <tr key={r.id} data-report={r.id}>
                <td style={styles.td}>{when(r.createdAt)}</td>
                <td style={styles.td}>{r.reason}</td>
                <td style={styles.td}>{r.note ?? "—"}</td>
                <td style={styles.td} data-testid="report-status">
                  {r.resolution ? `${r.resolution} ${when(r.resolvedAt)}` : "open"}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
    </section>
  );
}

async function SuspensionsPanel({ userId }: { userId: string }) {
  const { suspensions } = await userSuspensions(db, { userId, limit: 50 });
  return (
    <section aria-label="Suspensions" data-user={userId}>
      <h3>
        Suspensions of <code>{userId}</code>
      </h3>
      {suspensions.length === 0 ? <p>None.</p> : null}
      {suspensions.length ? (
        <ScrollTable label="Suspension history">
          <TableHead columns={["Since", "Until", "Reason", "By", "Status", ""]} />
          <tbody>
            {suspensions.map((s) => (
              <tr key={s.id} data-suspension={s.id}>
                <td style={styles.td}>{when(s.createdAt)}</td>
                <td style={styles.td}>{when(s.until)}</td>
                <td style={styles.td}>{s.reason}</td>
                <td style={styles.td}>
                  <code>{s.staffId}</code>
                </td>
                <td style={styles.td} data-testid="suspension-status">
                  {s.active ? "Active" : s.liftedAt ? `Lifted ${when(s.liftedAt)}` : "Ended"}
                </td>
                <td style={styles.td}>
                  {s.active ? (
                    <form action={liftAction}>
                      <input type="hidden" name="suspensionId" value={s.id} />
                      <input type="hidden" name="userId" value={userId} />
                      <button type="submit" style={styles.secondary}>
                        Lift
                      </button>
                    </form>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
    </section>
  );
}

export default async function ModerationPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/moderation", "moderation");
  const sp = await searchParams;
  const done = first(sp.done);
  const error = first(sp.error);
  const postId = uuidParam(sp.post);
  const commentId = uuidParam(sp.comment);
  const userId = uuidParam(sp.user);
  let queue: Awaited<ReturnType<typeof moderationQueue>>;
  try {
    queue = await moderationQueue(db, { cursor: first(sp.cursor), limit: 50 });
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    queue = await moderationQueue(db, { limit: 50 }); // a stale or malformed cursor: start again
  }

  return (
    <>
      <h1>Moderation</h1>
      <p>
        <a href="/admin/moderation/accounts">Reports of users, listings and binders; sanctions; appeals</a>
      </p>
      {done && MODERATION_DONE[done] ? <Notice>{MODERATION_DONE[done]}</Notice> : null}
      {error ? <Notice kind="error">{`${MODERATION_ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}

      {postId ? <TargetPanel kind="post" id={postId} /> : commentId ? <TargetPanel kind="comment" id={commentId} /> : null}

      <h2>Queue</h2>
      <p style={styles.muted}>
        Posts and comments with open reports, the oldest open report first. Hide resolves the reports; Dismiss closes them and keeps the content.
      </p>
      {queue.items.length === 0 ? <p>Nothing to review.</p> : null}
      {queue.items.length ? (
        <ScrollTable label="Moderation queue">
          <TableHead columns={["Content", "Open reports", "Latest reports", "Actions"]} />
          <tbody>
            {queue.items.map((item) => {
              const id = item.target.commentId ?? item.target.postId;
              return (
                <tr key={id} data-target={id} data-kind={item.target.type}>
                  <td style={styles.td}>
                    <ContentCell
                      snap={{
                        content: item.content.content,
                        mediaCount: item.content.mediaCount,
                        hiddenAt: item.content.hiddenAt ? new Date(item.content.hiddenAt) : null,
                        deletedAt: item.content.deletedAt ? new Date(item.content.deletedAt) : null,
                        handle: item.content.author.handle,
                        authorId: item.content.author.id,
                      }}
                      kind={item.target.type}
                    />
                    <a href={`/admin/moderation?${item.target.type}=${id}`} style={{ fontSize: 13 }}>
                      All reports
                    </a>
                  </td>
                  <td style={styles.td}>
                    <strong data-testid="open-reports">{item.openReports}</strong>
                    <div data-testid="reasons">{reasonsText(item.reasons)}</div>
                    <div style={{ ...styles.muted, fontSize: 13 }}>
                      first {when(item.firstReportedAt)}
                      <br />
                      last {when(item.lastReportedAt)}
                    </div>
                  </td>
                  <td style={styles.td}>
                    <ul style={{ margin: 0, paddingLeft: 18 }}>
                      {item.latestReports.map((r) => (
                        <li key={r.id}>
                          {r.reason}
                          {r.note ? `: ${r.note}` : ""}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td style={styles.td}>
                    <TargetButtons kind={item.target.type} id={id} hidden={item.content.hiddenAt !== null} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </ScrollTable>
      ) : null}
      {queue.nextCursor ? (
        <p>
          <a href={`/admin/moderation?cursor=${encodeURIComponent(queue.nextCursor)}`}>Next page</a>
        </p>
      ) : null}

      <h2>Posting suspensions</h2>
      <form action={suspendAction} aria-label="Suspend a user" style={styles.form}>
        <Field label="User id" name="userId" required defaultValue={userId ?? ""} width={320} />
        <Field label="Hours" name="hours" type="number" min={1} max={SUSPENSION_HOURS_MAX} required defaultValue={24} width={100} />
        <Field label="Reason" name="reason" required maxLength={SUSPENSION_REASON_MAX} minWidth={300} />
        <button type="submit" style={styles.button}>
          Suspend
        </button>
      </form>
      <form method="get" action="/admin/moderation" aria-label="Look up suspensions" style={styles.form}>
        <Field label="Suspensions of user id" name="user" required defaultValue={userId ?? ""} width={320} />
        <button type="submit" style={styles.secondary}>
          Show
        </button>
      </form>
      {userId ? <SuspensionsPanel userId={userId} /> : null}
    </>
  );
}
