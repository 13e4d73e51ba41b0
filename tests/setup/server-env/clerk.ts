import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Fixture } from "../test-server";

// A local stand-in for the few Clerk Backend API endpoints the service calls. The server under test uses the
// real @clerk/backend client pointed here with CLERK_API_URL. Control endpoints (/__control/*) let tests make a
// user fail, hold a user's calls unanswered (a slow or hung Backend API) until released, set profile data and read
// the calls made.

interface StandInUser {
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  image_url: string;
  email: string | null;
  public_metadata: Record<string, unknown>;
}

const SECRET = "sk_test_standin_" + randomBytes(8).toString("hex");

export default async function clerkStandIn(): Promise<Fixture> {
  const failing = new Set<string>();
  // Users whose calls wait unanswered, and the calls waiting: `hold` starts, `release` answers them (as they would
  // have been answered then, so a `fail` set meanwhile applies).
  const held = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  const release = (userId: string) => {
    held.delete(userId);
    for (const go of waiting.get(userId) ?? []) go();
    waiting.delete(userId);
  };
  const hold = (userId: string) =>
    held.has(userId) ? new Promise<void>((resolve) => waiting.set(userId, [...(waiting.get(userId) ?? []), resolve])) : undefined;
  const users = new Map<string, StandInUser>();
  const calls: { method: string; path: string; body: unknown }[] = [];

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    // Exactly application/json: with a charset the SDK hands back raw strings.
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const clerkError = (res: http.ServerResponse, status: number, code: string) =>
    json(res, status, { errors: [{ code, message: code, long_message: code }], clerk_trace_id: "trace" });
  const userJson = (id: string) => {
    const u = users.get(id) ?? { first_name: null, last_name: null, username: null, image_url: "", email: `${id}@example.com`, public_metadata: {} };
    const now = Date.now();
    return {
      object: "user",
      id,
      first_name: u.first_name,
      last_name: u.last_name,
      username: u.username,
      image_url: u.image_url,
      has_image: Boolean(u.image_url),
      primary_email_address_id: u.email ? "idn_1" : null,
      email_addresses: u.email ? [{ object: "email_address", id: "idn_1", email_address: u.email, verification: null, linked_to: [] }] : [],
      phone_numbers: [],
      web3_wallets: [],
      external_accounts: [],
      saml_accounts: [],
      enterprise_accounts: [],
      public_metadata: u.public_metadata,
      private_metadata: {},
      unsafe_metadata: {},
      created_at: now,
      updated_at: now,
      last_sign_in_at: now,
      banned: false,
      locked: false,
    };
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body: any = undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const url = new URL(req.url ?? "/", "http://standin");
    const path = url.pathname;

    if (path.startsWith("/__control/")) {
      if (req.method === "POST" && path === "/__control/fail") failing.add(body.userId);
      else if (req.method === "POST" && path === "/__control/recover") failing.delete(body.userId);
      else if (req.method === "POST" && path === "/__control/hold") held.add(body.userId);
      else if (req.method === "POST" && path === "/__control/release") release(body.userId);
      else if (req.method === "PUT" && path.startsWith("/__control/users/")) users.set(decodeURIComponent(path.slice(17)), { public_metadata: {}, ...body });
      else if (req.method === "GET" && path === "/__control/calls") return json(res, 200, calls);
      else return clerkError(res, 404, "unknown_control");
      return json(res, 200, { ok: true });
    }

    calls.push({ method: req.method ?? "", path, body });
    if (req.headers.authorization !== `Bearer ${SECRET}`) return clerkError(res, 401, "authentication_invalid");

    let m: RegExpExecArray | null;
    if (req.method === "POST" && path === "/v1/sign_in_tokens") {
      const userId = body?.user_id as string;
      if (!userId) return clerkError(res, 422, "form_param_missing");
      await hold(userId);
      if (failing.has(userId)) return clerkError(res, 500, "internal_clerk_error");
      const now = Date.now();
      return json(res, 200, {
        object: "sign_in_token",
        id: `sit_${randomBytes(6).toString("hex")}`,
        user_id: userId,
        status: "pending",
        token: `ticket_${randomBytes(24).toString("hex")}`,
        url: "https://accounts.example.com/v1/tickets/accept",
        created_at: now,
        updated_at: now,
      });
    }
    if (req.method === "GET" && (m = /^\/v1\/users\/([^/]+)$/.exec(path))) {
      const id = decodeURIComponent(m[1]!);
      if (failing.has(id)) return clerkError(res, 500, "internal_clerk_error");
      if (id.startsWith("user_missing")) return clerkError(res, 404, "resource_not_found");
      return json(res, 200, userJson(id));
    }
    if (req.method === "DELETE" && (m = /^\/v1\/users\/([^/]+)$/.exec(path))) {
      const id = decodeURIComponent(m[1]!);
      if (failing.has(id)) return clerkError(res, 500, "internal_clerk_error");
      users.delete(id);
      return json(res, 200, { object: "user", id, deleted: true });
    }
    if (req.method === "PATCH" && (m = /^\/v1\/users\/([^/]+)\/metadata$/.exec(path))) {
      const id = decodeURIComponent(m[1]!);
      const u = users.get(id) ?? { first_name: null, last_name: null, username: null, image_url: "", email: null, public_metadata: {} };
      u.public_metadata = { ...u.public_metadata, ...(body?.public_metadata ?? {}) };
      users.set(id, u);
      return json(res, 200, userJson(id));
    }
    if (req.method === "GET" && path === "/v1/sessions") {
      // A user's sign-ins: one active session with its latest activity, two hours old (the console's fan page).
      const userId = url.searchParams.get("user_id") ?? "";
      if (failing.has(userId)) return clerkError(res, 500, "internal_clerk_error");
      const at = Date.now() - 2 * 3_600_000;
      const session = {
        object: "session",
        id: `sess_standin_${userId}`,
        user_id: userId,
        client_id: "client_standin",
        status: "active",
        last_active_at: at + 60_000,
        expire_at: at + 7 * 86_400_000,
        abandon_at: at + 30 * 86_400_000,
        created_at: at,
        updated_at: at + 60_000,
        latest_activity: {
          object: "session_activity",
          id: "sess_activity_1",
          is_mobile: false,
          ip_address: "203.0.113.7",
          city: "Lisbon",
          country: "PT",
          browser_name: "Chrome",
          browser_version: "131",
          device_type: "Macintosh",
        },
      };
      return json(res, 200, { data: userId ? [session] : [], total_count: userId ? 1 : 0 });
    }
    if (req.method === "POST" && (m = /^\/v1\/sessions\/([^/]+)\/revoke$/.exec(path))) {
      const now = Date.now();
      return json(res, 200, {
        object: "session",
        id: decodeURIComponent(m[1]!),
        user_id: "user_x",
        client_id: "client_x",
        status: "revoked",
        last_active_at: now,
        expire_at: now,
        abandon_at: now,
        created_at: now,
        updated_at: now,
      });
    }
    return clerkError(res, 404, "resource_not_found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    env: {
      CLERK_SECRET_KEY: SECRET,
      CLERK_API_URL: url,
      CLERK_SIGN_IN_URL: "https://accounts.example.com/sign-in",
      APP_URL: "https://api.example.com",
      MOBILE_OAUTH_PROVIDERS: "google,apple",
      MOBILE_REDIRECT_URIS: "fanapp://auth/callback,https://app.example.com/mobile/callback",
      MOBILE_STATE_SECRET: randomBytes(32).toString("hex"),
      MOBILE_MIN_VERSION: "2.1.0",
      MOBILE_LATEST_VERSION: "2.4.1",
      MOBILE_UPDATE_URL_IOS: "https://apps.apple.com/app/id000000",
    },
    provided: { url },
    teardown: () => {
      for (const userId of [...held]) release(userId);
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
