import { execFileSync } from "node:child_process";
import { createPrivateKey, generateKeyPairSync, randomInt, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { CompactSign, jwtVerify } from "jose";
import { sendJson, serveStandIn } from "./http";

// A stand-in for the App Store's signing, for tests and `npm run dev`: a certificate chain shaped as Apple's (a root,
// an intermediate with Apple's WWDR marker extension, a leaf with the App Store receipt-signing one), made with
// openssl, and JWS signed with its leaf as the App Store signs transactions and notifications. A server that trusts
// the chain's root (APPLE_IAP_ROOT_CERTIFICATES) verifies them with Apple's own library.

/** What `npm run dev` configures when APPLE_IAP_BUNDLE_ID is unset (the seeded bundles' product ids start with it). */
export const DEV_APPLE_BUNDLE_ID = "com.example.fanapp";

export interface AppleChain {
  rootPem: string;
  leafKey: string;
  /** base64 DER certificates, leaf first (a JWS's x5c header). */
  x5c: string[];
}

/** Makes the chain's files in `dir` (named `name-*`) once and reads them. */
export function appleChain(dir: string, name: string): AppleChain {
  const file = (f: string) => path.join(dir, `${name}-${f}`);
  if (!existsSync(file("leaf.crt"))) {
    mkdirSync(dir, { recursive: true });
    const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    const run = (args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
    const ca = ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign"];
    run([
      "req",
      "-x509",
      ...ec,
      "-keyout",
      file("root.key"),
      "-out",
      file("root.crt"),
      "-days",
      "3650",
      "-subj",
      `/CN=${name} Root CA`,
      ...ca.flatMap((e) => ["-addext", e]),
    ]);
    const issue = (cn: string, out: string, extensions: string[], issuer: string) => {
      writeFileSync(file(`${out}.cnf`), extensions.join("\n"));
      run(["req", "-new", ...ec, "-keyout", file(`${out}.key`), "-out", file(`${out}.csr`), "-subj", `/CN=${cn}`]);
      run(
        ["x509", "-req", "-in", file(`${out}.csr`), "-CA", file(`${issuer}.crt`), "-CAkey", file(`${issuer}.key`), "-CAcreateserial", "-days", "3650"].concat([
          "-out",
          file(`${out}.crt`),
          "-extfile",
          file(`${out}.cnf`),
        ]),
      );
    };
    issue(`${name} WWDR`, "int", [...ca, "1.2.840.113635.100.6.2.1=ASN1:NULL"], "root");
    issue(`${name} Receipt Signing`, "leaf", ["basicConstraints=critical,CA:FALSE", "1.2.840.113635.100.6.11.1=ASN1:NULL"], "int");
  }
  const der = (crt: string) => readFileSync(file(crt), "utf8").replace(/-----[^-]+-----|\s/g, "");
  return {
    rootPem: readFileSync(file("root.crt"), "utf8"),
    leafKey: readFileSync(file("leaf.key"), "utf8"),
    x5c: [der("leaf.crt"), der("int.crt"), der("root.crt")],
  };
}

/** A consumable purchase as StoreKit 2 records it, made now with a fresh transaction id; `fields` override any part. */
export function consumableTransaction(bundleId: string, fields: Record<string, unknown> = {}) {
  const now = Date.now();
  const transactionId = `2000000${randomInt(1e9, 9e9)}${randomInt(1e3, 9e3)}`;
  return {
    transactionId,
    originalTransactionId: transactionId,
    bundleId,
    purchaseDate: now,
    originalPurchaseDate: now,
    signedDate: now,
    quantity: 1,
    type: "Consumable",
    inAppOwnershipType: "PURCHASED",
    environment: "Sandbox",
    transactionReason: "PURCHASE",
    storefront: "USA",
    storefrontId: "143441",
    price: 4990,
    currency: "USD",
    ...fields,
  };
}

/** `payload` signed as the App Store signs (ES256, the chain in x5c). */
export function signAsAppStore(chain: AppleChain, payload: unknown): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: "ES256", x5c: chain.x5c })
    .sign(createPrivateKey(chain.leafKey));
}

// The App Store Server API ---------------------------------------------------------------------------------------------
// A local stand-in for the parts of Apple's App Store Server API the reconciliation reads (lib/features/payments/app-store-api.ts),
// for tests (tests/setup/server-env/app-store.ts) and `npm run dev`. Requests carry the API key's JWT (ES256; issuer,
// audience appstoreconnect-v1, bid), as Apple's library makes it; the stand-in signs what it answers with the chain.
//  - GET  /inApps/v1/transactions/:id: { signedTransactionInfo }, 404 errorCode 4040010 for an unknown id
//  - POST /inApps/v1/notifications/history[?paginationToken=]: { startDate, endDate } → the notifications sent in the
//    range, 20 a page, with hasMore and paginationToken
//  - control: POST /__control/transactions { appAccountToken, productId, price?, currency?, notify?, endpoint? } makes a
//    consumable purchase and answers { transactionId, signedTransaction, delivered? }: with notify, its ONE_TIME_CHARGE
//    goes into the history (and to the endpoint, when named, as Apple sends it); POST /__control/transactions/:id/refund
//    { endpoint? } revokes it and records (and sends) its REFUND

export interface AppStoreStandIn {
  url: string;
  /** The App Store Server API key: PKCS#8 PEM, its id, the issuer. */
  apiKey: string;
  apiKeyId: string;
  apiIssuerId: string;
  close(): Promise<void>;
}

interface Notification {
  signedDate: number;
  signedPayload: string;
}

const PAGE = 20;

export async function startAppStoreStandIn(o: { chain: AppleChain; bundleId: string; environment?: "Sandbox" | "Production"; port?: number }) {
  const environment = o.environment ?? "Sandbox";
  const apiKeys = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const apiKeyId = "STANDIN01";
  const apiIssuerId = randomUUID();
  const transactions = new Map<string, Record<string, unknown>>();
  const history: Notification[] = [];

  const json = sendJson;
  const authorized = async (req: http.IncomingMessage) => {
    try {
      const { payload } = await jwtVerify((req.headers.authorization ?? "").replace(/^Bearer /, ""), apiKeys.publicKey, {
        algorithms: ["ES256"],
        issuer: apiIssuerId,
        audience: "appstoreconnect-v1",
      });
      return payload.bid === o.bundleId;
    } catch {
      return false;
    }
  };
  /** Records a notification about `t` in the history and, with an endpoint, sends it there as Apple does. */
  const notify = async (type: string, t: Record<string, unknown>, endpoint?: string) => {
    const signedDate = Date.now();
    const signedPayload = await signAsAppStore(o.chain, {
      notificationType: type,
      notificationUUID: randomUUID(),
      version: "2.0",
      signedDate,
      data: { bundleId: o.bundleId, environment, signedTransactionInfo: await signAsAppStore(o.chain, { ...t, signedDate }) },
    });
    history.push({ signedDate, signedPayload });
    if (!endpoint) return undefined;
    const res = await fetch(endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ signedPayload }) });
    return { status: res.status, body: await res.text() };
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, body: string) => {
    const url = new URL(req.url ?? "/", "http://x");
    const refund = /^\/__control\/transactions\/([^/]+)\/refund$/.exec(url.pathname);
    if (req.method === "POST" && url.pathname === "/__control/transactions") {
      const b = JSON.parse(body || "{}") as Record<string, unknown> & { notify?: boolean; endpoint?: string };
      const { notify: send, endpoint, ...fields } = b;
      const t: Record<string, unknown> = consumableTransaction(o.bundleId, { environment, ...fields });
      const transactionId = String(t.transactionId);
      transactions.set(transactionId, t);
      const delivered = send ? await notify("ONE_TIME_CHARGE", t, endpoint) : undefined;
      return json(res, 200, { transactionId, signedTransaction: await signAsAppStore(o.chain, t), delivered });
    }
    if (req.method === "POST" && refund) {
      const t = transactions.get(decodeURIComponent(refund[1]!));
      if (!t) return json(res, 404, { error: "unknown transaction" });
      Object.assign(t, { revocationDate: Date.now(), revocationReason: 0 });
      const delivered = await notify("REFUND", t, (JSON.parse(body || "{}") as { endpoint?: string }).endpoint);
      return json(res, 200, { delivered });
    }
    if (!(await authorized(req))) return json(res, 401, { errorCode: 4010000, errorMessage: "Unauthorized." });
    const lookup = /^\/inApps\/v1\/transactions\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && lookup) {
      const t = transactions.get(decodeURIComponent(lookup[1]!));
      if (!t) return json(res, 404, { errorCode: 4040010, errorMessage: "Transaction id not found." });
      return json(res, 200, { signedTransactionInfo: await signAsAppStore(o.chain, { ...t, signedDate: Date.now() }) });
    }
    if (req.method === "POST" && url.pathname === "/inApps/v1/notifications/history") {
      const { startDate = 0, endDate = Date.now() } = JSON.parse(body || "{}") as { startDate?: number; endDate?: number };
      const from = Number(url.searchParams.get("paginationToken") ?? 0);
      const matching = history.filter((n) => n.signedDate >= startDate && n.signedDate <= endDate);
      const page = matching.slice(from, from + PAGE);
      const hasMore = from + PAGE < matching.length;
      return json(res, 200, {
        notificationHistory: page.map((n) => ({ signedPayload: n.signedPayload, sendAttempts: [] })),
        hasMore,
        paginationToken: hasMore ? String(from + PAGE) : undefined,
      });
    }
    json(res, 404, { errorCode: 4040000, errorMessage: "Not found." });
  };

  const server = await serveStandIn(o.port, handle);
  const standIn: AppStoreStandIn = {
    url: server.url,
    apiKey: apiKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    apiKeyId,
    apiIssuerId,
    close: server.close,
  };
  return standIn;
}
