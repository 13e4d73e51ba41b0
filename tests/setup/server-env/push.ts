import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import webpush from "web-push";
import type { Fixture } from "../test-server";

// Local stand-ins for the push providers (lib/push/providers.ts). The server under test uses the real Expo server SDK
// pointed here with EXPO_BASE_URL, and web push subscriptions whose endpoints are this server's /webpush/<name>.
//  - Expo: POST /--/api/v2/push/send answers a ticket per message by the token's text: "Dead" → DeviceNotRegistered,
//    "Fail" → a 500 for the whole request, "ReceiptDead" → an ok ticket whose receipt says DeviceNotRegistered,
//    anything else → ok. POST /--/api/v2/push/getReceipts answers those receipts.
//  - Web push: POST /webpush/<name> answers 410 when the name starts with "gone", 404 with "missing", 500 with
//    "fail", else 201.
//  - GET /__control/sent lists every message received: { kind: "expo" | "webpush", to, title?, body?, data? }.

export default async function pushStandIn(): Promise<Fixture> {
  const sent: { kind: string; to: string; title?: string; body?: string; data?: unknown }[] = [];
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
  return {
    env: {
      EXPO_BASE_URL: url,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: "mailto:push-tests@example.com",
      PUSH_MAX_ATTEMPTS: "3",
      PUSH_RETRY_BASE_SECONDS: "60",
      PUSH_EXPO_RECEIPT_DELAY_SECONDS: "0",
    },
    provided: { url },
    teardown: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
