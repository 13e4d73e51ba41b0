import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import apn from "@parse/node-apn";
import { Expo, type ExpoPushMessage, type ExpoPushReceipt } from "expo-server-sdk";
import { importPKCS8, SignJWT } from "jose";
import webpush from "web-push";
import { z } from "zod";
import { env } from "../../env";
import { log } from "../../kernel/log";
import type { DeviceTarget } from "./queries";

// The push providers behind one shape: send one message to one device, answer what happened. Expo through Expo's
// server SDK (EXPO_BASE_URL, the SDK's own variable, points it at a stand-in), web push through web-push (VAPID
// keys from configuration; the encrypted request is sent with fetch, so a subscription's endpoint may be any URL).
// FCM through its HTTP v1 API with an OAuth2 access token from the service account (FCM_SERVICE_ACCOUNT_JSON; its
// token_uri and FCM_BASE_URL point elsewhere for a stand-in); APNs over HTTP/2 with a provider token (.p8 key) through
// @parse/node-apn (APNS_HOST, and APNS_CA for a stand-in's certificate). A provider that is not configured delivers to
// the development stand-in when PUSH_DEV_STANDIN allows (auto: outside production): the delivery is recorded as
// provider "standin" and logged, and the console shows it; else it is skipped and recorded ("not configured").

export interface PushMessage {
  title: string;
  body: string;
  /** What the app opens, and the outbox row's identity (notification id, type, cause key). */
  data: Record<string, string>;
  /**
   * Groups on the device like the inbox groups (lib/core/notifications groupKeyOf): Expo's and FCM's data.group, web push's
   * and FCM's Android tag, APNs' thread-id.
   */
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
  if (provider === "fcm") return Boolean(e.FCM_SERVICE_ACCOUNT_JSON);
  return Boolean(e.APNS_KEY && e.APNS_KEY_ID && e.APNS_TEAM_ID && e.APNS_TOPIC);
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

// FCM (HTTP v1) -----------------------------------------------------------------------------------------------------

const FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";

const serviceAccountSchema = z.object({
  project_id: z.string().min(1),
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
  token_uri: z.url().default(GOOGLE_TOKEN_URI),
});
type ServiceAccount = z.infer<typeof serviceAccountSchema>;

let serviceAccountCache: ServiceAccount | undefined;
/** FCM_SERVICE_ACCOUNT_JSON: the service account's JSON key itself, or the path of the file holding it. */
function serviceAccount(): ServiceAccount {
  if (serviceAccountCache) return serviceAccountCache;
  const value = env().FCM_SERVICE_ACCOUNT_JSON!.trim();
  const text = value.startsWith("{") ? value : readFileSync(value, "utf8");
  const parsed = serviceAccountSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`FCM_SERVICE_ACCOUNT_JSON: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return (serviceAccountCache = parsed.data);
}

/** Start-up: a configured FCM service account must be complete, its private key readable (not an error at the first push). */
export function assertFcmServiceAccount(): void {
  if (!env().FCM_SERVICE_ACCOUNT_JSON) return;
  try {
    createPrivateKey(serviceAccount().private_key);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(message.startsWith("FCM_SERVICE_ACCOUNT_JSON") ? message : `FCM_SERVICE_ACCOUNT_JSON: ${message}`);
  }
}

let fcmToken: { value: string; expiresAt: number } | undefined;
let fcmTokenPending: Promise<string> | undefined;

/**
 * An OAuth2 access token for FCM: the service account's signed JWT assertion (RFC 7523, RS256, aud = its token_uri)
 * exchanged at its token_uri, kept until 5 minutes before it expires; concurrent sends share one exchange.
 */
async function fcmAccessToken(): Promise<string> {
  if (fcmToken && fcmToken.expiresAt > Date.now() + 300_000) return fcmToken.value;
  return (fcmTokenPending ??= (async () => {
    try {
      const sa = serviceAccount();
      const assertion = await new SignJWT({ scope: FCM_SCOPE })
        .setProtectedHeader({ alg: "RS256", typ: "JWT", ...(sa.private_key_id ? { kid: sa.private_key_id } : {}) })
        .setIssuer(sa.client_email)
        .setAudience(sa.token_uri)
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(await importPKCS8(sa.private_key, "RS256"));
      const res = await fetch(sa.token_uri, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error?: string };
      if (!res.ok || !body.access_token) throw new Error(`FCM token endpoint: HTTP ${res.status} ${body.error ?? ""}`.trim());
      fcmToken = { value: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 };
      return fcmToken.value;
    } finally {
      fcmTokenPending = undefined;
    }
  })());
}

interface FcmError {
  error?: { code?: number; status?: string; message?: string; details?: { "@type"?: string; errorCode?: string; fieldViolations?: { field?: string }[] }[] };
}

/** FCM's verdict on a failed send: the token is dead (404 UNREGISTERED, or 400 INVALID_ARGUMENT about message.token). */
function fcmDead(status: number, body: FcmError): boolean {
  const details = body.error?.details ?? [];
  const codes = [body.error?.status, ...details.map((d) => d.errorCode)];
  if (status === 404 && codes.includes("UNREGISTERED")) return true;
  // INVALID_ARGUMENT is also our own message's fault; only a violation on the token means the token is bad.
  return status === 400 && codes.includes("INVALID_ARGUMENT") && details.some((d) => d.fieldViolations?.some((v) => v.field === "message.token"));
}

async function sendFcm(device: DeviceTarget, m: PushMessage): Promise<SendResult> {
  try {
    const sa = serviceAccount();
    const token = await fcmAccessToken();
    const res = await fetch(`${env().FCM_BASE_URL}/v1/projects/${encodeURIComponent(sa.project_id)}/messages:send`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        message: {
          token: device.token,
          notification: { title: m.title, body: m.body },
          data: { ...m.data, group: m.group },
          android: { ttl: `${24 * 3600}s`, notification: { tag: m.group } },
        },
      }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json().catch(() => ({}))) as FcmError & { name?: string };
    if (res.ok) return { outcome: "ok", provider: "fcm", detail: body.name?.slice(0, 500) };
    if (res.status === 401) fcmToken = undefined; // a refused access token is exchanged again on the next send
    const code = body.error?.details?.find((d) => d.errorCode)?.errorCode ?? body.error?.status ?? "error";
    const detail = `HTTP ${res.status} ${code}: ${body.error?.message ?? ""}`.slice(0, 500);
    return { outcome: fcmDead(res.status, body) ? "dead" : "error", provider: "fcm", detail };
  } catch (error) {
    return { outcome: "error", provider: "fcm", detail: String((error as Error).message ?? error).slice(0, 500) };
  }
}

// APNs (HTTP/2, token-based) ----------------------------------------------------------------------------------------

let apnsClient: apn.Provider | undefined;
/**
 * One HTTP/2 connection to APNS_HOST (a host, or host:port), kept open. @parse/node-apn signs the provider token
 * (ES256, the key id and team id) and signs a new one after 55 minutes (Apple refuses one older than an hour).
 */
function apns(): apn.Provider {
  if (apnsClient) return apnsClient;
  const e = env();
  const [address, port] = e.APNS_HOST.split(":") as [string, string | undefined];
  return (apnsClient = new apn.Provider({
    token: { key: pemOrFile(e.APNS_KEY!), keyId: e.APNS_KEY_ID!, teamId: e.APNS_TEAM_ID! },
    address,
    port: port ? Number(port) : 443,
    production: address === "api.push.apple.com",
    requestTimeout: 10_000,
    ...(e.APNS_CA ? { ca: [pemOrFile(e.APNS_CA)] } : {}),
  }));
}
const pemOrFile = (value: string) => (value.includes("-----BEGIN") ? value.replace(/\\n/g, "\n") : readFileSync(value, "utf8"));

async function sendApns(device: DeviceTarget, m: PushMessage): Promise<SendResult> {
  try {
    const note = new apn.Notification();
    note.topic = env().APNS_TOPIC!;
    note.pushType = "alert";
    note.alert = { title: m.title, body: m.body };
    note.sound = "default";
    note.threadId = m.group;
    note.expiry = Math.floor(Date.now() / 1000) + 24 * 3600;
    note.payload = { ...m.data };
    const { sent, failed } = await apns().send(note, device.token);
    if (sent.length > 0) return { outcome: "ok", provider: "apns" };
    const f = failed[0];
    // A failure is { status, response: { reason } } from APNs, { error } from the connection, or a thrown Error.
    const reason = f?.response?.reason ?? f?.error?.message ?? (f as unknown as Error | undefined)?.message ?? "no answer";
    const detail = `${f?.status ? `HTTP ${f.status} ` : ""}${reason}`.slice(0, 500);
    const dead = f?.status === 410 || (f?.status === 400 && reason === "BadDeviceToken");
    return { outcome: dead ? "dead" : "error", provider: "apns", detail };
  } catch (error) {
    return { outcome: "error", provider: "apns", detail: String((error as Error).message ?? error).slice(0, 500) };
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
  if (device.provider === "expo") return sendExpo(device, m);
  if (device.provider === "fcm") return sendFcm(device, m);
  if (device.provider === "apns") return sendApns(device, m);
  return sendWebPush(device, m);
}
