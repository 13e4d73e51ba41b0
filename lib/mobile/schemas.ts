import { z } from "zod";
import { isoDateTime } from "../http/schemas";
import { MOBILE_TOKEN_PATTERN } from "./service";

export const startQuery = z.strictObject({
  provider: z.string().min(1).max(40).meta({ description: "OAuth provider configured for the app, e.g. google or apple." }),
  redirect_uri: z.string().min(1).max(2048).meta({ description: "App redirect URI; must exactly match one in MOBILE_REDIRECT_URIS." }),
});

export const callbackQuery = z.object({
  state: z.string().max(2048).optional(),
  error: z.string().max(200).optional().meta({ description: "Set by the sign-in page when the user cancelled or sign-in failed." }),
});

export const mobileToken = z.string().regex(MOBILE_TOKEN_PATTERN, "Must be exactly 128 hexadecimal characters");
export const exchangeBody = z.strictObject({ token: mobileToken });

export const signInTicket = z
  .object({
    ticket: z.string().meta({ description: "Identity-provider sign-in ticket: create a session with the ticket strategy." }),
    expiresAt: isoDateTime,
  })
  .meta({ id: "SignInTicket" });

export const sessionInfo = z
  .object({
    valid: z.literal(true),
    userId: z.string(),
    externalId: z.string(),
    sessionId: z.string().nullable(),
    role: z.enum(["fan", "admin"]),
    expiresAt: isoDateTime,
  })
  .meta({ id: "SessionInfo" });

export const validateResult = z
  .object({
    authenticated: z.boolean(),
    userId: z.string().optional(),
    expiresAt: isoDateTime.optional(),
  })
  .meta({ id: "AuthValidateResult" });

export const logoutResult = z
  .object({ loggedOut: z.literal(true), sessionRevoked: z.boolean() })
  .meta({ id: "LogoutResult" });

export const versionQuery = z.strictObject({
  platform: z.enum(["ios", "android"]).optional(),
  currentVersion: z
    .string()
    .regex(/^\d+\.\d+\.\d+$/, "Expected MAJOR.MINOR.PATCH")
    .optional()
    .meta({ description: "The app's version; when given, the answer says whether an update is required." }),
});

export const versionInfo = z
  .object({
    minimumVersion: z.string(),
    latestVersion: z.string(),
    updateUrl: z.string().nullable(),
    updateRequired: z.boolean().optional(),
    updateAvailable: z.boolean().optional(),
  })
  .meta({ id: "MobileVersion" });

export const walletCallbackQuery = z.object({
  redirect_uri: z.string().min(1).max(2048),
  address: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});

export const mobileTokenPurge = z
  .object({ deleted: z.number().int().min(0).meta({ description: "Mobile session tokens deleted by this run." }) })
  .meta({ id: "MobileTokenPurge" });
