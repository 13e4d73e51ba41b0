import * as mobileStart from "@/app/api/mobile/start/route";
import * as mobileCallback from "@/app/api/mobile/callback/route";
import * as mobileExchange from "@/app/api/mobile/exchange/route";
import * as mobileVerify from "@/app/api/mobile/verify/route";
import * as mobileVersion from "@/app/api/mobile/version/route";
import * as walletCallback from "@/app/api/mobile/wallet-callback/route";
import * as nativeToken from "@/app/api/auth/native-token/route";
import * as validate from "@/app/api/auth/validate/route";
import * as logout from "@/app/api/logout/route";
import * as cronMobileTokens from "@/app/api/cron/mobile-tokens/route";

// Native sign-in, session checks and logout; internal: the cron that purges spent mobile session tokens.
export const routes = {
  "/api/mobile/start": mobileStart,
  "/api/mobile/callback": mobileCallback,
  "/api/mobile/exchange": mobileExchange,
  "/api/mobile/verify": mobileVerify,
  "/api/mobile/version": mobileVersion,
  "/api/mobile/wallet-callback": walletCallback,
  "/api/auth/native-token": nativeToken,
  "/api/auth/validate": validate,
  "/api/logout": logout,
};

export const internalRoutes = {
  "/api/cron/mobile-tokens": cronMobileTokens,
};
