import * as user from "@/app/api/user/route";
import * as settings from "@/app/api/user/settings/route";
import * as checkUsername from "@/app/api/user/check-username/route";
import * as onboarding from "@/app/api/user/onboarding/route";
import * as isOnboarded from "@/app/api/user/isOnboarded/route";
import * as profile from "@/app/api/user/profile/route";
import * as syncIdp from "@/app/api/user/sync-idp/route";
import * as blocks from "@/app/api/user/blocks/route";
import * as block from "@/app/api/user/blocks/[userId]/route";
import * as terms from "@/app/api/user/terms/route";

// The caller's account: profile, settings, onboarding, blocks, terms.
export const routes = {
  "/api/user": user,
  "/api/user/settings": settings,
  "/api/user/check-username": checkUsername,
  "/api/user/onboarding": onboarding,
  "/api/user/isOnboarded": isOnboarded,
  "/api/user/profile": profile,
  "/api/user/sync-idp": syncIdp,
  "/api/user/blocks": blocks,
  "/api/user/blocks/{userId}": block,
  "/api/user/terms": terms,
};

export const internalRoutes = {};
