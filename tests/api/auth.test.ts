import { createHmac, generateKeyPairSync, randomUUID } from "node:crypto";
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { signSessionToken } from "../../lib/auth/sign";
import { api, db, errorOf, newUser, token, userIdOf } from "../helpers";

const ROUTE = "/api/user";
const UNAUTHORIZED = { success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } };

const newSub = () => `user_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const b64url = (v: object) => Buffer.from(JSON.stringify(v)).toString("base64url");
const now = () => Math.floor(Date.now() / 1000);

let ipSeq = 0;
const freshIp = () => `172.16.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

async function expect401(headers: Record<string, string>, path = ROUTE) {
  const res = await api("GET", path, { headers });
  expect(res.status).toBe(401);
  expect(res.body).toEqual(UNAUTHORIZED);
  return res;
}

async function rowsOf(sub: string) {
  return db().user.count({ where: { externalId: sub } });
}

describe("Bearer authentication (GET /api/user)", () => {
  it("no Authorization header is 401 UNAUTHORIZED", async () => {
    await expect401({});
  });

  it.each(["Basic x", "Basic dXNlcjpwYXNz", "Bearer", "Bearer ", "Bearer a b", "Token abc", ""])(
    "a malformed Authorization header %j is 401",
    async (header) => {
      await expect401({ authorization: header });
    },
  );

  it("a valid token under a non-Bearer scheme is 401", async () => {
    const { sub } = newUser();
    await expect401({ authorization: `Basic ${token(sub)}` });
    await expect401({ authorization: `Bearer ${token(sub)} extra` });
    expect(await rowsOf(sub)).toBe(0);
  });

  it("the scheme is case-insensitive and a valid token is accepted", async () => {
    const { sub } = newUser();
    const res = await api("GET", ROUTE, { headers: { authorization: `bearer ${token(sub)}` } });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(await userIdOf(sub));
  });

  it("a random string token is 401", async () => {
    await expect401(bearer("abcdef123456"));
    await expect401(bearer(randomUUID()));
    await expect401(bearer("a.b.c"));
  });

  it("a token signed by another RSA key is 401 and creates no user", async () => {
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    const sub = newSub();
    await expect401(bearer(signSessionToken(privateKey, sub)));
    await expect401(bearer(signSessionToken(privateKey, sub, { admin: true })));
    expect(await rowsOf(sub)).toBe(0);
  });

  it("a token whose payload was altered after signing is 401", async () => {
    const sub = newSub();
    const [h, , s] = token(sub).split(".");
    const forged = `${h}.${b64url({ sub, exp: now() + 3600, metadata: { role: "admin" } })}.${s}`;
    await expect401(bearer(forged));
    expect(await rowsOf(sub)).toBe(0);
  });

  it("an expired token (beyond the 5 s skew) is 401", async () => {
    const sub = newSub();
    await expect401(bearer(token(sub, { ttlSeconds: -60 })));
    await expect401(bearer(token(sub, { ttlSeconds: -10 })));
    expect(await rowsOf(sub)).toBe(0);
  });

  it("a token that expired only 2 s ago is still accepted (clock skew)", async () => {
    const sub = newSub();
    const res = await api("GET", ROUTE, { headers: bearer(token(sub, { ttlSeconds: -2 })) });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(await userIdOf(sub));
  });

  it("a token not valid for 60 s (nbf in the future) is 401", async () => {
    const sub = newSub();
    await expect401(bearer(token(sub, { extra: { nbf: now() + 60 } })));
    expect(await rowsOf(sub)).toBe(0);
  });

  it("nbf 2 s in the future is within the skew and accepted", async () => {
    const sub = newSub();
    const res = await api("GET", ROUTE, { headers: bearer(token(sub, { extra: { nbf: now() + 2 } })) });
    expect(res.status).toBe(200);
  });

  it("a token issued 60 s in the future is 401", async () => {
    const sub = newSub();
    await expect401(bearer(token(sub, { extra: { iat: now() + 60 } })));
  });

  it("a token without exp or without sub is 401", async () => {
    await expect401(bearer(token(newSub(), { extra: { exp: undefined } })));
    await expect401(bearer(token(newSub(), { extra: { exp: String(now() + 3600) } })));
    await expect401(bearer(token("ignored", { extra: { sub: "" } })));
    await expect401(bearer(token("ignored", { extra: { sub: 42 } })));
  });

  it("azp outside the authorized parties is 401; an authorized azp or none is 200", async () => {
    const evil = newSub();
    await expect401(bearer(token(evil, { extra: { azp: "https://evil.example.com" } })));
    await expect401(bearer(token(evil, { extra: { azp: "https://app.example.com.evil.com" } })));
    expect(await rowsOf(evil)).toBe(0);
    for (const azp of ["https://app.example.com", "https://admin.example.com"]) {
      const res = await api("GET", ROUTE, { headers: bearer(token(newSub(), { extra: { azp } })) });
      expect(res.status).toBe(200);
    }
    const none = await api("GET", ROUTE, { headers: bearer(token(newSub())) });
    expect(none.status).toBe(200);
  });

  it("HS256 and alg none tokens are 401", async () => {
    const sub = newSub();
    const payload = b64url({ sub, iat: now(), nbf: now(), exp: now() + 3600, metadata: { role: "admin" } });
    // HS256 keyed with the server's public key: the classic algorithm-confusion forgery.
    const hsHeader = b64url({ alg: "HS256", typ: "JWT" });
    const hsSig = createHmac("sha256", inject("publicKey")).update(`${hsHeader}.${payload}`).digest("base64url");
    await expect401(bearer(`${hsHeader}.${payload}.${hsSig}`));
    const hsSecret = createHmac("sha256", "secret").update(`${hsHeader}.${payload}`).digest("base64url");
    await expect401(bearer(`${hsHeader}.${payload}.${hsSecret}`));
    const noneHeader = b64url({ alg: "none", typ: "JWT" });
    await expect401(bearer(`${noneHeader}.${payload}.`));
    await expect401(bearer(`${noneHeader}.${payload}`));
    // An RS256 signature under a header that claims another alg is rejected too.
    const [, p, s] = token(sub).split(".");
    await expect401(bearer(`${b64url({ alg: "RS512", typ: "JWT" })}.${p}.${s}`));
    expect(await rowsOf(sub)).toBe(0);
  });

  it("only metadata.role = admin makes an admin; a top-level role claim does not", async () => {
    const { auth } = newUser({ extra: { role: "admin" } });
    const res = await api("GET", ROUTE, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data.role).toBe("fan");
  });
});

describe("just-in-time users", () => {
  it("a first-seen sub creates exactly one users row, reused afterwards", async () => {
    const sub = newSub();
    expect(await rowsOf(sub)).toBe(0);
    const first = await api("GET", ROUTE, { headers: bearer(token(sub)) });
    expect(first.status).toBe(200);
    expect(await rowsOf(sub)).toBe(1);
    const id = await userIdOf(sub);
    expect(first.body.data.id).toBe(id);
    // A second, different token of the same subject is the same user.
    const second = await api("GET", ROUTE, { headers: bearer(token(sub, { ttlSeconds: 600 })) });
    expect(second.status).toBe(200);
    expect(second.body.data.id).toBe(id);
    expect(await rowsOf(sub)).toBe(1);
  });

  it("10 concurrent first requests of one new sub answer 200 with one id and leave one row", async () => {
    const sub = newSub();
    const headers = bearer(token(sub));
    const results = await Promise.all(Array.from({ length: 10 }, () => api("GET", ROUTE, { headers })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const ids = new Set(results.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    expect(await rowsOf(sub)).toBe(1);
    expect([...ids][0]).toBe(await userIdOf(sub));
  });

  it("concurrent first requests across different routes also create one row", async () => {
    const sub = newSub();
    const headers = bearer(token(sub));
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => api("GET", ROUTE, { headers })),
      ...Array.from({ length: 4 }, () => api("GET", "/api/user/settings", { headers })),
      ...Array.from({ length: 2 }, () => api("GET", "/api/teams/tm_hch", { headers })),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await rowsOf(sub)).toBe(1);
  });

  it("a rejected token never creates a row", async () => {
    const sub = newSub();
    await expect401(bearer(token(sub, { extra: { azp: "https://evil.example.com" } })));
    await expect401(bearer(token(sub, { ttlSeconds: -60 })));
    expect(await rowsOf(sub)).toBe(0);
  });
});

type Operation = {
  "x-auth": string;
  parameters?: { name: string; in: string; required?: boolean; schema?: { type?: string } }[];
  requestBody?: { required?: boolean };
};

/** A syntactically valid request for an operation: path params replaced, required query params filled, JSON body when it takes one. */
function requestFor(path: string, op: Operation) {
  let url = path.replace(/\{[^}]+\}/g, "x");
  const query = (op.parameters ?? [])
    .filter((p) => p.in === "query" && p.required)
    .map((p) => `${p.name}=${p.schema?.type === "integer" ? "1" : `probe_${ipSeq}`}`);
  if (query.length) url += `?${query.join("&")}`;
  return { url, json: op.requestBody ? {} : undefined };
}

describe("declared auth matches enforced auth (OpenAPI x-auth)", () => {
  /** Operations of the public contract and of the internal (staff, cron) document. */
  async function operations() {
    const doc = await api("GET", "/api/openapi.json");
    expect(doc.status).toBe(200);
    const internal = await api("GET", "/api/admin/openapi.json", { headers: { authorization: `Bearer ${token("user_doc_reader", { admin: true })}` } });
    expect(internal.status).toBe(200);
    const ops: { method: string; path: string; op: Operation }[] = [];
    for (const d of [doc.body, internal.body]) {
      for (const [path, byMethod] of Object.entries(d.paths as Record<string, Record<string, Operation>>)) {
        for (const [method, op] of Object.entries(byMethod)) ops.push({ method: method.toUpperCase(), path, op });
      }
    }
    return ops;
  }

  it("every bearer or admin operation answers 401 without a token", async () => {
    const ops = (await operations()).filter(({ op }) => op["x-auth"] === "bearer" || op["x-auth"] === "admin");
    const labels = ops.map((o) => `${o.method} ${o.path}`);
    // Guard against a vacuous pass: the known Bearer routes are in the document.
    expect(labels).toEqual(expect.arrayContaining(["GET /api/user", "GET /api/user/settings", "PATCH /api/user/settings", "GET /api/me/starred-teams"]));
    const failures: string[] = [];
    for (const { method, path, op } of ops) {
      const { url, json } = requestFor(path, op);
      const res = await api(method, url, { json, headers: { "x-forwarded-for": freshIp() } });
      if (res.status !== 401 || res.body?.error?.code !== "UNAUTHORIZED") failures.push(`${method} ${path} → ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  it("every bearer or admin operation answers 401 to an invalid token", async () => {
    const ops = (await operations()).filter(({ op }) => op["x-auth"] === "bearer" || op["x-auth"] === "admin");
    const failures: string[] = [];
    for (const { method, path, op } of ops) {
      const { url, json } = requestFor(path, op);
      const res = await api(method, url, { json, headers: { authorization: "Bearer nope", "x-forwarded-for": freshIp() } });
      if (res.status !== 401) failures.push(`${method} ${path} → ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it("every admin operation answers 403 FORBIDDEN to a fan token", async () => {
    const ops = (await operations()).filter(({ op }) => op["x-auth"] === "admin");
    const { auth } = newUser();
    const failures: string[] = [];
    for (const { method, path, op } of ops) {
      const { url, json } = requestFor(path, op);
      const res = await api(method, url, { json, headers: { ...auth, "x-forwarded-for": freshIp() } });
      if (res.status !== 403 || errorOf(res).code !== "FORBIDDEN") failures.push(`${method} ${path} → ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it("every public or optional operation does not answer 401 without a token", async () => {
    // Public operations that carry their own credential (a signed webhook) document their 401: they are checked
    // by their own tests.
    const ops = (await operations()).filter(
      ({ op }) => (op["x-auth"] === "public" && !(op as { responses?: Record<string, unknown> }).responses?.["401"]) || op["x-auth"] === "optional",
    );
    const labels = ops.map((o) => `${o.method} ${o.path}`);
    expect(labels).toEqual(expect.arrayContaining(["GET /api/health", "GET /api/teams", "GET /api/teams/{id}", "GET /api/user/check-username"]));
    const failures: string[] = [];
    for (const { method, path, op } of ops) {
      const { url, json } = requestFor(path, op);
      const res = await api(method, url, { json, headers: { "x-forwarded-for": freshIp() } });
      if (res.status === 401 || res.status >= 500) failures.push(`${method} ${path} → ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  it("every operation declares one of the auth modes (four session modes, two machine modes)", async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(0);
    for (const { op } of ops) expect(["public", "optional", "bearer", "admin", "cron", "webhook"]).toContain(op["x-auth"]);
  });
});
