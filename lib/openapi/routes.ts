// Every domain module's route table, by OpenAPI path: the public contract and, apart, the internal routes (staff
// console, cron). A new module registers its lib/<domain>/routes.ts here; a test checks the union against
// app/api/**/route.ts.
import * as comments from "../comments/routes";
import * as dashboard from "../dashboard/routes";
import * as economy from "../economy/routes";
import * as games from "../games/routes";
import * as invites from "../invites/routes";
import * as leaderboard from "../leaderboard/routes";
import * as leagues from "../leagues/routes";
import * as lockerroom from "../lockerroom/routes";
import * as mobile from "../mobile/routes";
import * as moderation from "../moderation/routes";
import * as notifications from "../notifications/routes";
import * as platform from "../platform/routes";
import * as reactions from "../reactions/routes";
import * as polls from "../polls/routes";
import * as wallets from "../wallets/routes";
import * as packs from "../packs/routes";
import * as collectibles from "../collectibles/routes";
import * as marketplace from "../marketplace/routes";
import * as binders from "../binders/routes";
import * as quests from "../quests/routes";
import * as rep from "../rep/routes";
import * as rewards from "../rewards/routes";
import * as signals from "../signals/routes";
import * as stars from "../stars/routes";
import * as support from "../support/routes";
import * as sync from "../sync/routes";
import * as teams from "../teams/routes";
import * as uploads from "../uploads/routes";
import * as users from "../users/routes";

type RouteTable = Record<string, Record<string, unknown>>;
const MODULES: { routes: RouteTable; internalRoutes: RouteTable }[] = [
  platform,
  users,
  teams,
  stars,
  rep,
  mobile,
  invites,
  support,
  leagues,
  sync,
  uploads,
  quests,
  economy,
  games,
  dashboard,
  rewards,
  leaderboard,
  signals,
  notifications,
  lockerroom,
  comments,
  reactions,
  polls,
  moderation,
  wallets,
  packs,
  collectibles,
  marketplace,
  binders,
];

export const ROUTE_MODULES: RouteTable = Object.assign({}, ...MODULES.map((m) => m.routes));
export const INTERNAL_ROUTE_MODULES: RouteTable = Object.assign({}, ...MODULES.map((m) => m.internalRoutes));
