import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { env } from "../../env";
import { CODE_CHALLENGE_PATTERN } from "./config";

// The mobile OAuth `state`: signed, short-lived, and bound to the app redirect URI, a browser nonce cookie and, when the
// app uses PKCE, its code_challenge (carried to the callback, which stores it with the minted token).
export const STATE_TTL_MS = 10 * 60 * 1000;
export const NONCE_COOKIE = "mobile_oauth_nonce";

interface StatePayload {
  provider: string;
  redirectUri: string;
  nonce: string;
  /** PKCE S256 code_challenge from /api/mobile/start; absent for a legacy client. */
  codeChallenge?: string;
  exp: number;
}

let devSecret: string | undefined;
function secret(): string {
  const configured = env().MOBILE_STATE_SECRET;
  if (configured) return configured;
  if (env().NODE_ENV === "production") throw new Error("MOBILE_STATE_SECRET is required in production.");
  return (devSecret ??= randomBytes(32).toString("hex"));
}

const mac = (body: string) => createHmac("sha256", secret()).update(body).digest("base64url");

export function signState(p: Omit<StatePayload, "exp">, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ ...p, exp: now + STATE_TTL_MS })).toString("base64url");
  return `${body}.${mac(body)}`;
}

/** The payload of a state this service signed and that has not expired, else null. */
export function verifyState(state: string | undefined, now = Date.now()): StatePayload | null {
  if (!state || state.length > 2048) return null;
  const [body, sig, extra] = state.split(".");
  if (!body || !sig || extra !== undefined) return null;
  const expected = Buffer.from(mac(body));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const p = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as StatePayload;
    if (typeof p.exp !== "number" || p.exp <= now) return null;
    if (typeof p.redirectUri !== "string" || typeof p.nonce !== "string" || typeof p.provider !== "string") return null;
    if (p.codeChallenge !== undefined && (typeof p.codeChallenge !== "string" || !CODE_CHALLENGE_PATTERN.test(p.codeChallenge))) return null;
    return p;
  } catch {
    return null;
  }
}
