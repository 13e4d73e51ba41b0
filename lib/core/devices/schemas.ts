import { z } from "zod";
import { intlTimeZone, isoDateTime, uuidString } from "../../kernel/schemas";

export const DEVICES_MAX = 20;
export const PROVIDERS = ["expo", "fcm", "apns", "webpush"] as const;
export const PLATFORMS = ["ios", "android", "web"] as const;

const validTimezone = (tz: string) => intlTimeZone(tz) !== null;

const details = {
  platform: z.enum(PLATFORMS),
  appVersion: z.string().trim().min(1).max(32).optional().meta({ description: "The app's version, e.g. 2.4.1." }),
  locale: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "A BCP 47 language tag, e.g. en-GB")
    .optional(),
  timezone: z.string().max(64).refine(validTimezone, "An IANA time zone, e.g. Europe/London").optional(),
};

const token = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .meta({ description: "The provider's push token (Expo push token, FCM registration token, APNs device token)." });

export const deviceBody = z
  .discriminatedUnion("provider", [
    z.strictObject({ provider: z.enum(["expo", "fcm", "apns"]), token, ...details }),
    z.strictObject({
      provider: z.literal("webpush"),
      subscription: z
        .strictObject({
          endpoint: z.url({ protocol: /^https$/ }).max(2048),
          keys: z.strictObject({ p256dh: z.string().min(1).max(256), auth: z.string().min(1).max(64) }),
        })
        .meta({ description: "The browser's PushSubscription (its JSON): the endpoint and its keys." }),
      ...details,
    }),
  ])
  .meta({ id: "DeviceRegistration" });
export type DeviceBody = z.infer<typeof deviceBody>;

export const devicePatch = z
  .strictObject({ appVersion: details.appVersion, locale: details.locale, timezone: details.timezone })
  .refine((b) => Object.keys(b).length > 0, "Send at least one of appVersion, locale, timezone")
  .meta({ id: "DevicePatch" });

export const deviceParams = z.strictObject({ deviceId: uuidString("Device id (UUID).") });

export const device = z
  .object({
    id: z.string(),
    provider: z.enum(PROVIDERS),
    platform: z.enum(PLATFORMS),
    appVersion: z.string().nullable(),
    locale: z.string().nullable(),
    timezone: z.string().nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: "Device", description: "A registered push device. Its token is never answered back." });

export const deviceResult = z.object({ device }).meta({ id: "DeviceResult" });
export const deviceList = z.object({ devices: z.array(device) }).meta({ id: "DeviceList" });
export const deviceRemoved = z.object({ removed: z.boolean() }).meta({ id: "DeviceRemoved" });

export const logoutBody = z
  .strictObject({ deviceId: uuidString("The signing-out device's registration (POST /api/v1/me/devices): it stops getting pushes.").optional() })
  .meta({ id: "LogoutBody" });
