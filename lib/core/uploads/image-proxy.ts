import { lookup as dnsLookup } from "node:dns/promises";
import type { IncomingMessage } from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { env } from "../../env";
import { DomainError, sharedErrors } from "../../kernel/errors";
import { log } from "../../kernel/log";
import { isPublicAddress } from "./ip";
import { MIME, sniffImage, type ImageType } from "./sniff";
import { errors as uploadsErrors } from "./errors";

// The image proxy fetches remote images for clients, so it must not become a way into our network (SSRF):
//  - https only (plain http is refused: no downgrade and no cleartext fetches on a user's behalf); no
//    credentials in the URL; the host must be on IMAGE_PROXY_ALLOWED_HOSTS (exact host or "*.example.com",
//    which matches subdomains only);
//  - the host is resolved here (dns.lookup, all addresses) and EVERY address must be public unicast
//    (lib/core/uploads/ip.ts: no private, loopback, link-local, CGNAT, multicast, reserved, documentation, NAT64,
//    IPv4-mapped loopback…). The connection then goes to the vetted address through a custom `lookup`, so a
//    second DNS answer (rebinding) cannot swap it; TLS still verifies the certificate for the host name;
//  - redirects are followed at most 3 times, each hop checked exactly like the first URL (a hop to a refused
//    URL is 502 UPSTREAM_ERROR: the caller's URL was fine, the upstream misbehaved);
//  - the whole fetch (DNS, connect, redirects, body) must finish within IMAGE_PROXY_TIMEOUT_MS (504
//    UPSTREAM_TIMEOUT) and the body must stay within IMAGE_PROXY_MAX_BYTES (declared or streamed; past it the
//    download is aborted and the answer is 502 UPSTREAM_ERROR, since the upstream's file is at fault);
//  - the body must be an image by its bytes (JPEG, PNG, GIF, WebP, AVIF, HEIC; never SVG), whatever the
//    upstream's Content-Type says; anything else is 502 UPSTREAM_ERROR.
//
// IMAGE_PROXY_HOST_OVERRIDES ("host=ip:port,…") pins a host to an address and skips DNS and the public-address
// check for that host only. It exists for tests and local stand-ins (the test server runs with
// NODE_ENV=production, so a NODE_ENV switch could not tell them apart from production): production never sets
// it, and an override still requires the host to be allow-listed and the URL to be https with a valid
// certificate for the host name. Using one logs a warning.

export const MAX_REDIRECTS = 3;

export interface ProxyConfig {
  allowedHosts: string[];
  overrides: Map<string, Target>;
  maxBytes: number;
  timeoutMs: number;
}

interface Target {
  address: string;
  family: 4 | 6;
  port: number;
}

export interface ProxiedImage {
  bytes: Buffer;
  type: ImageType;
  contentType: string;
}

const normalizeHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");

let cached: ProxyConfig | undefined;

export function proxyConfig(): ProxyConfig {
  if (cached) return cached;
  const e = env();
  const overrides = new Map<string, Target>();
  for (const entry of (e.IMAGE_PROXY_HOST_OVERRIDES ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [host, target] = entry.split("=") as [string, string];
    const colon = target.lastIndexOf(":");
    const address = normalizeHost(target.slice(0, colon));
    const family = isIP(address);
    if (!family) throw new Error(`Invalid environment: IMAGE_PROXY_HOST_OVERRIDES: ${address} is not an IP address`);
    overrides.set(normalizeHost(host), { address, family: family as 4 | 6, port: Number(target.slice(colon + 1)) });
  }
  if (overrides.size)
    log("warn", { msg: "IMAGE_PROXY_HOST_OVERRIDES is set: pinned hosts skip the public-address check (tests only)", hosts: [...overrides.keys()] });
  cached = {
    allowedHosts: e.IMAGE_PROXY_ALLOWED_HOSTS.split(",").map(normalizeHost).filter(Boolean),
    overrides,
    maxBytes: e.IMAGE_PROXY_MAX_BYTES,
    timeoutMs: e.IMAGE_PROXY_TIMEOUT_MS,
  };
  return cached;
}

export function hostAllowed(host: string, allowed: string[]): boolean {
  return allowed.some((entry) => (entry.startsWith("*.") ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry));
}

type Refuse = (reason: string) => DomainError;

const refuseRequest: Refuse = (reason) =>
  new DomainError(uploadsErrors.URL_NOT_ALLOWED, `The proxy may not fetch this URL: ${reason}.`, [{ path: "query.url", message: reason }]);
const refuseRedirect: Refuse = (reason) => new DomainError(sharedErrors.UPSTREAM_ERROR, `The image redirected to a URL the proxy may not fetch: ${reason}.`);
const upstream = (message: string) => new DomainError(sharedErrors.UPSTREAM_ERROR, message);
const timeout = (ms: number) => new DomainError(sharedErrors.UPSTREAM_TIMEOUT, `The image host did not answer within ${ms} ms.`);

/** Checks scheme, credentials and allow-list (no network). */
export function checkUrl(url: URL, cfg: ProxyConfig, refuse: Refuse = refuseRequest): string {
  if (url.protocol !== "https:") throw refuse(`only https URLs are proxied, not ${url.protocol.replace(/:$/, "")}`);
  if (url.username || url.password) throw refuse("URLs with credentials are refused");
  const host = normalizeHost(url.hostname);
  if (!host || !hostAllowed(host, cfg.allowedHosts)) throw refuse(`host ${host || "(none)"} is not on the allow-list`);
  return host;
}

async function resolveTarget(host: string, url: URL, cfg: ProxyConfig, refuse: Refuse): Promise<Target> {
  const port = url.port ? Number(url.port) : 443;
  const pinned = cfg.overrides.get(host);
  if (pinned) return pinned;
  const literal = isIP(host);
  let addresses: { address: string; family: number }[];
  if (literal) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await dnsLookup(host, { all: true, verbatim: true });
    } catch {
      throw upstream(`The image host ${host} could not be resolved.`);
    }
  }
  if (addresses.length === 0) throw upstream(`The image host ${host} could not be resolved.`);
  // Every address must be public: a name with one private answer is refused, whichever we would pick.
  if (!addresses.every((a) => isPublicAddress(a.address))) throw refuse(`host ${host} resolves to a private or reserved address`);
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4, port };
}

type Hop = { kind: "redirect"; location: string } | { kind: "body"; bytes: Buffer };

function fetchOnce(url: URL, host: string, target: Target, cfg: ProxyConfig, signal: AbortSignal): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    // Connect to the vetted address whatever the resolver would say now (no rebinding between check and use).
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    const req = https.request({
      host,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method: "GET",
      headers: {
        host: url.host,
        accept: "image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,image/*;q=0.8",
        "accept-encoding": "identity",
        "user-agent": "fan-engagement-image-proxy/1.0",
      },
      lookup,
      servername: isIP(host) ? undefined : host,
      agent: false,
      signal,
    });
    const fail = (error: DomainError) => {
      req.destroy();
      reject(error);
    };
    req.on("error", (error) => {
      if (signal.aborted) reject(timeout(cfg.timeoutMs));
      else reject(upstream(`The image could not be fetched (${(error as NodeJS.ErrnoException).code ?? "connection failed"}).`));
    });
    req.on("response", (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
        resolve({ kind: "redirect", location: res.headers.location });
        req.destroy();
        return;
      }
      if (status !== 200) return fail(upstream(`The image host answered ${status}.`));
      const declared = Number(res.headers["content-length"]);
      if (declared > cfg.maxBytes) return fail(upstream(`The image is larger than ${cfg.maxBytes} bytes.`));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > cfg.maxBytes) return fail(upstream(`The image is larger than ${cfg.maxBytes} bytes.`));
        chunks.push(chunk);
      });
      res.on("end", () => resolve({ kind: "body", bytes: Buffer.concat(chunks) }));
      res.on("aborted", () => reject(signal.aborted ? timeout(cfg.timeoutMs) : upstream("The image download was cut off.")));
      res.on("error", () => reject(signal.aborted ? timeout(cfg.timeoutMs) : upstream("The image download failed.")));
    });
    req.end();
  });
}

async function run(raw: string, cfg: ProxyConfig, signal: AbortSignal): Promise<ProxiedImage> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "Invalid request query.", [{ path: "query.url", message: "Not an absolute URL" }]);
  }
  let refuse = refuseRequest;
  for (let hop = 0; ; hop++) {
    const host = checkUrl(url, cfg, refuse);
    const target = await resolveTarget(host, url, cfg, refuse);
    if (signal.aborted) throw timeout(cfg.timeoutMs);
    const result = await fetchOnce(url, host, target, cfg, signal);
    if (result.kind === "body") {
      const type = sniffImage(result.bytes);
      if (!type) throw upstream("The URL did not answer with an image (JPEG, PNG, GIF, WebP or AVIF).");
      return { bytes: result.bytes, type, contentType: MIME[type] };
    }
    if (hop >= MAX_REDIRECTS) throw upstream(`The image redirected more than ${MAX_REDIRECTS} times.`);
    try {
      url = new URL(result.location, url);
    } catch {
      throw upstream("The image host sent an invalid redirect.");
    }
    refuse = refuseRedirect;
  }
}

/** Fetches an allow-listed remote image under the rules above. */
export async function fetchProxiedImage(raw: string, cfg: ProxyConfig = proxyConfig()): Promise<ProxiedImage> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(timeout(cfg.timeoutMs));
    }, cfg.timeoutMs);
  });
  try {
    return await Promise.race([run(raw, cfg, controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
    controller.abort(); // ends any connection still open
  }
}
