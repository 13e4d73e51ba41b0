import { createSign } from "node:crypto";

/** The issuer of development tokens; the verifier expects it when CLERK_ISSUER is unset (never in production). */
export const DEV_ISSUER = "https://clerk.local.dev";

// Mints RS256 session tokens shaped like Clerk's, for local development, tests and benchmarks only.
export function signSessionToken(
  privateKeyPem: string,
  sub: string,
  { admin = false, role, ttlSeconds = 3600, extra = {} }: { admin?: boolean; role?: string; ttlSeconds?: number; extra?: Record<string, unknown> } = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: "RS256", typ: "JWT", kid: "ins_local" };
  const payload = {
    sub,
    sid: `sess_${sub}`,
    iss: DEV_ISSUER,
    iat: now,
    nbf: now,
    exp: now + ttlSeconds,
    ...(role || admin ? { metadata: { role: role ?? "admin" } } : {}),
    ...extra,
  };
  const enc = (v: object) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const input = `${enc(header)}.${enc(payload)}`;
  const signature = createSign("RSA-SHA256").update(input).sign(privateKeyPem).toString("base64url");
  return `${input}.${signature}`;
}
