import { after } from "next/server";
import { log } from "../../kernel/log";
import { requestState } from "../../kernel/request-scope";

// The immediate attempt: a producer that wrote a notification in a request notes it here, and once the handler
// succeeded (its transactions committed: the outbox rows are visible) the request hands a delivery run to Next's
// after(), so it runs after the answer is sent. It claims like the cron (FOR UPDATE SKIP LOCKED), so the two never
// send one row twice; whatever it leaves (quiet hours, failures, a crash) the cron picks up. Outside a request
// (crons, scripts) nothing is noted: the cron delivers.

const KEY = Symbol("push soon");
/** Rows one after-request run claims at most (the cron takes the rest). */
const TAKE = 20;

async function run() {
  const [{ db }, { deliverDue }] = await Promise.all([import("../../db/client"), import("./service")]);
  await deliverDue(db, { take: TAKE, receipts: false }).catch((error) => log("error", { msg: "push: after-request delivery failed", error: String(error) }));
}

/** The current request wrote notifications: attempt their push once it has succeeded. */
export function notePushSoon(): void {
  requestState(KEY, (afterSuccess) => {
    afterSuccess(async () => {
      try {
        after(run);
      } catch {
        void run(); // outside Next's request context (a test harness): run it unawaited
      }
    });
    return true;
  });
}
