import * as onboarding from "@/app/api/user/onboarding/route";
import * as isOnboarded from "@/app/api/user/isOnboarded/route";
import * as profile from "@/app/api/user/profile/route";
import * as syncIdp from "@/app/api/user/sync-idp/route";
import * as blocks from "@/app/api/user/blocks/route";
import * as block from "@/app/api/user/blocks/[userId]/route";
import * as teams from "@/app/api/user/teams/route";
import * as completedQuests from "@/app/api/user/completed-quests/route";
import * as pendingNfts from "@/app/api/user/nfts/pending/route";
import * as terms from "@/app/api/user/terms/route";

export default {
  "/api/user/onboarding": onboarding,
  "/api/user/isOnboarded": isOnboarded,
  "/api/user/profile": profile,
  "/api/user/sync-idp": syncIdp,
  "/api/user/blocks": blocks,
  "/api/user/blocks/{userId}": block,
  "/api/user/teams": teams,
  "/api/user/completed-quests": completedQuests,
  "/api/user/nfts/pending": pendingNfts,
  "/api/user/terms": terms,
};
