import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { invariantReport } from "@/lib/core/wallets/schemas";
import { checkInvariant } from "@/lib/operations/invariants/economy";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Economy invariant (staff)",
      description:
        "Checks that every wallet's balance equals the sum of its ledger rows and that no active listing outlives its seller's ownership of the item: `ok`, the counts, up to 100 wallets that disagree and up to 100 such listings (none, when the books are right).",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "economy",
      response: invariantReport,
    },
    () => checkInvariant(db),
  ),
});
