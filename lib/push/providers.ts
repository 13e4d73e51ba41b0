import { Expo, type ExpoPushMessage, type ExpoPushReceipt } from "expo-server-sdk";
import webpush from "web-push";
import { env } from "../env";
import { log } from "../kernel/log";
import type { DeviceTarget } from "./queries";

// The push providers behind one shape: send one message to one device, answer what happened. Expo through Expo's
// server SDK (EXPO_BASE_URL, the SDK's own variable, points it at a stand-in), web push through web-push (VAPID
// keys from configuration; the encrypted request is sent with fetch, so a subscription's endpoint may be any URL).
// FCM and APNs are not implemented yet: their devices are skipped and recorded ("not configured"). A provider that
// is not configured delivers to the development stand-in when PUSH_DEV_STANDIN allows (auto: outside production):
// the delivery is recorded as provider "standin" and logged, and the console shows it.

export interface PushMessage {
  title: string;
  body: string;
  /** What the app opens, and the outbox row's identity (notification id, type, cause key). */
  data: Record<string, string>;
  /** Groups on the device like the inbox groups (lib/notifications groupKeyOf): Expo's data.group, web push's tag. */
  group: string;
}

export type SendResult =
  | { outcome: "ok"; provider: string; ticketId?: string; detail?: string }
  | { outcome: "dead"; provider: string; detail: string }
  | { outcome: "error"; provider: string; detail: string }
  | { outcome: "skipped"; provider: string; detail: string };

const production = () => env().NODE_ENV === "production";
const standInOn = () => (env().PUSH_DEV_STANDIN === "auto" ? !production() : env().PUSH_DEV_STANDIN === "on");

/** Whether a provider is configured here (else: the stand-in, or skipped). */
export function configured(provider: DeviceTarget["provider"]): boolean {
  const e = env();
  if (provider === "expo") return production() || Boolean(e.EXPO_ACCESS_TOKEN || e.EXPO_BASE_URL);
  if (provider === "webpush") return Boolean(e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY);
  return false;
}

let expoClient: Expo | undefined;
const expo = () => (expoClient ??= new Expo({ accessToken: env().EXPO_ACCESS_TOKEN, retryMinTimeout: 200 }));

async function sendExpo(device: DeviceTarget, m: PushMessage): Promise<SendResult> {
  const message: ExpoPushMessage = { to: device.token, title: m.title, body: m.body, data: { ...m.data, group: m.group }, sound: "default" };
  try {
    const [ticket] = await expo().sendPushNotificationsAsync([message]);
    if (ticket?.status === "ok") return { outcome: "ok", provider: "expo", ticketId: ticket.id };
    const code = ticket?.details?.error;
    if (code === "DeviceNotRegistered") return { outcome: "dead", provider: "expo", detail: code };
    return { outcome: "error", provider: "expo", detail: `${code ?? "error"}: ${ticket?.message ?? "no ticket"}`.slice(0, 500) };
  } catch (error) {
    return { outcome: "error", provider: "expo", detail: String((error as Error).message ?? error).slice(0, 500) };
  }
}

/** Expo receipts by ticket id: DeviceNotRegistered there means the token is dead too. */
export async function expoReceipts(ticketIds: string[]): Promise<Record<string, ExpoPushReceipt>> {
  return expo().getPushNotificationReceiptsAsync(ticketIds);
}

async function sendWebPush(device: DeviceTarget, m: PushMessage): Promise<SendResult> {
  const e = env();
  try {
    const request = webpush.generateRequestDetails(
      { endpoint: device.token, keys: device.webpushKeys! },
      JSON.stringify({ title: m.title, body: m.body, data: m.data, tag: m.group }),
      { vapidDetails: { subject: e.VAPID_SUBJECT, publicKey: e.VAPID_PUBLIC_KEY!, privateKey: e.VAPID_PRIVATE_KEY! }, TTL: 24 * 3600 },
    );
    const res = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body as Uint8Array<ArrayBuffer> | null,
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel();
    if (res.status >= 200 && res.status < 300) return { outcome: "ok", provider: "webpush" };
    if (res.status === 404 || res.status === 410) return { outcome: "dead", provider: "webpush", detail: `HTTP ${res.status}` };
    return { outcome: "error", provider: "webpush", detail: `HTTP ${res.status}` };
  } catch (error) {
    return { outcome: "error", provider: "webpush", detail: String((error as Error).message ?? error).slice(0, 500) };
  }
}

function sendStandIn(device: DeviceTarget, m: PushMessage): SendResult {
  log("info", { msg: "push (development stand-in)", provider: device.provider, deviceId: device.id, title: m.title, body: m.body });
  return { outcome: "ok", provider: "standin", detail: `for ${device.provider}` };
}

/** Sends one message to one device through its provider (or the stand-in, or skips it when neither). */
export async function sendToDevice(device: DeviceTarget, m: PushMessage): Promise<SendResult> {
  if (!configured(device.provider)) {
    if (standInOn()) return sendStandIn(device, m);
    return { outcome: "skipped", provider: device.provider, detail: "not configured" };
  }
  return device.provider === "expo" ? sendExpo(device, m) : sendWebPush(device, m);
}
