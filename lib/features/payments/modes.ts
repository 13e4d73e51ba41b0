import { env } from "../../env";

// Which payment providers this deployment is configured for, from the environment alone (no client is made): for
// readiness, eligibility and each provider's 503. Each provider's module holds the rest of its configuration.

export type StripeMode = "live" | "test" | "standin" | "unconfigured";

/** Stripe live or test keys, a stand-in (STRIPE_API_URL), or nothing. */
export function stripeMode(): StripeMode {
  const e = env();
  if (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET) return "unconfigured";
  if (e.STRIPE_API_URL) return "standin";
  return e.STRIPE_SECRET_KEY.startsWith("sk_live_") || e.STRIPE_SECRET_KEY.startsWith("rk_live_") ? "live" : "test";
}

export type AppStoreMode = "production" | "sandbox" | "unconfigured";

/** The App Store environment accepted (APPLE_IAP_ENVIRONMENT), or nothing. */
export function appStoreMode(): AppStoreMode {
  const e = env();
  if (!e.APPLE_IAP_BUNDLE_ID || !e.APPLE_IAP_ROOT_CERTIFICATES) return "unconfigured";
  return e.APPLE_IAP_ENVIRONMENT === "Production" ? "production" : "sandbox";
}

export type GooglePlayMode = "live" | "standin" | "unconfigured";

/** Google's Play Developer API, a stand-in (GOOGLE_PLAY_API_URL), or nothing. */
export function googlePlayMode(): GooglePlayMode {
  const e = env();
  if (!e.GOOGLE_PLAY_PACKAGE_NAME || !e.GOOGLE_PLAY_SERVICE_ACCOUNT) return "unconfigured";
  return e.GOOGLE_PLAY_API_URL === "https://androidpublisher.googleapis.com" ? "live" : "standin";
}

/** Whether any provider can take money for coins. */
export const anyPaymentProvider = () => stripeMode() !== "unconfigured" || appStoreMode() !== "unconfigured" || googlePlayMode() !== "unconfigured";
