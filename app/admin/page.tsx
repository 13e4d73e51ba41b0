import { dashboardCounts } from "@/lib/admin/queries";
import { db } from "@/lib/db/client";
import { requireStaff } from "./_lib/gate";
import { Stat, when } from "./_lib/ui";

export default async function Dashboard() {
  await requireStaff("/admin", "staff");
  const c = await dashboardCounts(db);
  return (
    <>
      <h1>Dashboard</h1>
      <dl aria-label="Counts" style={{ display: "flex", gap: 16, flexWrap: "wrap", margin: "16px 0" }}>
        <Stat label="Users" value={c.users} testId="count-users" />
        <Stat label="Leagues" value={c.leagues} testId="count-leagues" />
        <Stat label="Live teams" value={c.liveTeams} testId="count-live-teams" />
        <Stat label="Archived teams" value={c.archivedTeams} testId="count-archived-teams" />
      </dl>
      <h2>Last sync run</h2>
      {c.lastSync ? (
        <p data-testid="last-sync">
          <a href={`/admin/sync/${c.lastSync.id}`}>
            {c.lastSync.scope} sync, {c.lastSync.status}
          </a>{" "}
          — started {when(c.lastSync.startedAt)} by {c.lastSync.actor ?? c.lastSync.trigger}
          {c.lastSync.finishedAt ? `, finished ${when(c.lastSync.finishedAt)}` : ""}
        </p>
      ) : (
        <p data-testid="last-sync">
          No sync has run yet. <a href="/admin/sync">Run one</a>.
        </p>
      )}
    </>
  );
}
