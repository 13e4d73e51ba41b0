import { leagueOptions, searchConsoleTeams, teamName, TEAM_SEARCH_LIMIT } from "@/lib/operations/admin/queries";
import { teamSearchSchema } from "@/lib/operations/admin/schemas";
import { db } from "@/lib/db/client";
import { archiveTeam, restoreTeam } from "../actions";
import { requireStaff } from "../_lib/gate";
import { Field, first, InlineCheck, LabelledSelect, Notice, styles, when, type SearchParams, TableHead, ScrollTable } from "../_lib/ui";

const ERRORS: Record<string, string> = { invalid: "That request was not valid.", missing: "No such team." };

export default async function TeamsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/teams", "admin");
  const sp = await searchParams;
  const search = teamSearchSchema.catch({ q: "", league: "", archived: undefined }).parse({
    q: first(sp.q),
    league: first(sp.league),
    archived: first(sp.archived),
  });
  const [{ teams, total }, leagues] = await Promise.all([searchConsoleTeams(db, search), leagueOptions(db)]);
  const done = first(sp.done);
  const doneTeam = first(sp.team);
  const error = first(sp.error);
  // The team just changed may be hidden by the current filter (archived teams are): read its name.
  const doneName = doneTeam ? (teams.find((t) => t.id === doneTeam)?.name ?? (await teamName(db, doneTeam)) ?? doneTeam) : "";

  const keep = (
    <>
      <input type="hidden" name="q" value={search.q} />
      <input type="hidden" name="league" value={search.league} />
      {search.archived ? <input type="hidden" name="archived" value="1" /> : null}
    </>
  );

  return (
    <>
      <h1>Teams</h1>
      {done === "archived" || done === "restored" ? <Notice>{`${doneName} ${done}.`}</Notice> : null}
      {error ? <Notice kind="error">{ERRORS[error] ?? "Something went wrong."}</Notice> : null}
      <form method="get" role="search" aria-label="Search teams" style={styles.form}>
        <Field label="Name or slug" name="q" type="search" defaultValue={search.q} />
        <LabelledSelect
          name="league"
          label="League"
          options={[{ value: "", label: "All leagues" }, ...leagues.map((l) => ({ value: l.id, label: l.name }))]}
          defaultValue={search.league}
        />
        <InlineCheck label="Show archived" name="archived" value="1" defaultChecked={Boolean(search.archived)} />
        <button type="submit" style={styles.button}>
          Search
        </button>
      </form>
      <p style={styles.muted}>
        {total === 0
          ? "No teams match."
          : total > TEAM_SEARCH_LIMIT
            ? `Showing ${TEAM_SEARCH_LIMIT} of ${total} teams; narrow the search.`
            : `${total} team${total === 1 ? "" : "s"}.`}
      </p>
      {teams.length ? (
        <ScrollTable label="Teams">
          <TableHead columns={["Team", "Slug", "League", "Source", "Status", "Action"]} />
          <tbody>
            {teams.map((t) => (
              <tr key={t.id} data-team={t.slug}>
                <th scope="row" style={styles.rowHead}>
                  {t.name}
                </th>
                <td style={styles.td}>
                  <code>{t.slug}</code>
                </td>
                <td style={styles.td}>{t.league?.name ?? "—"}</td>
                <td style={styles.td}>{t.source}</td>
                <td style={styles.td}>{t.archivedAt ? `Archived ${when(t.archivedAt)}` : "Live"}</td>
                <td style={styles.td}>
                  <form action={t.archivedAt ? restoreTeam : archiveTeam}>
                    <input type="hidden" name="teamId" value={t.id} />
                    {keep}
                    <button type="submit" style={styles.secondary} aria-label={`${t.archivedAt ? "Restore" : "Archive"} ${t.name}`}>
                      {t.archivedAt ? "Restore" : "Archive"}
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
      <p style={{ ...styles.muted, fontSize: 13, marginTop: 16 }}>
        Archived teams disappear from every public read (lists, detail, search) at once; restoring brings them back.
      </p>
    </>
  );
}
