import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { mintRun } from "@/lib/features/economy/schemas";
import { runMintWorker } from "@/lib/features/economy/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Run the NFT mint worker (cron)",
      description:
        "Claims up to 25 due mints (pending ones whose next attempt is due, and minting ones whose claim is over 5 minutes old) with SKIP LOCKED, hands each to the mint provider with the mint's id as its idempotency key, and records the token or the failure (retried with backoff, failed for good after the last attempt). Concurrent runs never claim the same mint.",
      tags: ["Cron"],
      auth: "cron",
      response: mintRun,
    },
    () => runMintWorker(db),
  ),
});
