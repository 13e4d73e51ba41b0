import { CONSOLE_QUEST_LIMIT, listConsoleQuests, passOptions, teamOptions } from "@/lib/operations/admin/queries";
import { QUEST_CADENCES, QUEST_KINDS, QUEST_SCOPES, REP_SOURCES } from "@/lib/operations/admin/schemas";
import { db } from "@/lib/db/client";
import { createQuestAction } from "./actions";
import { requireStaff } from "../_lib/gate";
import { CatalogFields, Field, first, LabelledSelect, Notice, Select, styles, when, type SearchParams, TableHead, ScrollTable } from "../_lib/ui";
import { QUEST_ERRORS, questWindow } from "./shared";

export default async function QuestsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/quests", "admin");
  const sp = await searchParams;
  const [{ quests, total }, teams, passes] = await Promise.all([listConsoleQuests(db), teamOptions(db), passOptions(db)]);
  const error = first(sp.error);

  return (
    <>
      <h1>Quests</h1>
      {error ? <Notice kind="error">{`${QUEST_ERRORS[error] ?? "That request was not valid."} Nothing was created.`}</Notice> : null}
      <p style={styles.muted}>
        {total > CONSOLE_QUEST_LIMIT ? `Showing ${CONSOLE_QUEST_LIMIT} of ${total} quests.` : `${total} quest${total === 1 ? "" : "s"}.`}
      </p>
      {quests.length ? (
        <ScrollTable label="Quests">
          <TableHead columns={["Quest", "Slug", "Kind", "Scope", "Cadence", "Rep", "Window", "Status"]} />
          <tbody>
            {quests.map((q) => (
              <tr key={q.id} data-quest={q.slug}>
                <th scope="row" style={styles.rowHead}>
                  <a href={`/admin/quests/${encodeURIComponent(q.id)}`}>{q.title}</a>
                </th>
                <td style={styles.td}>
                  <code>{q.slug}</code>
                </td>
                <td style={styles.td}>
                  {q.kind}
                  {q.kind === "quiz" ? ` (${q._count.questions} active question${q._count.questions === 1 ? "" : "s"})` : ""}
                </td>
                <td style={styles.td}>
                  {q.scope}
                  {q.team ? ` · ${q.team.name}` : ""}
                  {q.pass ? ` · ${q.pass.name}` : ""}
                </td>
                <td style={styles.td}>{q.cadence}</td>
                <td style={styles.td}>
                  {q.repReward} {q.repSource}
                </td>
                <td style={styles.td}>{questWindow(q.availableFrom, q.availableUntil)}</td>
                <td style={styles.td} data-testid="quest-status">
                  {q.active ? "Active" : `Retired ${when(q.retiredAt)}`}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}

      <h2>Create a quest</h2>
      <form action={createQuestAction} aria-label="Create a quest" style={styles.form}>
        <CatalogFields />
        <Select name="kind" label="Kind" options={QUEST_KINDS} />
        <Select name="scope" label="Scope" options={QUEST_SCOPES} />
        <LabelledSelect
          name="teamId"
          label="Team"
          options={[{ value: "", label: "None" }, ...teams.map((t) => ({ value: t.id, label: t.name }))]}
          defaultValue=""
        />
        <LabelledSelect
          name="passId"
          label="Pass"
          options={[{ value: "", label: "None" }, ...passes.map((p) => ({ value: p.id, label: `${p.name} (${p.kind})` }))]}
          defaultValue=""
        />
        <Select name="cadence" label="Cadence" options={QUEST_CADENCES} />
        <Field label="Rep reward" name="repReward" type="number" min={0} max={100000} required defaultValue={10} width={100} />
        <Select name="repSource" label="Rep type" options={REP_SOURCES} defaultValue="serviceDirect" />
        <Field label="Questions per quiz" name="quizLength" type="number" min={1} max={20} placeholder="5" width={100} />
        <Field label="Seconds per question" name="quizSeconds" type="number" min={5} max={120} placeholder="20" width={100} />
        <Field label="Available from (UTC)" name="availableFrom" type="datetime-local" />
        <Field label="Available until (UTC)" name="availableUntil" type="datetime-local" />
        <button type="submit" style={styles.button}>
          Create quest
        </button>
      </form>
      <p style={{ ...styles.muted, fontSize: 13, marginTop: 16 }}>
        Team quests are offered to fans who follow or joined the team, pass quests to holders of the pass. Quests are never deleted: retiring one stops it being
        offered and keeps its history. Quiz settings apply to quiz quests only.
      </p>
    </>
  );
}
