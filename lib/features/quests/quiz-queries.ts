// The daily quiz sessions' reads (lib/features/quests/quiz-sessions.ts): a session with its quest and questions,
// read under its row lock, and the questions a new attempt draws.
import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { int8, raw, type Int8 } from "../../db/raw";
import type { QuestRow } from "./queries";

export interface SessionRow {
  id: string;
  userId: string;
  questId: string;
  day: Date;
  status: "active" | "completed" | "forfeited";
  questionIds: string[];
  currentIndex: number;
  correctCount: number;
  questionShownAt: Date;
  startedAt: Date;
  endedAt: Date | null;
  repAwarded: number;
  seconds: number;
  repReward: number;
  repSource: QuestRow["repSource"];
  title: string;
  /** The session's questions, in its order (read with the lock, so an answer and the next question need no query). */
  questions: { id: string; prompt: string; choices: string[]; answerIndex: number }[];
}

export const SESSION_INT8 = ["repAwarded", "repReward"] as const;
export type SessionDbRow = Int8<SessionRow, (typeof SESSION_INT8)[number]>;

/** A session row `s` (quiz_sessions) as a SessionRow, with its quest `q` and its questions. */
export const SESSION_COLUMNS = Prisma.sql`
    s.id::text AS id, s.user_id::text AS "userId", s.quest_id AS "questId", s.day, s.status::text AS status,
    s.question_ids AS "questionIds", s.current_index AS "currentIndex", s.correct_count AS "correctCount",
    s.question_shown_at AS "questionShownAt", s.started_at AS "startedAt", s.ended_at AS "endedAt", s.rep_awarded AS "repAwarded",
    COALESCE(q.quiz_seconds, 20) AS seconds, q.rep_reward AS "repReward", q.rep_source::text AS "repSource", q.title,
    (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', qq.id, 'prompt', qq.prompt, 'choices', qq.choices, 'answerIndex', qq.answer_index) ORDER BY ids.n), '[]')
     FROM unnest(s.question_ids) WITH ORDINALITY AS ids(id, n) JOIN quiz_questions qq ON qq.id = ids.id) AS questions`;

/** The user's session row (SELECT … FOR UPDATE, so answers, timeouts and forfeits apply one at a time) with its quest and questions. */
const lockedSessionSql = (userId: string, sessionId: string) => Prisma.sql`
    SELECT ${SESSION_COLUMNS}
    FROM quiz_sessions s JOIN quests q ON q.id = s.quest_id
    WHERE s.id = ${sessionId}::uuid AND s.user_id = ${userId}::uuid
    FOR UPDATE OF s`;

/** The user's session (none when unknown or another user's), its row locked for the rest of the transaction. */
export async function lockedSession(tx: DbTx, userId: string, sessionId: string): Promise<SessionRow | undefined> {
  const [s] = await tx.$queryRaw<SessionDbRow[]>`${lockedSessionSql(userId, sessionId)}`;
  return s && int8(s, SESSION_INT8);
}

/** Up to `take` random active questions of the quiz's bank. */
export function pickQuizQuestions(db: DbTx, questId: string, take: number) {
  return raw(db).$queryRaw<{ id: string }[]>`
    SELECT id FROM quiz_questions WHERE quest_id = ${questId} AND active ORDER BY random() LIMIT ${take}`;
}
