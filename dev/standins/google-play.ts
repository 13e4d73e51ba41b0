import { generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from "node:crypto";
import type http from "node:http";
import { exportJWK, jwtVerify, SignJWT } from "jose";
import { sendJson, serveStandIn } from "./http";

// A local stand-in for the parts of Google that Android purchases use (lib/features/payments/google-play.ts), for tests
// (tests/setup/server-env/google-play.ts) and `npm run dev`. The service talks to it with google-auth-library and
// fetch (GOOGLE_PLAY_API_URL; the service account's token_uri; GOOGLE_PLAY_PUSH_CERTS_URL).
//  - POST /token: the service account's assertion (RS256, its key; iss the account, the androidpublisher scope)
//    exchanged for an access token ("ya29.standin-<n>")
//  - GET  /androidpublisher/v3/applications/:package/purchases/products/:product/tokens/:token (401 without an issued
//    token, 404 for a purchase not registered), POST …:acknowledge and …:consume (counted per purchase)
//  - GET …/applications/:package/orders:batchGet?orderIds=… (the orders known, state PROCESSED, REFUNDED or
//    CANCELED) and …/purchases/voidedpurchases?startTime=&token= (the voided ones, 2 a page to exercise paging)
//  - GET /oauth2/v1/certs (PEM by kid) and /oauth2/v3/certs (JWKS): the keys Google signs Pub/Sub OIDC tokens with
//  - control: POST /__control/purchases { productId, obfuscatedExternalAccountId?, purchaseToken?, orderId?,
//    purchaseState?, purchaseType?, packageName? } registers (or updates, by token) a purchase and answers it;
//    GET /__control/purchases/:token answers it with its acknowledge and consume counts; POST
//    /__control/purchases/:token/void { revoke? } refunds it (revoked unless `revoke: false`: then Play lists it as
//    REFUNDED but not voided); POST /__control/oidc-token
//    { audience, email?, emailVerified?, expiresIn?, untrusted? } answers { token } (untrusted: signed by a key the
//    certificates do not list); POST /__control/notify { endpoint, notification, messageId? } pushes a
//    DeveloperNotification to the endpoint as Pub/Sub would (with an OIDC token) and answers its status and body

export interface GooglePlayStandIn {
  url: string;
  packageName: string;
  /** The service account JSON key (its token_uri is this stand-in's). */
  serviceAccount: string;
  pushAudience: string;
  pushServiceAccount: string;
  close(): Promise<void>;
}

interface Purchase {
  packageName: string;
  productId: string;
  purchaseToken: string;
  orderId?: string;
  purchaseState: number;
  consumptionState: number;
  acknowledgementState: number;
  purchaseType?: number;
  obfuscatedExternalAccountId?: string;
  purchaseTimeMillis: string;
  regionCode: string;
  acknowledgeCalls: number;
  consumeCalls: number;
  priceMicros: number;
  currency: string;
  refundedAt?: number;
  revoked?: boolean;
}

const SCOPE = "https://www.googleapis.com/auth/androidpublisher";
const KID = "standin-oidc-1";

export async function startGooglePlayStandIn(o: { packageName?: string; port?: number } = {}): Promise<GooglePlayStandIn> {
  const packageName = o.packageName ?? "com.example.fans";
  const accountKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signing = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const untrusted = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const clientEmail = "play-billing@standin-project.iam.gserviceaccount.com";
  const pushServiceAccount = "pubsub-push@standin-project.iam.gserviceaccount.com";
  const pushAudience = `standin-audience-${randomUUID()}`;
  const issued = new Set<string>();
  const purchases = new Map<string, Purchase>();
  let base = "";

  const json = (res: http.ServerResponse, status: number, body: unknown) => sendJson(res, status, body, { "Cache-Control": "no-store" });
  const apiError = (res: http.ServerResponse, code: number, status: string, message: string) => json(res, code, { error: { code, status, message } });
  const view = (p: Purchase) => {
    const {
      acknowledgeCalls: _a,
      consumeCalls: _c,
      packageName: _p,
      purchaseToken: _t,
      priceMicros: _m,
      currency: _u,
      refundedAt: _r,
      revoked: _v,
      ...rest
    } = p;
    return { kind: "androidpublisher#productPurchase", ...rest, quantity: 1 };
  };

  const oidcToken = async (b: { audience: string; email?: string; emailVerified?: boolean; expiresIn?: number; untrusted?: boolean }) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ email: b.email ?? pushServiceAccount, email_verified: b.emailVerified ?? true, azp: "1234567890" })
      .setProtectedHeader({ alg: "RS256", kid: KID, typ: "JWT" })
      .setIssuer("https://accounts.google.com")
      .setSubject("1234567890")
      .setAudience(b.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + (b.expiresIn ?? 3600))
      .sign((b.untrusted ? untrusted : signing).privateKey as KeyObject);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, body: string) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (req.method === "POST" && path === "/token") {
      const form = new URLSearchParams(body);
      if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return json(res, 400, { error: "unsupported_grant_type" });
      try {
        const { payload } = await jwtVerify(form.get("assertion") ?? "", accountKeys.publicKey, {
          algorithms: ["RS256"],
          issuer: clientEmail,
          audience: ["https://oauth2.googleapis.com/token", `${base}/token`],
        });
        if (
          !String(payload.scope ?? "")
            .split(" ")
            .includes(SCOPE)
        )
          return json(res, 400, { error: "invalid_scope" });
      } catch {
        return json(res, 400, { error: "invalid_grant", error_description: "Invalid JWT signature." });
      }
      const token = `ya29.standin-${issued.size + 1}-${randomBytes(6).toString("hex")}`;
      issued.add(token);
      return json(res, 200, { access_token: token, expires_in: 3599, token_type: "Bearer" });
    }
    if (req.method === "GET" && path === "/oauth2/v1/certs") {
      return json(res, 200, { [KID]: signing.publicKey.export({ type: "spki", format: "pem" }).toString() });
    }
    if (req.method === "GET" && path === "/oauth2/v3/certs") {
      return json(res, 200, { keys: [{ ...(await exportJWK(signing.publicKey)), kid: KID, alg: "RS256", use: "sig" }] });
    }
    const orders = /^\/androidpublisher\/v3\/applications\/([^/]+)\/(orders:batchGet|purchases\/voidedpurchases)$/.exec(path);
    if (orders && req.method === "GET") {
      if (!issued.has((req.headers.authorization ?? "").replace(/^Bearer /, ""))) {
        return apiError(res, 401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
      }
      const query = new URL(req.url ?? "/", "http://x").searchParams;
      const ofApp = [...purchases.values()].filter((p) => p.packageName === decodeURIComponent(orders[1]!) && p.orderId);
      if (orders[2] === "orders:batchGet") {
        const ids = new Set(query.getAll("orderIds"));
        const state = (p: Purchase) => (p.refundedAt ? "REFUNDED" : p.purchaseState === 1 ? "CANCELED" : p.purchaseState === 2 ? "PENDING" : "PROCESSED");
        return json(res, 200, {
          orders: ofApp
            .filter((p) => ids.has(p.orderId!))
            .map((p) => ({
              orderId: p.orderId,
              purchaseToken: p.purchaseToken,
              state: state(p),
              createTime: new Date(Number(p.purchaseTimeMillis)).toISOString(),
              total: { currencyCode: p.currency, units: String(Math.floor(p.priceMicros / 1e6)), nanos: (p.priceMicros % 1e6) * 1000 },
            })),
        });
      }
      const since = Number(query.get("startTime") ?? 0);
      const voided = ofApp.filter((p) => p.refundedAt && p.revoked && p.refundedAt >= since);
      const from = Number(query.get("token") ?? 0);
      const next = from + 2 < voided.length ? String(from + 2) : undefined;
      return json(res, 200, {
        voidedPurchases: voided.slice(from, from + 2).map((p) => ({
          kind: "androidpublisher#voidedPurchase",
          purchaseToken: p.purchaseToken,
          orderId: p.orderId,
          purchaseTimeMillis: p.purchaseTimeMillis,
          voidedTimeMillis: String(p.refundedAt),
          voidedSource: 0,
          voidedReason: 1,
        })),
        ...(next ? { tokenPagination: { nextPageToken: next } } : {}),
      });
    }
    const api = /^\/androidpublisher\/v3\/applications\/([^/]+)\/purchases\/products\/([^/]+)\/tokens\/([^/:]+)(:acknowledge|:consume)?$/.exec(path);
    if (api) {
      if (!issued.has((req.headers.authorization ?? "").replace(/^Bearer /, ""))) {
        return apiError(res, 401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
      }
      const [, pkg, productId, token, action] = api.map((s) => (s ? decodeURIComponent(s) : s));
      const p = purchases.get(token!);
      if (!p || p.packageName !== pkg || p.productId !== productId) return apiError(res, 404, "NOT_FOUND", "The purchase token was not found.");
      if (req.method === "GET" && !action) return json(res, 200, view(p));
      if (req.method === "POST" && action === ":acknowledge") {
        p.acknowledgeCalls++;
        p.acknowledgementState = 1;
        return json(res, 200, {});
      }
      if (req.method === "POST" && action === ":consume") {
        p.consumeCalls++;
        p.consumptionState = 1;
        p.acknowledgementState = 1;
        return json(res, 200, {});
      }
      return apiError(res, 405, "METHOD_NOT_ALLOWED", "Not supported by the stand-in.");
    }
    if (req.method === "POST" && path === "/__control/purchases") {
      const b = JSON.parse(body || "{}") as Partial<Purchase>;
      const token = b.purchaseToken ?? `standin.${randomBytes(24).toString("base64url")}`;
      const existing = purchases.get(token);
      const p: Purchase = {
        packageName,
        productId: "",
        purchaseToken: token,
        orderId: `GPA.${randomBytes(2).readUInt16BE()}-${randomBytes(2).readUInt16BE()}-${randomBytes(2).readUInt16BE()}-${randomBytes(3).readUIntBE(0, 3)}`,
        purchaseState: 0,
        consumptionState: 0,
        acknowledgementState: 0,
        purchaseTimeMillis: String(Date.now()),
        regionCode: "US",
        acknowledgeCalls: 0,
        consumeCalls: 0,
        priceMicros: 4_990_000,
        currency: "USD",
        ...existing,
        ...b,
      };
      purchases.set(token, p);
      return json(res, 200, p);
    }
    const voiding = /^\/__control\/purchases\/([^/]+)\/void$/.exec(path);
    if (req.method === "POST" && voiding) {
      const p = purchases.get(decodeURIComponent(voiding[1]!));
      if (!p) return json(res, 404, { error: "unknown purchase" });
      Object.assign(p, { refundedAt: Date.now(), revoked: (JSON.parse(body || "{}") as { revoke?: boolean }).revoke !== false, purchaseState: 1 });
      return json(res, 200, p);
    }
    const control = /^\/__control\/purchases\/([^/]+)$/.exec(path);
    if (req.method === "GET" && control) {
      const p = purchases.get(decodeURIComponent(control[1]!));
      return p ? json(res, 200, p) : json(res, 404, { error: "unknown purchase" });
    }
    if (req.method === "POST" && path === "/__control/oidc-token") {
      return json(res, 200, { token: await oidcToken(JSON.parse(body || "{}")) });
    }
    if (req.method === "POST" && path === "/__control/notify") {
      const b = JSON.parse(body) as { endpoint: string; notification: Record<string, unknown>; messageId?: string; audience?: string };
      const messageId = b.messageId ?? String(Date.now()) + String(Math.floor(Math.random() * 1e6));
      const notification = { version: "1.0", packageName, eventTimeMillis: String(Date.now()), ...b.notification };
      const delivered = await fetch(b.endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${await oidcToken({ audience: b.audience ?? pushAudience })}` },
        body: JSON.stringify({
          message: {
            data: Buffer.from(JSON.stringify(notification)).toString("base64"),
            messageId,
            message_id: messageId,
            publishTime: new Date().toISOString(),
          },
          subscription: "projects/standin-project/subscriptions/play-rtdn",
        }),
      });
      return json(res, 200, { status: delivered.status, body: await delivered.text() });
    }
    json(res, 404, { error: "unknown" });
  };

  const server = await serveStandIn(o.port, handle);
  base = server.url;
  const serviceAccount = JSON.stringify({
    type: "service_account",
    project_id: "standin-project",
    private_key_id: "standin-key-1",
    private_key: accountKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: clientEmail,
    token_uri: `${base}/token`,
  });
  return {
    url: base,
    packageName,
    serviceAccount,
    pushAudience,
    pushServiceAccount,
    close: server.close,
  };
}
