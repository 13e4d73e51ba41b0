import * as ledger from "@/app/api/v1/engage/rep/ledger/route";
import * as earn from "@/app/api/v1/engage/rep/earn/route";

// The Rep ledger and client-claimed earns.
export const routes = {
  "/api/v1/engage/rep/ledger": ledger,
  "/api/v1/engage/rep/earn": earn,
};

export const internalRoutes = {};
