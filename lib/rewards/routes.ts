import * as catalog from "@/app/api/rewards/route";
import * as claim from "@/app/api/rewards/claim/route";
import * as redeem from "@/app/api/rewards/redeem/route";

// Rewards: the catalog with the caller's eligibility, redeeming with Rep, claiming milestone rewards.
export const routes = {
  "/api/rewards": catalog,
  "/api/rewards/claim": claim,
  "/api/rewards/redeem": redeem,
};

export const internalRoutes = {};
