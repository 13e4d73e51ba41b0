import { AsyncLocalStorage } from "node:async_hooks";

// Whose leaderboard entries a request changed: fans whose Rep moved or who joined a team, and teams left. The
// pipeline applies them once the handler succeeded (its transactions committed): moveBoards in service.ts. Rep
// writers note it (award() and debit(); a statement that inlines awardCtes or awardRowsCtes notes it itself), as do
// join and leave.
// Outside a request (scripts, crons) nothing is collected: the rebuild repairs what they changed.

export interface BoardMoves {
  users: Set<string>;
  left: { userId: string; teamId: string }[];
}

const moves = new AsyncLocalStorage<BoardMoves>();

export const newBoardMoves = (): BoardMoves => ({ users: new Set(), left: [] });

/** `userId`'s points or teams changed in the current request. */
export function noteBoardsMoved(userId: string): void {
  moves.getStore()?.users.add(userId);
}

/** `userId` left `teamId` in the current request. */
export function noteTeamLeft(userId: string, teamId: string): void {
  moves.getStore()?.left.push({ userId, teamId });
}

/** Runs `fn`, collecting the board moves it notes into `into`. */
export const collectBoardMoves = <T>(into: BoardMoves, fn: () => Promise<T>): Promise<T> => moves.run(into, fn);
