import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { signSessionToken } from "../lib/auth/sign";
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
