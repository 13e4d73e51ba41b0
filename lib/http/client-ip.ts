import { env } from "../env";

// The client address IP rate limits key on. X-Forwarded-For is a list the client starts and every proxy appends
// to, so only entries added by our own proxies can be trusted: the client is TRUSTED_PROXY_HOPS entries from the
// right. On Vercel the platform's own header is used (Vercel overwrites what the client sent). With no proxy in
// front (a bare `npm start`) nothing identifies the client: put it behind a proxy that sets X-Forwarded-For.

export type ClientIpSource = "vercel" | "forwarded" | "none";

export interface ClientIpConfig {
  source: ClientIpSource;
  hops: number;
}

let config: ClientIpConfig | undefined;
export function clientIpConfig(): ClientIpConfig {
  if (config) return config;
  const e = env();
  return (config = { source: e.CLIENT_IP_SOURCE ?? (process.env.VERCEL ? "vercel" : "forwarded"), hops: e.TRUSTED_PROXY_HOPS });
}

const UNKNOWN = "unknown";

export function clientAddress(headers: Headers, { source, hops }: ClientIpConfig = clientIpConfig()): string {
  if (source === "none") return UNKNOWN;
  if (source === "vercel") {
    return headers.get("x-vercel-forwarded-for")?.split(",")[0]?.trim() || headers.get("x-real-ip")?.trim() || UNKNOWN;
  }
  const forwarded = headers.get("x-forwarded-for");
  if (!forwarded) return UNKNOWN;
  const entries = forwarded.split(",");
  // Fewer entries than hops: the request came through fewer proxies than configured; the first is the best guess.
  return entries[Math.max(0, entries.length - hops)]!.trim() || UNKNOWN;
}
