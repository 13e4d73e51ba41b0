import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { inject } from "vitest";
import { DEV_ISSUER, signSessionToken } from "../lib/auth/sign";
import { freePort } from "../lib/ports";
import { createDb } from "../lib/db/client";

export const baseUrl = inject("baseUrl");

let testDb: ReturnType<typeof createDb> | undefined;
/** A Prisma client on this run's database, for arranging and inspecting state. */
export function db() {
  return (testDb ??= createDb(inject("databaseUrl"), 4));
}

export function token(sub: string, opts: Parameters<typeof signSessionToken>[2] = {}): string {
  return signSessionToken(inject("privateKey"), sub, opts);
}

/** A new identity-provider subject and its Bearer header. */
export function newUser(opts: Parameters<typeof signSessionToken>[2] = {}) {
  const sub = `user_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  return { sub, auth: { authorization: `Bearer ${token(sub, opts)}` } };
}

export interface Res<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function api<T = any>(
  method: string,
  path: string,
  {
    headers = {},
    json,
    body,
    base = baseUrl,
  }: { headers?: Record<string, string>; json?: unknown; body?: string; /** Another server (tests/multi). */ base?: string } = {},
): Promise<Res<T>> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  } else if (body !== undefined) init.body = body;
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** The user row for a subject (after the API created it just in time). */
export async function userIdOf(sub: string): Promise<string> {
  return (await db().user.findUniqueOrThrow({ where: { externalId: sub } })).id;
}

export const errorOf = (res: Res) => res.body?.error as { code: string; message: string; details?: { path: string; message: string }[] };

/**
 * Starts `next start` of the build in production with `env` on top of PATH and the build directory, and answers how
 * it ended within 20 s (killed if it is still running then): for start-up checks.
 */
export function startProductionServer(env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", "0", "-H", "127.0.0.1"], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR,
        ...env,
      } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * Runs `work` against a second production server of the build with only the settings production insists on (so no
 * payment provider is configured), on this run's database, and stops it after.
 */
export async function withBareProductionServer(work: (base: string) => Promise<void>): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      PATH: process.env.PATH,
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: inject("databaseUrl"),
      REDIS_BACKEND: "memory",
      CLERK_JWT_KEY: inject("publicKey"),
      CLERK_ISSUER: DEV_ISSUER,
      CLERK_SECRET_KEY: "sk_test_unused",
      CLERK_AUTHORIZED_PARTIES: "https://app.example.com",
      MOBILE_STATE_SECRET: randomBytes(32).toString("hex"),
      LOG_LEVEL: "error",
    } as NodeJS.ProcessEnv,
    stdio: "ignore",
  });
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if ((await fetch(`${base}/api/health`).catch(() => null))?.ok) break;
      if (Date.now() > deadline) throw new Error("the second server did not start");
      await new Promise((r) => setTimeout(r, 200));
    }
    await work(base);
  } finally {
    server.kill("SIGTERM");
  }
}

export interface SseEvent {
  event: string;
  id: string | null;
  data: any;
  /** The `retry:` value the block carried, if any. */
  retry: number | null;
}

/**
 * Opens a Server-Sent Events stream and reads it as it comes: `next(pred)` waits for the first event (or comment
 * block, as event ":comment") matching `pred`; `ended()` waits for the server to end the stream.
 */
export async function openEventStream(path: string, { headers = {}, base = baseUrl }: { headers?: Record<string, string>; base?: string } = {}) {
  const abort = new AbortController();
  const res = await fetch(`${base}${path}`, { headers, signal: abort.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const seen: SseEvent[] = [];
  let buffer = "";
  let done = false;
  const parse = (block: string): SseEvent => {
    const ev: SseEvent = { event: "message", id: null, data: undefined, retry: null };
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) ev.event = ":comment";
      else if (line.startsWith("event: ")) ev.event = line.slice(7);
      else if (line.startsWith("id: ")) ev.id = line.slice(4);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
      else if (line.startsWith("retry: ")) ev.retry = Number(line.slice(7));
    }
    if (data.length) ev.data = JSON.parse(data.join("\n"));
    return ev;
  };
  let read = 0;
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  async function next(pred: (e: SseEvent) => boolean = () => true, timeoutMs = 15_000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (read < seen.length) {
        const e = seen[read++]!;
        if (pred(e)) return e;
      }
      if (done) throw new Error(`stream ended; events seen: ${seen.map((e) => e.event).join(", ")}`);
      const timer = new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`no matching event within ${timeoutMs} ms; seen: ${seen.map((e) => e.event).join(", ")}`)),
          Math.max(1, deadline - Date.now()),
        ),
      );
      pending ??= reader.read(); // a read that lost the race to the timer is kept for the next call
      const chunk = await Promise.race([pending, timer]);
      pending = null;
      if (chunk.done) done = true;
      else {
        buffer += decoder.decode(chunk.value, { stream: true });
        let i;
        while ((i = buffer.indexOf("\n\n")) >= 0) {
          seen.push(parse(buffer.slice(0, i)));
          buffer = buffer.slice(i + 2);
        }
      }
    }
  }
  return {
    res,
    next,
    seen,
    async ended(timeoutMs = 15_000) {
      await next(() => false, timeoutMs).catch((e: Error) => {
        if (!/stream ended/.test(e.message)) throw e;
      });
    },
    close: () => abort.abort(),
  };
}

let termsVersion: string | undefined;
/** A signed-up user (row created) who accepted the current Terms of Use unless `terms: false`: can post in the locker room. */
export async function poster(opts: { admin?: boolean; terms?: boolean } = {}) {
  const user = newUser({ admin: opts.admin });
  termsVersion ??= (await api("GET", "/api/user/terms")).body.data.currentVersion as string;
  const res =
    opts.terms === false
      ? await api("GET", "/api/user", { headers: user.auth })
      : await api("POST", "/api/user/terms", { headers: user.auth, json: { version: termsVersion } });
  if (res.status !== 200) throw new Error(`could not sign up a poster: ${res.status} ${res.text}`);
  return { ...user, id: await userIdOf(user.sub) };
}

/**
 * A signed-up fan (users row created), with `coins` minor units credited by a staff member of its own: staff
 * adjustments are rate-limited per staff member (policy money), and tests fund many fans.
 */
export async function fan(coins = 0) {
  const user = newUser();
  const res = await api("GET", "/api/user", { headers: user.auth });
  if (res.status !== 200) throw new Error(`could not sign up a fan: ${res.status} ${res.text}`);
  const id = await userIdOf(user.sub);
  if (coins > 0) {
    const staff = newUser({ admin: true });
    const funded = await api("POST", "/api/admin/wallets/adjustments", { headers: staff.auth, json: { userId: id, amount: coins, note: "test funds" } });
    if (funded.status !== 201) throw new Error(`could not fund a fan: ${funded.status} ${funded.text}`);
  }
  return { ...user, id };
}

/** A pack of one test's own (its store stock and sales untouched by others): one common card a pack, at `price`. */
export async function testPack(name: string, price: number): Promise<string> {
  const id = `pk_${name}_${randomUUID().slice(0, 8)}`;
  const cards = await db().collectibleCard.findMany({ where: { rarity: "common" }, orderBy: { id: "asc" }, take: 5, select: { id: true } });
  await db().pack.create({ data: { id, slug: id, name: `${name} ${id}`, price, itemsPerPack: 1, oddsVersion: 1 } });
  await db().packOddsTable.create({
    data: {
      packId: id,
      version: 1,
      weights: { common: 10_000, rare: 0, epic: 0, legendary: 0 },
      pool: { common: cards.map((c) => c.id), rare: [], epic: [], legendary: [] },
    },
  });
  return id;
}

/**
 * A catalog card of one test file's own (so its copies and listings never meet another file's), created on first
 * use; `give(ownerId)` inserts its next serial for the user and answers the collectible's id.
 */
export function testCard(name: string, rarity: "common" | "rare" | "epic" | "legendary", editionSize: number) {
  const id = `cc_test_${randomUUID().slice(0, 8)}`;
  let serial = 0;
  let created: Promise<unknown> | undefined;
  const create = () =>
    (created ??= db()
      .team.findFirstOrThrow({ where: { archivedAt: null }, select: { id: true } })
      .then((team) => db().collectibleCard.create({ data: { id, kind: "team", teamId: team.id, name, rarity, editionSize } })));
  return {
    id,
    create,
    async give(ownerId: string): Promise<string> {
      await create();
      const n = ++serial;
      const c = await db().collectible.create({ data: { cardId: id, serial: n, ownerId } });
      await db().collectibleCard.update({ where: { id }, data: { mintedCount: { increment: 1 } } });
      return c.id;
    },
  };
}

/**
 * A game of a seeded team for arena check-ins, against a rival of the test's own in a league of its own (both
 * archived, so no list shows them): it kicked off `kickoffMinutesAgo` ago (default 60: inside the check-in window), or
 * at `startsAt`, at `venue` when given. Only the seeded team's own game lists show it: pick a team whose upcoming games
 * no other test asserts (tm_bsb, tm_spf, tm_crc, tm_irf), and name the game (gameId) where several may be open.
 */
export async function matchday(teamId: string, opts: { kickoffMinutesAgo?: number; startsAt?: Date; venue?: { latitude: number; longitude: number } } = {}) {
  const key = randomUUID().slice(0, 8);
  const leagueId = `lg_md_${key}`;
  const rivalId = `tm_md_${key}`;
  const gameId = `gm_md_${key}`;
  const archivedAt = new Date();
  const startsAt = opts.startsAt ?? new Date(Date.now() - (opts.kickoffMinutesAgo ?? 60) * 60_000);
  await db().league.create({ data: { id: leagueId, slug: `md-${key}`, name: `Matchday ${key}`, sport: "football", archivedAt } });
  await db().team.create({ data: { id: rivalId, slug: `md-${key}`, name: `Rivals ${key}`, leagueId, archivedAt } });
  await db().game.create({
    data: {
      id: gameId,
      leagueId,
      homeTeamId: teamId,
      awayTeamId: rivalId,
      startsAt,
      status: startsAt.getTime() > Date.now() ? "scheduled" : "live",
      venue: `Matchday Park ${key}`,
      venueLatitude: opts.venue?.latitude ?? null,
      venueLongitude: opts.venue?.longitude ?? null,
    },
  });
  return gameId;
}
