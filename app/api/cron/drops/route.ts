import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { cronResult } from "@/lib/features/drops/schemas";
import { CRON_BUDGET_MS, runDropsCron } from "@/lib/features/drops/ordering";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Run due drop draws and waiting-room orders (cron)",
      description:
        "Called every minute by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`. Runs every draw past its closesAt (winners in the seeded order get their packs with their held coins, every other hold refunded once) and fixes every waiting room's positions past its opensAt, revealing each drop's seed; one drop per transaction, claimed with FOR UPDATE SKIP LOCKED (two runs at once never run one twice), " +
        `for at most ${CRON_BUDGET_MS / 1000} s per call.`,
      tags: ["Cron"],
      auth: "cron",
      response: cronResult,
      errors: [walletsErrors.BALANCE_LIMIT],
    },
    () => runDropsCron(db),
  ),
});
