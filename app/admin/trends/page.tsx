import { db } from "@/lib/db/client";
import { TREND_STATUSES, TRENDS_WINDOW_HOURS, type TrendStatus } from "@/lib/features/tags/schemas";
import { adminTrends } from "@/lib/features/tags/service";
import { requireStaff } from "../_lib/gate";
import { Confirm, first, Notice, type SearchParams, styles, TableHead, when, ScrollTable } from "../_lib/ui";
import { reviewTagAction } from "./actions";

// Trend review (lib/features/tags): the tags in one review state with their counts over the trends' window, most used first;
// approving or rejecting one needs the confirmation box and is written with its audit entry. Only approved tags trend.

const DONE: Record<string, string> = {
  approved: "Tag approved: it may trend.",
  rejected: "Tag rejected: it never trends.",
  pending: "Tag sent back to review.",
};
const ERRORS: Record<string, string> = { confirm: "Tick the confirmation box.", invalid: "That tag or state is not valid.", NOT_FOUND: "No such tag." };

function ReviewForm({ tag, status, from }: { tag: string; status: TrendStatus; from: TrendStatus }) {
  const verb = status === "approved" ? "Approve" : status === "rejected" ? "Reject" : "Back to pending";
  return (
    <form action={reviewTagAction} style={{ ...styles.form, margin: 0 }} aria-label={`${verb} #${tag}`}>
      <input type="hidden" name="tag" value={tag} />
      <input type="hidden" name="status" value={status} />
      <input type="hidden" name="from" value={from} />
      <Confirm />
      <button type="submit" style={styles.secondary}>
        {verb}
      </button>
    </form>
  );
}

export default async function TrendsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/trends", "admin");
  const sp = await searchParams;
  const wanted = first(sp.status);
  const status: TrendStatus = TREND_STATUSES.includes(wanted as TrendStatus) ? (wanted as TrendStatus) : "pending";
  const done = first(sp.done);
  const error = first(sp.error);
  const { tags } = await adminTrends(db, { status, limit: 100 });
  const actions = TREND_STATUSES.filter((s) => s !== status);

  return (
    <>
      <h1>Trends</h1>
      {done && DONE[done] ? <Notice>{DONE[done]}</Notice> : null}
      {error ? <Notice kind="error">{`${ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}
      <p style={styles.muted}>
        Hashtags trend only once approved here. Counts cover the last {TRENDS_WINDOW_HOURS} hours: distinct fans who used the tag in public, live posts and
        comments on them. Pending tags are listed when used in that window.
      </p>
      <nav aria-label="Review state" style={{ display: "flex", gap: 16, margin: "8px 0 16px" }}>
        {TREND_STATUSES.map((s) =>
          s === status ? (
            <strong key={s}>{s}</strong>
          ) : (
            <a key={s} href={`/admin/trends?status=${s}`}>
              {s}
            </a>
          ),
        )}
      </nav>
      {tags.length === 0 ? (
        <p>No {status} tags.</p>
      ) : (
        <ScrollTable label={`${status} tags`}>
          <TableHead columns={["Tag", "Fans", "Posts", "Reviewed", "Actions"]} />
          <tbody>
            {tags.map((t) => (
              <tr key={t.tag} data-tag={t.tag}>
                <th scope="row" style={styles.rowHead}>
                  #{t.name} {t.name !== t.tag ? <code style={styles.muted}>({t.tag})</code> : null}
                </th>
                <td style={styles.td} data-count="fans">
                  {t.fans}
                </td>
                <td style={styles.td} data-count="posts">
                  {t.posts}
                </td>
                <td style={styles.td}>{t.reviewedAt ? `${when(t.reviewedAt)} by ${t.reviewedBy ?? "—"}` : "—"}</td>
                <td style={styles.td}>
                  {actions.map((a) => (
                    <ReviewForm key={a} tag={t.tag} status={a} from={status} />
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </>
  );
}
