import { z } from "zod";
import { isoDateTime } from "../../kernel/schemas";
import { CODE_CHALLENGE_PATTERN, CODE_VERIFIER_PATTERN, WALLET_STATE_PATTERN } from "./config";
import { MOBILE_TOKEN_PATTERN } from "./service";

export const startQuery = z
  .strictObject({
    provider: z.string().min(1).max(40).meta({ description: "OAuth provider configured for the app, e.g. google or apple." }),
    redirect_uri: z.string().min(1).max(2048).meta({ description: "App redirect URI; must exactly match one in MOBILE_REDIRECT_URIS." }),
    code_challenge: z.string().regex(CODE_CHALLENGE_PATTERN, "Must be BASE64URL(SHA-256(code_verifier)): 43 characters of [A-Za-z0-9_-]").optional().meta({
      description:
        "PKCE (RFC 7636/8252), recommended: BASE64URL(SHA-256(code_verifier)) without padding, 43 characters. The exchange then requires the matching `code_verifier`. Omitted only by legacy clients.",
    }),
    code_challenge_method: z
      .enum(["S256"], { error: "Only S256 is supported (plain is refused)" })
      .optional()
      .meta({ description: "Required with `code_challenge`; only `S256` (`plain` is refused)." }),
  })
  .superRefine((q, ctx) => {
    if (q.code_challenge !== undefined && q.code_challenge_method === undefined) {
      ctx.addIssue({ code: "custom", path: ["code_challenge_method"], message: "Required with code_challenge: S256 (plain is refused)" });
    }
    if (q.code_challenge_method !== undefined && q.code_challenge === undefined) {
      ctx.addIssue({ code: "custom", path: ["code_challenge"], message: "Required with code_challenge_method" });
    }
  });

export const callbackQuery = z.object({
  state: z.string().max(2048).optional(),
  error: z.string().max(200).optional().meta({ description: "Set by the sign-in page when the user cancelled or sign-in failed." }),
});

export const mobileToken = z.string().regex(MOBILE_TOKEN_PATTERN, "Must be exactly 128 hexadecimal characters");
export const codeVerifier = z.string().regex(CODE_VERIFIER_PATTERN, "Must be 43-128 characters of [A-Za-z0-9-._~]").meta({
  description:
    "PKCE code_verifier (43–128 characters of [A-Za-z0-9-._~]) whose S256 digest was sent as `code_challenge` to /api/mobile/start. Required when sign-in started with a challenge; must be absent for a token minted without one (legacy).",
});
export const exchangeBody = z.strictObject({
  token: mobileToken.optional().meta({ description: "The one-time token from the callback's `#token=`; or send it as `Authorization: Bearer <token>`." }),
  code_verifier: codeVerifier.optional(),
});

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

export const logoutResult = z.object({ loggedOut: z.literal(true), sessionRevoked: z.boolean() }).meta({ id: "LogoutResult" });

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
  state: z
    .string({ error: "Required: the app's state, 16-256 characters of [A-Za-z0-9._~-]" })
    .regex(WALLET_STATE_PATTERN, "Must be 16-256 characters of [A-Za-z0-9._~-]")
    .meta({
      description:
        "Required. Opaque value the app generated for this linking attempt (16–256 characters of [A-Za-z0-9._~-]); echoed in the fragment so the app can drop a redirect it did not start.",
    }),
  address: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});

export const mobileTokenPurge = z
  .object({ deleted: z.number().int().min(0).meta({ description: "Mobile session tokens deleted by this run." }) })
  .meta({ id: "MobileTokenPurge" });
