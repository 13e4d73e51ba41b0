// The daily quiz sessions' writes (lib/features/quests/quiz-sessions.ts): answers, each with the session's move to
// the next question.
import type { DbTx } from "../../db/client";
import { inItemOrder } from "../../db/batch";
import { int8, raw } from "../../db/raw";
import { QUIZ_GRACE_MS } from "./quiz";
import { SESSION_COLUMNS, SESSION_INT8, type SessionDbRow, type SessionRow } from "./quiz-queries";

/** An answer to try on the fast path (answersInTime). */
export interface AnswerToTry {
  userId: string;
  sessionId: string;
  answerIndex: number;
  position: number | null;
  now: Date;
}

/**
 * The usual answers, for many sessions in one statement, no transaction: each session row is locked within it (in
 * session id order, the order every batch takes), and only when the session is the caller's and active, the answer
 * is in time, its question is not the last, the answerIndex is inside the choices and `position` (when sent) is the
 * current one, the answer is recorded and the session moves on; that session's row (as it was) comes back. Anything
 * else writes nothing and answers undefined, and submitAnswer takes the full path (errors, timeouts, the last
 * question).
 */
export async function answersInTime(db: DbTx, items: AnswerToTry[]): Promise<(SessionRow | undefined)[]> {
  const col = <T>(f: (a: AnswerToTry) => T) => items.map(f);
  const rows = await raw(db).$queryRaw<(SessionDbRow & { n: bigint | number; answer_index: number; position: number | null; at: Date })[]>`
    WITH s AS (
      SELECT i.n, i.answer_index, i.position, i.at, ${SESSION_COLUMNS}
      FROM unnest(${col((a) => a.sessionId)}::uuid[], ${col((a) => a.userId)}::uuid[], ${col((a) => a.answerIndex)}::int[],
                  ${col((a) => a.position)}::int[], ${col((a) => a.now.toISOString())}::timestamptz[])
             WITH ORDINALITY AS i(session_id, user_id, answer_index, position, at, n)
      JOIN quiz_sessions s ON s.id = i.session_id AND s.user_id = i.user_id
      JOIN quests q ON q.id = s.quest_id
      ORDER BY s.id
      FOR UPDATE OF s
    ),
    fits AS (
      SELECT * FROM s
      WHERE status = 'active' AND "currentIndex" < cardinality("questionIds") - 1
        AND at <= "questionShownAt" + make_interval(secs => seconds + ${QUIZ_GRACE_MS / 1000}::float8)
        AND (position IS NULL OR position = "currentIndex")
        AND answer_index < jsonb_array_length(questions -> "currentIndex" -> 'choices')
    ),
    answer AS (
      INSERT INTO quiz_answers (session_id, position, question_id, answer_index, correct, answered_at)
      SELECT id::uuid, "currentIndex", "questionIds"["currentIndex" + 1], answer_index,
             answer_index = (questions -> "currentIndex" ->> 'answerIndex')::int, at
      FROM fits
      ON CONFLICT DO NOTHING
      RETURNING session_id, correct
    ),
    moved AS (
      UPDATE quiz_sessions qs SET current_index = f."currentIndex" + 1, question_shown_at = f.at, correct_count = f."correctCount" + a.correct::int
      FROM fits f JOIN answer a ON a.session_id = f.id::uuid
      WHERE qs.id = a.session_id
    )
    SELECT f.* FROM fits f JOIN answer a ON a.session_id = f.id::uuid`;
  return inItemOrder(rows, items.length).map((r) => {
    if (!r) return undefined;
    const { answer_index: _answer, position: _position, at: _at, ...row } = r;
    return int8(row, SESSION_INT8);
  });
}

/** The answer at `position` and the session's move to the next question, in one statement (the session row is locked). */
export async function recordAnswer(
  tx: DbTx,
  sessionId: string,
  a: { position: number; questionId: string; answerIndex: number; correct: boolean; next: { currentIndex: number; correctCount: number }; now: Date },
): Promise<void> {
  await tx.$executeRaw`
    WITH answer AS (
      INSERT INTO quiz_answers (session_id, position, question_id, answer_index, correct, answered_at)
      VALUES (${sessionId}::uuid, ${a.position}, ${a.questionId}, ${a.answerIndex}, ${a.correct}, ${a.now}::timestamptz)
    )
    UPDATE quiz_sessions SET current_index = ${a.next.currentIndex}, correct_count = ${a.next.correctCount}, question_shown_at = ${a.now}::timestamptz
    WHERE id = ${sessionId}::uuid`;
}
