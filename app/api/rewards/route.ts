import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { catalog } from "@/lib/features/rewards/schemas";
import { getCatalog } from "@/lib/features/rewards/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Reward catalog",
      description:
        "Every active reward with the caller's eligibility. Redeem rewards (`kind: redeem`) are bought with spendable Rep: `canRedeem` says whether POST /api/rewards/redeem would succeed now and `reason` why not (out_of_stock, limit_reached, insufficient_rep). " +
        "Milestone rewards (`kind: milestone`) are claimed free, once, with POST /api/rewards/claim: `milestone` carries the metric, target, the caller's progress and whether it was claimed; `canClaim` and `reason` (already_claimed, milestone_not_reached, out_of_stock) say what a claim would answer. " +
        "`stock` null means unlimited. `me` carries the caller's balance and milestone metrics. Not paginated: the catalog is small.",
      tags: ["Rewards"],
      auth: "bearer",
      response: catalog,
    },
    ({ user }) => getCatalog(db, user.id),
  ),
});
