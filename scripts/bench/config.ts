// config: GET /api/v1/config revalidated with If-None-Match (the app's poll), anonymous and signed in: answered from
// the process's cached config (no query), each caller's view and its ETag built once per config version, so a 304
// costs about what GET /api/health does (target ≥ 90% of its throughput). The ETag is read once before the run.
import { signSessionToken } from "../../lib/auth/sign";
import type { Case } from "./common";

const SUB = "user_bench_config";

async function etagOf(url: string, headers: Record<string, string>): Promise<string> {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`GET /api/v1/config answered ${res.status}: ${await res.text()}`);
  return res.headers.get("etag")!;
}

export function configCases(base: string, privateKey: string): Case[] {
  const url = `${base}/api/v1/config`;
  const auth = { authorization: `Bearer ${signSessionToken(privateKey, SUB, { ttlSeconds: 3600 })}` };
  return [
    { name: "GET config 304 (anonymous)", target: 0.9, load: async () => ({ url, headers: { "if-none-match": await etagOf(url, {}) } }) },
    { name: "GET config 304 (signed in)", target: 0.9, load: async () => ({ url, headers: { ...auth, "if-none-match": await etagOf(url, auth) } }) },
  ];
}
