import { requestState } from "../../../kernel/request-scope";
import type { BoardMoves } from "./service";

// Whose leaderboard entries a request changed: fans whose Rep moved or who joined a team, and teams left. Kept in the
// request's scope (lib/kernel/request-scope.ts), which applies them once the handler succeeded (its transactions
// committed): applyBoardMoves in service.ts. Rep writers note it (award() and debit(); a batched statement that
// credits with awardRowsCtes through batchRepWrites, lib/core/rep/grants.ts), as do join and leave.
// Outside a request (scripts, crons) nothing is collected: the rebuild repairs what they changed.

const KEY = Symbol("board moves");

const newBoardMoves = (): BoardMoves => ({ users: new Set(), left: [] });

/** The current request's moves, registered on first use to be applied after the handler's success. */
const requestMoves = () =>
  requestState(KEY, (afterSuccess) => {
    const moves = newBoardMoves();
    afterSuccess(async () => {
      // Loaded when first needed, not with this file: service.ts opens the app's pool (lib/db/client.ts), and every
      // Rep writer imports this file, scripts and tests with their own clients included. (No circle: service.ts
      // imports nothing of this file.)
      if (moves.users.size > 0 || moves.left.length > 0) await (await import("./service")).applyBoardMoves(moves);
    });
    return moves;
  });

/** `userId`'s points or teams changed in the current request. */
export function noteBoardsMoved(userId: string): void {
  requestMoves()?.users.add(userId);
}

/** `userId` left `teamId` in the current request. */
export function noteTeamLeft(userId: string, teamId: string): void {
  requestMoves()?.left.push({ userId, teamId });
}
