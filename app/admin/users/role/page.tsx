import { externalIdSchema } from "@/lib/operations/admin/schemas";
import { lookupUsers } from "@/lib/operations/admin/service";
import { db } from "@/lib/db/client";
import { changeRole } from "../../actions";
import { STAFF_ROLES } from "@/lib/auth/roles";
import { requireStaff } from "../../_lib/gate";
import { first, Notice, styles, type SearchParams } from "../../_lib/ui";

// The confirmation step of a staff-role change: a grant or revoke is never one click. The staff member reads who
// the change is for and types that user's id; the server action refuses the change unless the typed id matches.

export default async function ConfirmRolePage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/users", "admin");
  const sp = await searchParams;
  const target = externalIdSchema.safeParse(first(sp.user) ?? "");
  // `role` (a staff role or "none"), or the older `grant` (1: admin, 0: none).
  const asked = first(sp.role) ?? (first(sp.grant) === "1" ? "admin" : "none");
  const role = (STAFF_ROLES as readonly string[]).includes(asked) ? asked : "none";
  const grant = role !== "none";
  const q = (first(sp.q) ?? "").slice(0, 200);
  const back = `/admin/users${q ? `?${new URLSearchParams({ q })}` : ""}`;
  const user = target.success ? (await lookupUsers(db, target.data)).find((u) => u.externalId === target.data) : undefined;
  if (!target.success || !user) {
    return (
      <>
        <h1>Change staff role</h1>
        <Notice kind="error">No such user.</Notice>
        <p>
          <a href={back}>Back to users</a>
        </p>
      </>
    );
  }
  const button = role === "admin" ? "Grant admin" : grant ? `Grant ${role}` : "Revoke admin";
  return (
    <>
      <h1>{grant ? `Grant the ${role} role` : "Revoke the staff role"}</h1>
      {first(sp.error) === "confirm" ? <Notice kind="error">The user id you typed does not match; nothing changed.</Notice> : null}
      <p>
        {role === "admin"
          ? "Admins can open every console page, archive teams, run syncs and change anyone's role, including yours. "
          : grant
            ? `The ${role} role opens its own console pages and staff API routes (see docs/domains/console.md). `
            : "They lose access to this console at their next session refresh. "}
        This is for:
      </p>
      <dl style={{ display: "grid", gridTemplateColumns: "max-content 1fr", gap: "4px 16px" }}>
        <dt>User id</dt>
        <dd style={{ margin: 0 }}>
          <code data-testid="confirm-user">{user.externalId}</code>
        </dd>
        <dt>Handle</dt>
        <dd style={{ margin: 0 }}>{user.handle ? `@${user.handle}` : "—"}</dd>
        <dt>Email</dt>
        <dd style={{ margin: 0 }}>{user.email ?? "—"}</dd>
      </dl>
      <form action={changeRole} style={styles.form}>
        <input type="hidden" name="externalId" value={user.externalId} />
        <input type="hidden" name="role" value={role} />
        <input type="hidden" name="q" value={q} />
        <label style={styles.label}>
          Type the user id to confirm
          <input name="confirm" required autoComplete="off" spellCheck={false} style={{ ...styles.input, minWidth: 320 }} />
        </label>
        <button type="submit" style={styles.button}>
          {button}
        </button>
        <a href={back}>Cancel</a>
      </form>
    </>
  );
}
