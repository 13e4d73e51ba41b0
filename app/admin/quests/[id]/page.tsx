import { consoleQuest } from "@/lib/operations/admin/queries";
import { QUESTION_CHOICES_MAX } from "@/lib/operations/admin/schemas";
import { db } from "@/lib/db/client";
import { addQuestionAction, deactivateQuestionAction, retireQuestAction, scheduleQuestAction } from "../actions";
import { requireStaff } from "../../_lib/gate";
import { Field, first, LabelledSelect, Notice, styles, when, TableHead, ScrollTable } from "../../_lib/ui";
import { QUEST_ERRORS, questWindow } from "../shared";

const ERRORS: Record<string, string> = {
  ...QUEST_ERRORS,
  prompt: "Enter the question (1-300 characters).",
  choices: `Fill in 2 to ${QUESTION_CHOICES_MAX} choices from the first box on, with no empty box between them (each at most 120 characters).`,
  answer: "The answer must be one of the choices filled in.",
  answerIndex: "Choose which choice is the answer.",
  not_quiz: "Only quiz quests have a question bank.",
  question_missing: "No such question in this quest.",
};
const DONE: Record<string, string> = {
  created: "Quest created.",
  scheduled: "Window saved.",
  retired: "Quest retired: it is no longer offered. Its history stays.",
  question: "Question added.",
  deactivated: "Question deactivated: new quizzes no longer draw it.",
};

/** A datetime-local input's value for a UTC instant. */
const localValue = (d: Date | null) => (d ? d.toISOString().slice(0, 16) : "");

export default async function QuestPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  await requireStaff(`/admin/quests/${encodeURIComponent(id)}`, "admin");
  const sp = await searchParams;
  const quest = await consoleQuest(db, id);
  if (!quest) {
    return (
      <>
        <h1>Quest</h1>
        <Notice kind="error">No such quest.</Notice>
        <p>
          <a href="/admin/quests">Back to quests</a>
        </p>
      </>
    );
  }
  const done = first(sp.done);
  const error = first(sp.error);
  const isQuiz = quest.kind === "quiz";

  return (
    <>
      <p>
        <a href="/admin/quests">← Quests</a>
      </p>
      <h1>{quest.title}</h1>
      {done && DONE[done] ? <Notice>{DONE[done]}</Notice> : null}
      {error ? <Notice kind="error">{`${ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}
      <dl style={{ display: "grid", gridTemplateColumns: "max-content 1fr", gap: "4px 16px" }}>
        <dt>Id / slug</dt>
        <dd style={{ margin: 0 }}>
          <code>{quest.id}</code> · <code>{quest.slug}</code>
        </dd>
        <dt>Kind</dt>
        <dd style={{ margin: 0 }}>{isQuiz ? `quiz (${quest.quizLength ?? "?"} questions, ${quest.quizSeconds ?? "?"} s each)` : quest.kind}</dd>
        <dt>Scope</dt>
        <dd style={{ margin: 0 }}>
          {quest.scope}
          {quest.team ? ` · ${quest.team.name}` : ""}
          {quest.pass ? ` · ${quest.pass.name}` : ""}
        </dd>
        <dt>Cadence</dt>
        <dd style={{ margin: 0 }}>{quest.cadence}</dd>
        <dt>Rep reward</dt>
        <dd style={{ margin: 0 }}>{`${quest.repReward} (${quest.repSource})`}</dd>
        <dt>Window</dt>
        <dd style={{ margin: 0 }} data-testid="quest-window">
          {questWindow(quest.availableFrom, quest.availableUntil)}
        </dd>
        <dt>Status</dt>
        <dd style={{ margin: 0 }} data-testid="quest-status">
          {quest.active ? "Active" : `Retired ${when(quest.retiredAt)}`}
        </dd>
      </dl>

      <h2>Schedule</h2>
      <form action={scheduleQuestAction} aria-label="Schedule" style={styles.form}>
        <input type="hidden" name="questId" value={quest.id} />
        <Field label="Available from (UTC)" name="availableFrom" type="datetime-local" defaultValue={localValue(quest.availableFrom)} />
        <Field label="Available until (UTC)" name="availableUntil" type="datetime-local" defaultValue={localValue(quest.availableUntil)} />
        <button type="submit" style={styles.button}>
          Save window
        </button>
      </form>
      <p style={{ ...styles.muted, fontSize: 13 }}>
        Empty bounds are open-ended. The quest is offered from the first instant until (not including) the second.
      </p>

      {quest.active ? (
        <form action={retireQuestAction} style={styles.form}>
          <input type="hidden" name="questId" value={quest.id} />
          <button type="submit" style={styles.secondary}>
            Retire quest
          </button>
          <span style={{ ...styles.muted, fontSize: 13 }}>Stops offering it; nothing is deleted and it cannot be un-retired.</span>
        </form>
      ) : null}

      {isQuiz ? (
        <>
          <h2>Question bank</h2>
          <p style={{ ...styles.muted, fontSize: 13 }}>Answers are shown here only; the API never sends them to fans.</p>
          {quest.questions.length === 0 ? <p>No questions yet.</p> : null}
          {quest.questions.length ? (
            <ScrollTable label="Questions">
              <TableHead columns={["Question", "Choices", "Answer", "Status", "Action"]} />
              <tbody>
                {quest.questions.map((q) => (
                  <tr key={q.id} data-question={q.id}>
                    <th scope="row" style={styles.rowHead}>
                      {q.prompt}
                    </th>
                    <td style={styles.td}>
                      <ol style={{ margin: 0, paddingLeft: 20 }}>
                        {q.choices.map((c, i) => (
                          <li key={i} style={i === q.answerIndex ? { fontWeight: 600 } : undefined}>
                            {c}
                          </li>
                        ))}
                      </ol>
                    </td>
                    <td style={styles.td} data-testid="answer">
                      {`${q.answerIndex + 1}. ${q.choices[q.answerIndex] ?? "?"}`}
                    </td>
                    <td style={styles.td} data-testid="question-status">
                      {q.active ? "Active" : "Inactive"}
                    </td>
                    <td style={styles.td}>
                      {q.active ? (
                        <form action={deactivateQuestionAction}>
                          <input type="hidden" name="questId" value={quest.id} />
                          <input type="hidden" name="questionId" value={q.id} />
                          <button type="submit" style={styles.secondary} aria-label={`Deactivate question ${q.prompt}`}>
                            Deactivate
                          </button>
                        </form>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          ) : null}
          <h3>Add a question</h3>
          <form
            action={addQuestionAction}
            aria-label="Add a question"
            style={{ ...styles.form, flexDirection: "column", alignItems: "stretch", maxWidth: 560 }}
          >
            <input type="hidden" name="questId" value={quest.id} />
            <Field label="Question" name="prompt" required maxLength={300} />
            {Array.from({ length: QUESTION_CHOICES_MAX }, (_, i) => (
              <Field key={i} label={`Choice ${i + 1}${i < 2 ? "" : " (optional)"}`} name={`choice${i}`} required={i < 2} maxLength={120} />
            ))}
            <LabelledSelect
              name="answerIndex"
              label="Answer"
              options={Array.from({ length: QUESTION_CHOICES_MAX }, (_, i) => ({ value: String(i), label: `Choice ${i + 1}` }))}
              defaultValue="0"
            />
            <div>
              <button type="submit" style={styles.button}>
                Add question
              </button>
            </div>
          </form>
        </>
      ) : null}
    </>
  );
}
