import { z } from "zod";
import { isoDateTime } from "../http/schemas";

export const settings = z
  .object({
    privateProfile: z.boolean().meta({ description: "Mirrors the user's private flag." }),
    notifyTeams: z.boolean(),
    notifyMilestones: z.boolean(),
    notifyCommunity: z.boolean(),
    analyticsPersonalization: z.boolean().meta({ description: "When false, feed signals are dropped, not stored." }),
  })
  .meta({ id: "UserSettings" });

export const settingsPatch = z
  .strictObject({
    privateProfile: z.boolean().optional(),
    notifyTeams: z.boolean().optional(),
    notifyMilestones: z.boolean().optional(),
    notifyCommunity: z.boolean().optional(),
    analyticsPersonalization: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "Send at least one setting." })
  .meta({ id: "UserSettingsPatch" });

export const me = z
  .object({
    id: z.string(),
    handle: z.string().nullable(),
    displayName: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    bio: z.string().nullable(),
    isPrivate: z.boolean(),
    role: z.enum(["fan", "admin"]),
    onboarded: z.boolean(),
    ugcTermsVersion: z.string().nullable(),
    repBalance: z.number().int(),
    claimedRewardsCount: z.number().int(),
    settings,
    createdAt: isoDateTime,
  })
  .meta({ id: "CurrentUser" });

export const HANDLE_PATTERN = /^[A-Za-z0-9_]{3,30}$/;
export const checkUsernameQuery = z.strictObject({
  username: z
    .string()
    .regex(HANDLE_PATTERN, "3-30 characters: letters, digits and underscores")
    .meta({ description: "Display handle to check (case-insensitive)." }),
});
export const usernameAvailability = z.object({ available: z.boolean() }).meta({ id: "UsernameAvailability" });

export type SettingsPatch = z.infer<typeof settingsPatch>;
