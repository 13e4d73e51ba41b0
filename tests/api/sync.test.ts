import { createHmac } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { TEAMS } from "../../dev/seed/data";
import { api, db, errorOf, newUser } from "../helpers";

// The server under test syncs lib/features/sync/fixtures/blackbox.json (tests/setup/server-env/sync.ts): one league of its own,
// archived, with two archived teams and their players, so the seeded data other suites count never changes.
const { webhookSecret, cronSecret } = inject("fixtures").sync as { webhookSecret: string; cronSecret: string };
const SOURCE = "feed:fixture";
// Every live seeded team stays listed (other suites running beside this one, as in the fleet tier, may list teams of their own).
const SEEDED_LIVE = TEAMS.filter((t) => t.archivedAt === null).map((t) => t.id);
const listedIds = (res: { body: { teams: { id: string }[] } }) => res.body.teams.map((t) => t.id);

const sign = (body: string, t = Math.floor(Date.now() / 1000), secret = webhookSecret) =>
  `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;

const deliver = (body: string, signature: string | null, headers: Record<string, string> = {}) =>
  api("POST", "/api/webhooks/leagues-sync", {
    body,
    headers: { "content-type": "application/json", ...(signature === null ? {} : { "x-signature": signature }), ...headers },
  });

const cron = (authorization?: string) => api("GET", "/api/cron/leagues-sync", { headers: authorization === undefined ? {} : { authorization } });

const admin = newUser({ admin: true });
const fan = newUser();

const zero = { created: 0, updated: 0, archived: 0, unchanged: 0 };
// This file's runs: those started by webhook or cron (no actor) and by its own users. Other files running alongside
// start staff syncs of their own.
const runCount = () => db().syncRun.count({ where: { OR: [{ actor: null }, { actor: { in: [admin.sub, fan.sub] } }] } });

describe("admin sync triggers: auth and validation", () => {
  it.each(["/api/admin/teams/sync", "/api/admin/leagues/sync"])("POST %s: 401 without a token, 403 for a fan", async (path) => {
    const before = await runCount();
    const anon = await api("POST", path);
    expect(anon.status).toBe(401);
    expect(errorOf(anon).code).toBe("UNAUTHORIZED");
    const forbidden = await api("POST", path, { headers: fan.auth });
    expect(forbidden.status).toBe(403);
    expect(errorOf(forbidden).code).toBe("FORBIDDEN");
    expect(await runCount()).toBe(before);
  });

  it.each(["/api/admin/sync-runs", "/api/admin/sync-runs/00000000-0000-7000-8000-000000000000"])("GET %s is for staff only", async (path) => {
    expect((await api("GET", path)).status).toBe(401);
    expect((await api("GET", path, { headers: fan.auth })).status).toBe(403);
  });

  it("the body is optional and strict", async () => {
    const unknown = await api("POST", "/api/admin/teams/sync", { headers: admin.auth, json: { force: true } });
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown)).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "body.force", message: "Unknown field" }] });
    const wrongType = await api("POST", "/api/admin/leagues/sync", { headers: admin.auth, json: { dryRun: "yes" } });
    expect(wrongType.status).toBe(400);
    expect(errorOf(wrongType).details![0]!.path).toBe("body.dryRun");
  });

  it("GET answers 405 with Allow on the trigger paths", async () => {
    const res = await api("GET", "/api/admin/teams/sync", { headers: admin.auth });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
  });
});

describe("admin sync triggers: a full sync of the black-box feed", () => {
  it("leagues, then teams; a re-run changes nothing; the synced rows stay out of public lists", async () => {
    const leagues = await api("POST", "/api/admin/leagues/sync", { headers: admin.auth });
    expect(leagues.status).toBe(201);
    const run = leagues.body.data;
    expect(run).toMatchObject({ scope: "leagues", trigger: "admin", status: "succeeded", error: null });
    expect(run.actor).toBe(admin.sub);
    expect(run.summary.teams).toEqual(zero);
    expect(run.summary.leagues.created + run.summary.leagues.unchanged).toBe(1);
    expect(run.summary.conferences.created + run.summary.conferences.unchanged).toBe(1);

    const teams = await api("POST", "/api/admin/teams/sync", { headers: admin.auth });
    expect(teams.status).toBe(201);
    expect(teams.body.data).toMatchObject({ scope: "teams", status: "succeeded" });
    expect(teams.body.data.summary.leagues).toEqual(zero);
    expect(teams.body.data.summary.teams.created + teams.body.data.summary.teams.unchanged).toBe(2);

    const again = await api("POST", "/api/admin/teams/sync", { headers: admin.auth, json: {} });
    expect(again.status).toBe(201);
    expect(again.body.data.summary).toMatchObject({ teams: { ...zero, unchanged: 2 }, players: { ...zero, unchanged: 3 }, games: zero, changes: [] });

    const rows = await db().team.findMany({ where: { source: SOURCE }, orderBy: { id: "asc" } });
    expect(rows.map((t) => t.id)).toEqual(["tm_fixture_bbx-a", "tm_fixture_bbx-b"]);
    expect(rows.every((t) => t.archivedAt !== null)).toBe(true);
    expect(await db().player.count({ where: { teamId: { in: rows.map((t) => t.id) } } })).toBe(3);

    const list = await api("GET", "/api/teams");
    expect(list.status).toBe(200);
    expect(listedIds(list)).toEqual(expect.arrayContaining(SEEDED_LIVE));
    expect(listedIds(list)).not.toContain("tm_fixture_bbx-a");
    expect((await api("GET", "/api/teams/tm_fixture_bbx-a")).status).toBe(404);
  });

  it("a dry run reports and writes nothing", async () => {
    const res = await api("POST", "/api/admin/teams/sync", { headers: admin.auth, json: { dryRun: true } });
    expect(res.status).toBe(201);
    expect(res.body.data.summary.dryRun).toBe(true);
    expect(res.body.data.status).toBe("succeeded");
  });

  it("concurrent triggers serialize: every run succeeds and the rows are not duplicated", async () => {
    const results = await Promise.all([
      api("POST", "/api/admin/teams/sync", { headers: admin.auth }),
      api("POST", "/api/admin/leagues/sync", { headers: admin.auth }),
      api("POST", "/api/admin/teams/sync", { headers: admin.auth }),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(results.map((r) => r.body.data.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(await db().team.count({ where: { source: SOURCE } })).toBe(2);
    expect(await db().league.count({ where: { source: SOURCE } })).toBe(1);
  });
});

describe("run history", () => {
  it("lists runs newest first, pages with a cursor, and reads one", async () => {
    await api("POST", "/api/admin/leagues/sync", { headers: admin.auth });
    const first = await api("GET", "/api/admin/sync-runs?limit=2", { headers: admin.auth });
    expect(first.status).toBe(200);
    expect(first.body.data.runs).toHaveLength(2);
    expect(first.body.data.runs[0]).toMatchObject({ scope: "leagues", trigger: "admin" });
    expect(typeof first.body.data.nextCursor).toBe("string");
    const second = await api("GET", `/api/admin/sync-runs?limit=2&cursor=${first.body.data.nextCursor}`, { headers: admin.auth });
    expect(second.status).toBe(200);
    const ids = [...first.body.data.runs, ...second.body.data.runs].map((r: { id: string }) => r.id);
    expect(new Set(ids).size).toBe(4);
    const starts = [...first.body.data.runs, ...second.body.data.runs].map((r: { startedAt: string }) => r.startedAt);
    expect(starts).toEqual([...starts].sort().reverse());

    const one = await api("GET", `/api/admin/sync-runs/${ids[0]}`, { headers: admin.auth });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(first.body.data.runs[0]);
  });

  it("404 for an unknown or malformed id; 400 for a bad limit or cursor", async () => {
    for (const id of ["00000000-0000-7000-8000-000000000000", "not-a-uuid"]) {
      const res = await api("GET", `/api/admin/sync-runs/${id}`, { headers: admin.auth });
      expect(res.status).toBe(404);
      expect(errorOf(res).code).toBe("NOT_FOUND");
    }
    for (const q of ["limit=0", "limit=101", "limit=abc", "cursor=garbage!", "other=1"]) {
      const res = await api("GET", `/api/admin/sync-runs?${q}`, { headers: admin.auth });
      expect(res.status, q).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("POST /api/webhooks/leagues-sync", () => {
  it("a correctly signed delivery runs a sync (trigger webhook); the same delivery again answers 200 { duplicate: true } without running", async () => {
    const body = JSON.stringify({ event: "feed.updated", scope: "teams", id: Math.random() });
    const signature = sign(body);
    const res = await deliver(body, signature);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ scope: "teams", trigger: "webhook", actor: null, status: "succeeded" });
    expect(res.headers.get("x-request-id")).toBeTruthy();

    const before = await runCount();
    const replay = await deliver(body, signature);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ success: true, data: { duplicate: true } });
    expect(await runCount()).toBe(before);
  });

  it("an empty body means a full sync", async () => {
    const res = await deliver("", sign(""));
    expect(res.status).toBe(201);
    expect(res.body.data.scope).toBe("all");
  });

  it("simultaneous copies of one delivery run exactly once", async () => {
    const body = JSON.stringify({ scope: "leagues", nonce: Math.random() });
    const signature = sign(body);
    const before = await runCount();
    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(body, signature)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(await runCount()).toBe(before + 1);
  });

  it("accepts any matching v1 among several (secret rotation)", async () => {
    const body = JSON.stringify({ scope: "leagues", nonce: Math.random() });
    const t = Math.floor(Date.now() / 1000);
    const [stamp, good] = sign(body, t).split(",");
    const old = sign(body, t, "an-old-secret-000000").split(",")[1];
    const res = await deliver(body, `${stamp},${old},${good}`);
    expect(res.status).toBe(201);
  });

  it.each([
    ["no signature", () => null],
    ["a malformed header", () => "sha256=abc"],
    ["a wrong secret", (b: string) => sign(b, undefined, "not-the-secret-123456")],
    ["a stale timestamp", (b: string) => sign(b, Math.floor(Date.now() / 1000) - 301)],
    ["a future timestamp", (b: string) => sign(b, Math.floor(Date.now() / 1000) + 301)],
    ["a signature of another body", (b: string) => sign(b + " ")],
    ["a truncated signature", (b: string) => sign(b).slice(0, -2)],
  ])("401 for %s, and nothing runs", async (_label, signature) => {
    const body = JSON.stringify({ scope: "all", nonce: Math.random() });
    const before = await runCount();
    const res = await deliver(body, signature(body));
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
    expect(await runCount()).toBe(before);
  });

  it("413 past 64 KiB, before any signature check", async () => {
    const body = JSON.stringify({ pad: "x".repeat(70 * 1024) });
    const res = await deliver(body, sign(body));
    expect(res.status).toBe(413);
    expect(errorOf(res).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("400 for a signed body that is not a valid payload", async () => {
    for (const body of ["{not json", JSON.stringify({ scope: "everything" }), "[1]"]) {
      const res = await deliver(body, sign(body));
      expect(res.status, body).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    }
  });

  it("only POST", async () => {
    const res = await api("GET", "/api/webhooks/leagues-sync");
    expect(res.status).toBe(405);
  });
});

describe("GET /api/cron/leagues-sync", () => {
  it("runs a full sync with exactly Authorization: Bearer <CRON_SECRET>", async () => {
    const res = await cron(`Bearer ${cronSecret}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ scope: "all", trigger: "cron", actor: null, status: "succeeded" });
  });

  it.each([
    ["no header", undefined],
    ["another secret", "Bearer not-the-cron-secret-000"],
    ["the secret with a suffix", `Bearer ${cronSecret}x`],
    ["a prefix of the secret", `Bearer ${cronSecret.slice(0, -1)}`],
    ["another scheme", `Basic ${cronSecret}`],
    ["the bare secret", cronSecret],
    ["an admin session token", admin.auth.authorization],
  ])("401 with %s, and nothing runs", async (_label, authorization) => {
    const before = await runCount();
    const res = await cron(authorization);
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
    expect(await runCount()).toBe(before);
  });

  it("POST is not allowed", async () => {
    expect((await api("POST", "/api/cron/leagues-sync", { headers: { authorization: `Bearer ${cronSecret}` } })).status).toBe(405);
  });
});

describe("OpenAPI documents", () => {
  it("the webhook is in the public contract; staff and cron routes only in the internal document", async () => {
    const pub = await api("GET", "/api/openapi.json");
    expect(pub.status).toBe(200);
    expect(pub.body.paths["/api/webhooks/leagues-sync"].post.description).toMatch(/X-Signature: t=<unix seconds>,v1=<hex>/);
    expect(pub.body.paths["/api/admin/teams/sync"]).toBeUndefined();
    expect(pub.body.paths["/api/cron/leagues-sync"]).toBeUndefined();
    const internal = await api("GET", "/api/admin/openapi.json", { headers: admin.auth });
    expect(internal.status).toBe(200);
    for (const p of ["/api/admin/teams/sync", "/api/admin/leagues/sync", "/api/admin/sync-runs", "/api/admin/sync-runs/{id}", "/api/cron/leagues-sync"]) {
      expect(internal.body.paths[p], p).toBeDefined();
    }
    expect(internal.body.paths["/api/cron/leagues-sync"].get.description).toMatch(/Bearer <CRON_SECRET>/);
  });

  it("the seeded teams are still all listed after every sync above", async () => {
    const res = await api("GET", "/api/teams");
    expect(SEEDED_LIVE).toHaveLength(35);
    expect(listedIds(res)).toEqual(expect.arrayContaining(SEEDED_LIVE));
    expect(listedIds(res).filter((id) => id.startsWith("tm_fixture_"))).toEqual([]);
    expect(res.body.season).toBe("2026");
  });
});
