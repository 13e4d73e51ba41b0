import type { ReactNode } from "react";
import type { ConsoleFan } from "@/lib/operations/admin/service";
import { FAN_SECTION_ROWS } from "@/lib/operations/admin/queries";
import { ScrollTable, styles, TableHead, when } from "../../_lib/ui";

// The fan page's building blocks (Section, Rows) and its account-side sections: moderation, devices, sign-ins and
// the audit entries about the fan (page.tsx composes them).

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-h`} id={id} style={{ marginTop: 28 }}>
      <h2 id={`${id}-h`} style={{ fontSize: 20 }}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A table of rows, or a line saying there are none; `newest` notes that only the newest rows are shown. */
export function Rows<T>({
  label,
  columns,
  rows,
  row,
  newest = true,
}: {
  label: string;
  columns: string[];
  rows: T[];
  row: (r: T) => ReactNode;
  newest?: boolean;
}) {
  if (!rows.length) return <p style={styles.muted}>None.</p>;
  return (
    <>
      <ScrollTable label={label}>
        <TableHead columns={columns} />
        <tbody>{rows.map(row)}</tbody>
      </ScrollTable>
      {newest && rows.length >= FAN_SECTION_ROWS ? <p style={{ ...styles.muted, fontSize: 13 }}>The newest {FAN_SECTION_ROWS} are shown.</p> : null}
    </>
  );
}

export const td = styles.td;

export function Moderation({ fan }: { fan: ConsoleFan }) {
  return (
    <>
      <Section id="reports" title="Reports filed and received">
        <Rows
          label="Reports"
          columns={["When", "Direction", "Reason", "About", "Resolved"]}
          rows={fan.reports}
          row={(r) => (
            <tr key={r.id}>
              <th scope="row" style={styles.rowHead}>
                {when(r.createdAt)}
              </th>
              <td style={td}>{r.direction}</td>
              <td style={td}>{r.reason}</td>
              <td style={td}>
                <code>{r.target}</code>
              </td>
              <td style={td}>{r.resolvedAt ? `${when(r.resolvedAt)} ${r.resolution ?? ""}` : "open"}</td>
            </tr>
          )}
        />
      </Section>
      <Section id="sanctions" title="Sanctions and appeals">
        <Rows
          label="Sanctions"
          columns={["When", "Kind", "Reason", "Ends", "Lifted", "Appeal"]}
          rows={fan.sanctions}
          row={(a) => (
            <tr key={a.id}>
              <th scope="row" style={styles.rowHead}>
                {when(a.createdAt)}
              </th>
              <td style={td}>{a.kind}</td>
              <td style={td}>{a.reason}</td>
              <td style={td}>{when(a.endsAt)}</td>
              <td style={td}>{when(a.liftedAt)}</td>
              <td style={td}>{a.appealStatus ? `${a.appealStatus}: ${a.appealText ?? ""}` : "—"}</td>
            </tr>
          )}
        />
        <p style={{ fontSize: 13 }}>
          <a href="/admin/moderation/accounts">Account moderation</a>
        </p>
      </Section>
    </>
  );
}

export function Devices({ fan }: { fan: ConsoleFan }) {
  return (
    <>
      <Section id="devices" title="Devices">
        <Rows
          label="Devices"
          columns={["Registered", "Platform", "Provider", "App", "Locale", "Updated"]}
          rows={fan.devices}
          row={(d) => (
            <tr key={d.id}>
              <th scope="row" style={styles.rowHead}>
                {when(d.createdAt)}
              </th>
              <td style={td}>{d.platform}</td>
              <td style={td}>{d.provider}</td>
              <td style={td}>{d.appVersion ?? "—"}</td>
              <td style={td}>{d.locale ?? "—"}</td>
              <td style={td}>{when(d.updatedAt)}</td>
            </tr>
          )}
        />
      </Section>
      <Section id="exports" title="Data exports">
        <Rows
          label="Data exports"
          columns={["Requested", "Status", "Ready", "Expires", "Size", "Error"]}
          rows={fan.exports}
          row={(x) => (
            <tr key={x.id}>
              <th scope="row" style={styles.rowHead}>
                {when(x.createdAt)}
              </th>
              <td style={td}>{x.status}</td>
              <td style={td}>{when(x.readyAt)}</td>
              <td style={td}>{when(x.expiresAt)}</td>
              <td style={td}>{x.sizeBytes === null ? "—" : `${x.sizeBytes} bytes`}</td>
              <td style={td}>{x.lastError ?? ""}</td>
            </tr>
          )}
        />
        <p style={{ fontSize: 13 }}>
          Deletion state: see the profile above · <a href="/admin/deletions">Deletions</a>
        </p>
      </Section>
    </>
  );
}

export function SignIns({ fan }: { fan: ConsoleFan }) {
  const s = fan.signIns;
  return (
    <Section id="sign-ins" title="Last sign-ins (identity provider)">
      {s.state === "unavailable" ? <p role="status">The identity provider could not be reached; try again later.</p> : null}
      {s.state === "none" ? <p style={styles.muted}>The development identity provider records no sign-ins.</p> : null}
      {s.state === "ok" ? (
        <Rows
          label="Sign-ins"
          columns={["Signed in", "Last active", "Status", "Address", "Place", "Client"]}
          rows={s.list}
          row={(x) => (
            <tr key={x.sessionId}>
              <th scope="row" style={styles.rowHead}>
                {when(x.createdAt)}
              </th>
              <td style={td}>{when(x.lastActiveAt)}</td>
              <td style={td}>{x.status}</td>
              <td style={td}>{x.ipAddress ?? "—"}</td>
              <td style={td}>{x.location ?? "—"}</td>
              <td style={td}>{x.client ?? "—"}</td>
            </tr>
          )}
        />
      ) : null}
    </Section>
  );
}

export function Audit({ fan, self }: { fan: ConsoleFan; self: string }) {
  const a = fan.audit;
  return (
    <Section id="audit" title="Audit log about this fan">
      <Rows
        label="Audit entries"
        newest={false}
        columns={["When", "Action", "By", "Before", "After", "Note"]}
        rows={a.rows}
        row={(e) => (
          <tr key={e.id} data-audit={e.action}>
            <th scope="row" style={styles.rowHead}>
              {when(e.createdAt)}
            </th>
            <td style={td}>
              <code>{e.action}</code>
            </td>
            <td style={td}>
              <code>{e.actorId}</code> ({e.actorRole})
            </td>
            <td style={td}>
              <code style={{ fontSize: 12 }}>{e.before ? JSON.stringify(e.before) : ""}</code>
            </td>
            <td style={td}>
              <code style={{ fontSize: 12 }}>{e.after ? JSON.stringify(e.after) : ""}</code>
            </td>
            <td style={td}>{e.note ?? ""}</td>
          </tr>
        )}
      />
      <p style={{ fontSize: 13 }}>
        {a.paged ? <a href={`${self}#audit`}>Newest</a> : null}
        {a.paged && a.nextCursor ? " · " : null}
        {a.nextCursor ? <a href={`${self}?${new URLSearchParams({ audit: a.nextCursor })}#audit`}>Older entries</a> : null}
      </p>
    </Section>
  );
}
