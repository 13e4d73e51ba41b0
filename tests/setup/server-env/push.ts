import { generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { decodeProtectedHeader, jwtVerify } from "jose";
import webpush from "web-push";
import type { Fixture } from "../test-server";
import { selfSignedCertificate } from "../tls";

// Local stand-ins for the push providers (lib/core/push/providers.ts). The server under test uses the real Expo server SDK
// pointed here with EXPO_BASE_URL, and web push subscriptions whose endpoints are this server's /webpush/<name>.
//  - Expo: POST /--/api/v2/push/send answers a ticket per message by the token's text: "Dead" → DeviceNotRegistered,
//    "Fail" → a 500 for the whole request, "ReceiptDead" → an ok ticket whose receipt says DeviceNotRegistered,
//    anything else → ok. POST /--/api/v2/push/getReceipts answers those receipts.
//  - Web push: POST /webpush/<name> answers 410 when the name starts with "gone", 404 with "missing", 500 with
//    "fail", else 201.
//  - FCM (HTTP v1): the server gets a throw-away service account whose token_uri is POST /fcm/token here (it checks
//    the RS256 assertion against the account's public key, iss, aud and scope, then issues "fcm-access-<n>"; GET
//    /__control/fcm-tokens lists those issued) and FCM_BASE_URL pointing here: POST /v1/projects/<project>/messages:send
//    answers 401 UNAUTHENTICATED without an issued bearer, else by the token's start: "dead" → 404 UNREGISTERED,
//    "malformed" → 400 INVALID_ARGUMENT on message.token, "badmsg" → 400 INVALID_ARGUMENT not about the token,
//    "fail" → 500, anything else → 200 with the message's name.
//  - APNs: an HTTP/2 server over TLS (a throw-away certificate for 127.0.0.1 made by openssl, trusted by the server
//    under test through APNS_CA) with a throw-away ES256 key as APNS_KEY. POST /3/device/<token> checks the bearer
//    provider token (signature with the key's public half, kid, iss = the team id) and answers by the token's start:
//    "dead" → 410 Unregistered, "badd" → 400 BadDeviceToken, anything else → 200.
//  - GET /__control/sent lists every message received: { kind: "expo" | "webpush" | "fcm" | "apns", to, title?,
//    body?, data?, … } (FCM: authorization, tag; APNs: topic, pushType, threadId, authorization, bearerValid).

export default async function pushStandIn(): Promise<Fixture> {
  const sent: ({ kind: string; to: string; title?: string; body?: string; data?: unknown } & Record<string, unknown>)[] = [];
  const deadReceipts = new Set<string>();
  let tickets = 0;
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const text = () => (req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (req.method === "GET" && path === "/__control/sent") return json(res, 200, sent);
      if (req.method === "GET" && path === "/__control/fcm-tokens") return json(res, 200, [...fcmIssued]);
      if (req.method === "POST" && path === "/fcm/token") {
        const form = new URLSearchParams(text());
        if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return json(res, 400, { error: "unsupported_grant_type" });
        return void jwtVerify(form.get("assertion") ?? "", fcmKeys.publicKey, {
          algorithms: ["RS256"],
          issuer: FCM_CLIENT_EMAIL,
          audience: `${url}/fcm/token`,
        }).then(
          ({ payload }) => {
            if (payload.scope !== "https://www.googleapis.com/auth/firebase.messaging") return json(res, 400, { error: "invalid_scope" });
            const token = `fcm-access-${fcmIssued.size + 1}`;
            fcmIssued.add(token);
            json(res, 200, { access_token: token, expires_in: 3599, token_type: "Bearer" });
          },
          () => json(res, 400, { error: "invalid_grant" }),
        );
      }
      const fcmSend = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(path);
      if (req.method === "POST" && fcmSend) {
        const authorization = req.headers.authorization ?? "";
        if (!fcmIssued.has(authorization.replace(/^Bearer /, "")))
          return json(res, 401, { error: { code: 401, status: "UNAUTHENTICATED", message: "Request had invalid authentication credentials." } });
        const { message } = JSON.parse(text()) as {
          message: { token: string; notification?: { title?: string; body?: string }; data?: unknown; android?: { notification?: { tag?: string } } };
        };
        sent.push({
          kind: "fcm",
          to: message.token,
          title: message.notification?.title,
          body: message.notification?.body,
          data: message.data,
          tag: message.android?.notification?.tag,
          project: fcmSend[1],
          authorization,
        });
        const fcmError = (code: number, status: string, errorCode: string, msg: string, field?: string) =>
          json(res, code, {
            error: {
              code,
              status,
              message: msg,
              details: [
                { "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode },
                ...(field ? [{ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field, description: msg }] }] : []),
              ],
            },
          });
        if (message.token.startsWith("dead")) return fcmError(404, "NOT_FOUND", "UNREGISTERED", "Requested entity was not found.");
        if (message.token.startsWith("malformed"))
          return fcmError(400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", "The registration token is not a valid FCM registration token", "message.token");
        if (message.token.startsWith("badmsg")) return fcmError(400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", "Invalid JSON payload", "message.data");
        if (message.token.startsWith("fail")) return fcmError(500, "INTERNAL", "INTERNAL", "stand-in failure");
        return json(res, 200, { name: `projects/${fcmSend[1]}/messages/${++tickets}` });
      }
      if (req.method === "POST" && path === "/--/api/v2/push/send") {
        const messages = JSON.parse(text()) as { to: string; title?: string; body?: string; data?: unknown }[];
        if (messages.some((m) => m.to.includes("Fail"))) return json(res, 500, { errors: [{ code: "INTERNAL_SERVER_ERROR", message: "stand-in failure" }] });
        const data = messages.map((m) => {
          sent.push({ kind: "expo", to: m.to, title: m.title, body: m.body, data: m.data });
          if (m.to.includes("ReceiptDead")) {
            const id = `receipt-${++tickets}`;
            deadReceipts.add(id);
            return { status: "ok", id };
          }
          if (m.to.includes("Dead"))
            return { status: "error", message: `"${m.to}" is not a registered push notification recipient`, details: { error: "DeviceNotRegistered" } };
          return { status: "ok", id: `ticket-${++tickets}` };
        });
        return json(res, 200, { data });
      }
      if (req.method === "POST" && path === "/--/api/v2/push/getReceipts") {
        const { ids } = JSON.parse(text()) as { ids: string[] };
        const data = Object.fromEntries(
          ids.map((id) => [id, deadReceipts.has(id) ? { status: "error", message: "gone", details: { error: "DeviceNotRegistered" } } : { status: "ok" }]),
        );
        return json(res, 200, { data });
      }
      if (req.method === "POST" && path.startsWith("/webpush/")) {
        const name = path.slice("/webpush/".length);
        sent.push({ kind: "webpush", to: `http://${req.headers.host}${path}` });
        res.writeHead(name.startsWith("gone") ? 410 : name.startsWith("missing") ? 404 : name.startsWith("fail") ? 500 : 201);
        return res.end();
      }
      json(res, 404, { error: "unknown" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const vapid = webpush.generateVAPIDKeys();
  const serviceAccount = {
    type: "service_account",
    project_id: FCM_PROJECT,
    private_key_id: "stand-in-key-1",
    private_key: fcmKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: FCM_CLIENT_EMAIL,
    token_uri: `${url}/fcm/token`,
  };
  const apnsServer = await apnsStandIn(sent);
  return {
    env: {
      EXPO_BASE_URL: url,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: "mailto:push-tests@example.com",
      PUSH_MAX_ATTEMPTS: "3",
      PUSH_RETRY_BASE_SECONDS: "60",
      PUSH_EXPO_RECEIPT_DELAY_SECONDS: "0",
      FCM_SERVICE_ACCOUNT_JSON: JSON.stringify(serviceAccount),
      FCM_BASE_URL: url,
      APNS_KEY: apnsServer.key,
      APNS_KEY_ID: APNS_KEY_ID,
      APNS_TEAM_ID: APNS_TEAM_ID,
      APNS_TOPIC: APNS_TOPIC,
      APNS_HOST: `127.0.0.1:${apnsServer.port}`,
      APNS_CA: apnsServer.cert,
    },
    provided: { url, fcmProject: FCM_PROJECT, apnsTopic: APNS_TOPIC, apnsKeyId: APNS_KEY_ID, apnsTeamId: APNS_TEAM_ID },
    teardown: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await apnsServer.close();
    },
  };
}

const FCM_PROJECT = "push-stand-in";
const FCM_CLIENT_EMAIL = "push@push-stand-in.iam.gserviceaccount.com";
const fcmKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const fcmIssued = new Set<string>();
const APNS_KEY_ID = "STANDIN001";
const APNS_TEAM_ID = "TEAMSTAND1";
const APNS_TOPIC = "com.example.fanapp";

/** The APNs stand-in: HTTP/2 over TLS on 127.0.0.1 with a throw-away certificate; records into `sent`. */
async function apnsStandIn(sent: Record<string, unknown>[]) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "apns-standin-"));
  const { key, cert } = selfSignedCertificate(tmp, "127.0.0.1", "IP:127.0.0.1,DNS:localhost");
  const providerKey = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const sessions = new Set<http2.ServerHttp2Session>();
  const server = http2.createSecureServer({ key, cert });
  server.on("session", (s) => (sessions.add(s), s.on("close", () => sessions.delete(s))));
  server.on("stream", (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", async () => {
      const answer = (status: number, body?: unknown) => {
        stream.respond({ ":status": status, "apns-id": randomUUID(), ...(body ? { "content-type": "application/json" } : {}) });
        stream.end(body ? JSON.stringify(body) : undefined);
      };
      const match = /^\/3\/device\/([0-9a-fA-F]+)$/.exec(String(headers[":path"]));
      if (headers[":method"] !== "POST" || !match) return answer(404, { reason: "BadPath" });
      const authorization = String(headers.authorization ?? "");
      const jwt = authorization.replace(/^bearer /i, "");
      let bearerValid = false;
      try {
        await jwtVerify(jwt, providerKey.publicKey, { algorithms: ["ES256"], issuer: APNS_TEAM_ID });
        bearerValid = decodeProtectedHeader(jwt).kid === APNS_KEY_ID;
      } catch {
        bearerValid = false;
      }
      const payload = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as {
        aps?: { alert?: { title?: string; body?: string }; "thread-id"?: string };
      };
      const to = match[1]!;
      sent.push({
        kind: "apns",
        to,
        title: payload.aps?.alert?.title,
        body: payload.aps?.alert?.body,
        data: payload,
        topic: headers["apns-topic"],
        pushType: headers["apns-push-type"],
        threadId: payload.aps?.["thread-id"],
        authorization,
        bearerValid,
      });
      if (!bearerValid) return answer(403, { reason: "InvalidProviderToken" });
      if (to.startsWith("dead")) return answer(410, { reason: "Unregistered", timestamp: Date.now() });
      if (to.startsWith("badd")) return answer(400, { reason: "BadDeviceToken" });
      answer(200);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cert,
    key: providerKey.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    close: async () => {
      for (const s of sessions) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
