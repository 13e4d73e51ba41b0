// Every API route module, by its OpenAPI path: the public contract and, apart, the internal routes (staff
// console, cron). Each domain keeps its own tables in ./routes/; a test checks the union against app/api/**/route.ts.
import foundation from "./routes/foundation";
import identity, { internalRoutes as identityInternal } from "./routes/identity";
import invitesSupport from "./routes/invites-support";
import leagues from "./routes/leagues";
import { internalRoutes as syncInternal, publicRoutes as syncPublic } from "./routes/sync";
import teams from "./routes/teams";
import uploads, { internalRoutes as uploadsInternal } from "./routes/uploads";
import users from "./routes/users";

export const ROUTE_MODULES: Record<string, Record<string, unknown>> = {
  ...foundation,
  ...identity,
  ...invitesSupport,
  ...leagues,
  ...syncPublic,
  ...teams,
  ...uploads,
  ...users,
};

export const INTERNAL_ROUTE_MODULES: Record<string, Record<string, unknown>> = {
  ...identityInternal,
  ...syncInternal,
  ...uploadsInternal,
};
