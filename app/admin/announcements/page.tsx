import { db } from "@/lib/db/client";
import { listRecentAnnouncements } from "@/lib/features/announcements/service";
import { requireStaff } from "../_lib/gate";
import { Confirm, Field, first, Notice, type SearchParams, styles, TableHead, TextArea, when, ScrollTable } from "../_lib/ui";
import { createAnnouncementAction, endAnnouncementAction } from "./actions";

// Announcements (lib/features/announcements): the latest 100 of any status, creating one and ending one now, each confirmed
// and audited (announcement.create, announcement.end).

const ERRORS: Record<string, string> = {
  confirm: "Tick the confirmation box to save.",
  title: "Enter a title (1-120 characters).",
  body: "Enter a message (1-2,000 characters).",
  linkUrl: "The link must be an https URL.",
  startsAt: "The start is a UTC time, at most a year ahead.",
  endsAt: "The end must be after the start, in the future, at most a year ahead (UTC).",
  VALIDATION_ERROR: "The start must be at most a year ahead; the end after it, in the future, at most a year ahead.",
  NOT_FOUND: "No such announcement.",
};
const DONE: Record<string, string> = { created: "Announcement created.", ended: "Announcement ended: fans no longer see it." };

export default async function AnnouncementsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/announcements", "admin");
  const sp = await searchParams;
  const done = first(sp.done);
  const error = first(sp.error);
  const { announcements } = await listRecentAnnouncements(db, 100);

  return (
    <>
      <h1>Announcements</h1>
      {done && DONE[done] ? <Notice>{DONE[done]}</Notice> : null}
      {error ? <Notice kind="error">{`${ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}
      <p style={styles.muted}>Every fan sees a running announcement (GET /api/v1/announcements) until it ends or they dismiss it. Times are UTC.</p>

      {announcements.length === 0 ? (
        <p>No announcement yet.</p>
      ) : (
        <ScrollTable label="Announcements">
          <TableHead columns={["Title", "Message", "Status", "Starts", "Ends", "End now"]} />
          <tbody>
            {announcements.map((a) => (
              <tr key={a.id} data-announcement={a.id}>
                <th scope="row" style={styles.rowHead}>
                  {a.title}
                </th>
                <td style={styles.td}>
                  {a.body}
                  {a.linkUrl ? (
                    <>
                      {" "}
                      <a href={a.linkUrl} rel="noreferrer noopener">
                        link
                      </a>
                    </>
                  ) : null}
                </td>
                <td style={styles.td} data-testid="status">
                  {a.status}
                </td>
                <td style={styles.td}>{when(a.startsAt)}</td>
                <td style={styles.td}>{a.endsAt ? when(a.endsAt) : "until ended"}</td>
                <td style={styles.td}>
                  {a.status === "ended" ? (
                    "—"
                  ) : (
                    <form action={endAnnouncementAction} aria-label={`End ${a.title}`} style={{ ...styles.form, margin: 0 }}>
                      <input type="hidden" name="announcementId" value={a.id} />
                      <Confirm />
                      <button type="submit" style={styles.secondary}>
                        End now
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}

      <h2>Create an announcement</h2>
      <form action={createAnnouncementAction} aria-label="Create an announcement" style={styles.form}>
        <Field label="Title" name="title" required maxLength={120} />
        <TextArea label="Message" name="body" required maxLength={2000} rows={3} width={320} />
        <Field label="Link (https, optional)" name="linkUrl" type="url" />
        <Field label="Starts (UTC, empty: now)" name="startsAt" type="datetime-local" />
        <Field label="Ends (UTC, empty: until ended)" name="endsAt" type="datetime-local" />
        <Confirm />
        <button type="submit" style={styles.button}>
          Create announcement
        </button>
      </form>
    </>
  );
}
