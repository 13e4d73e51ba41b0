// The daily quiz's timer and award: pure computations over a session's state (no database, no clock of its own).

/**
 * How long after a question's deadline (shownAt + secondsPerQuestion) an answer still counts: network and render
 * slack. Later answers are recorded as misses and the session moves on.
 */
export const QUIZ_GRACE_MS = 2000;

export interface QuizClock {
  currentIndex: number;
  total: number;
  questionShownAt: Date;
  secondsPerQuestion: number;
}

/** The deadline a client is shown for a question (the grace window is the server's slack past it). */
export const deadlineOf = (shownAt: Date, seconds: number) => new Date(shownAt.getTime() + seconds * 1000);

/** Whether an answer at `now` still counts for the question shown at `shownAt`. */
export const inTime = (shownAt: Date, seconds: number, now: Date) => now.getTime() <= shownAt.getTime() + seconds * 1000 + QUIZ_GRACE_MS;

/**
 * Moves the clock past every question whose window (deadline + grace) closed before `now`: each is a miss, and the
 * next question counts as shown when the previous window closed, so an abandoned session runs out after
 * total × (seconds + grace) and is finalized the next time it is touched.
 */
export function expire(clock: QuizClock, now: Date): { missed: { position: number; at: Date }[]; currentIndex: number; questionShownAt: Date } {
  const missed: { position: number; at: Date }[] = [];
  let { currentIndex, questionShownAt } = clock;
  while (currentIndex < clock.total && !inTime(questionShownAt, clock.secondsPerQuestion, now)) {
    const closed = new Date(questionShownAt.getTime() + clock.secondsPerQuestion * 1000 + QUIZ_GRACE_MS);
    missed.push({ position: currentIndex, at: closed });
    questionShownAt = closed;
    currentIndex++;
  }
  return { missed, currentIndex, questionShownAt };
}

/** Rep for a completed quiz: the quest's reward scaled by the share of correct answers, rounded down. */
export const quizAward = (repReward: number, correct: number, total: number) => (total > 0 ? Math.floor((repReward * correct) / total) : 0);
