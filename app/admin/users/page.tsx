import { userQuerySchema } from "@/lib/operations/admin/schemas";
import { lookupUsers, type ConsoleUser } from "@/lib/operations/admin/service";
import { db } from "@/lib/db/client";
import { mayOpen, STAFF_ROLES } from "@/lib/auth/roles";
import { requireStaff } from "../_lib/gate";
import { first, Notice, ROLE_LABEL, ScrollTable, styles, when, type SearchParams, TableHead } from "../_lib/ui";

const ERRORS: Record<string, string> = {
  invalid: "That is not a valid user id.",
  self: "You cannot change your own staff role; ask another admin.",
  provider: "The identity provider refused or could not be reached; nothing changed. Try again.",
};

export default async function UsersPage({ searchParams }: { searchParams: SearchParams }) {
  const staff = await requireStaff("/admin/users", "users");
  // Only admins set roles (the role page and its action check the same).
  const isAdmin = mayOpen(staff.role, "admin");
  const sp = await searchParams;
  const parsed = userQuerySchema.safeParse(first(sp.q) ?? "");
  const q = parsed.success ? parsed.data : "";
  const users: ConsoleUser[] = q ? await lookupUsers(db, q) : [];
  const done = first(sp.done);
  const error = first(sp.error);
  const target = first(sp.user);

  return (
    <>
      <h1>Users</h1>
      {done === "granted" || done === "revoked" ? (
        <Notice>
          {`Staff role ${done} for ${target}. `}It applies at the user&apos;s next session refresh (their current session token keeps its old claims until it is
          renewed, at most about a minute with Clerk).
        </Notice>
      ) : null}
      {error ? <Notice kind="error">{ERRORS[error] ?? "Something went wrong."}</Notice> : null}
      <form method="get" role="search" aria-label="Look up users" style={styles.form}>
        <label style={styles.label}>
          Handle, email or external id
          <input name="q" type="search" required defaultValue={q} style={{ ...styles.input, minWidth: 320 }} />
        </label>
        <button type="submit" style={styles.button}>
          Look up
        </button>
      </form>
      {q && users.length === 0 ? <p>No user matches “{q}”.</p> : null}
      {users.length ? (
        <ScrollTable label="Users">
          <TableHead columns={["External id", "Handle", "Name", "Email", "Joined", "Role", "Action"]} />
          <tbody>
            {users.map((u) => (
              <tr key={u.externalId} data-user={u.externalId}>
                <th scope="row" style={styles.rowHead}>
                  {u.id ? (
                    <a href={`/admin/users/${u.id}`}>
                      <code>{u.externalId}</code>
                    </a>
                  ) : (
                    <code>{u.externalId}</code>
                  )}
                </th>
                <td style={styles.td}>{u.handle ? `@${u.handle}` : "—"}</td>
                <td style={styles.td}>{u.displayName ?? "—"}</td>
                <td style={styles.td}>{u.email ?? "—"}</td>
                <td style={styles.td}>{u.id ? when(u.createdAt) : "No account row yet"}</td>
                <td style={styles.td} data-testid="role">
                  {ROLE_LABEL[u.role]}
                </td>
                <td style={styles.td}>
                  <div style={{ display: "flex", gap: 8 }}>
                    {u.id ? (
                      <a href={`/admin/users/ledger?${new URLSearchParams({ user: u.id })}`} style={{ alignSelf: "center" }}>
                        Rep ledger
                      </a>
                    ) : null}
                    {isAdmin && u.externalId !== staff.externalId ? (
                      <form method="get" action="/admin/users/role" style={{ display: "flex", gap: 4 }}>
                        <input type="hidden" name="user" value={u.externalId} />
                        <input type="hidden" name="q" value={q} />
                        <select
                          name="role"
                          aria-label={`Staff role of ${u.externalId}`}
                          defaultValue={u.role === "fan" || u.role === "unknown" ? "none" : u.role}
                          style={styles.input}
                        >
                          {[...STAFF_ROLES, "none"].map((r) => (
                            <option key={r} value={r}>
                              {r === "none" ? "none (fan)" : r}
                            </option>
                          ))}
                        </select>
                        <button type="submit" style={styles.secondary}>
                          Set role
                        </button>
                      </form>
                    ) : null}
                    {isAdmin && u.role !== "admin" ? (
                      <form method="get" action="/admin/users/role">
                        <input type="hidden" name="user" value={u.externalId} />
                        <input type="hidden" name="grant" value="1" />
                        <input type="hidden" name="q" value={q} />
                        <button type="submit" style={styles.secondary}>
                          Grant admin
                        </button>
                      </form>
                    ) : null}
                    {isAdmin && u.role !== "fan" && u.externalId !== staff.externalId ? (
                      <form method="get" action="/admin/users/role">
                        <input type="hidden" name="user" value={u.externalId} />
                        <input type="hidden" name="grant" value="0" />
                        <input type="hidden" name="q" value={q} />
                        <button type="submit" style={styles.secondary}>
                          Revoke admin
                        </button>
                      </form>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
      <p style={{ ...styles.muted, fontSize: 13, marginTop: 16 }}>
        Roles live in the identity provider (public metadata <code>role</code>: admin, moderator, support or economy, copied into the session token). A change
        applies at the user&apos;s next session refresh, not to the session they have open now.
      </p>
    </>
  );
}
