import { z } from "zod";

// Configuration read once from the environment and validated with zod; errors name what is wrong.
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  // Unset: the local PostgreSQL (DEFAULT_DATABASE_URL) outside production; required in production (lib/startup.ts).
  DATABASE_URL: z.string().url().optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  // What DATABASE_URL reaches: "session" (PostgreSQL itself, or a session pooler) or "transaction" (PgBouncer in
  // transaction mode, Supavisor's or Neon's pooled endpoint), where a connection is lent per transaction, so no named
  // prepared statement may outlive one. "auto": transaction for a Neon "-pooler." host or Supabase's
  // "pooler.supabase.com" on port 6543, else session (docs/decisions/0071-transaction-pooler-ready.md).
  DATABASE_POOLER: z.enum(["auto", "session", "transaction"]).default("auto"),
  // A direct (unpooled) URL for what needs the session: migrations (their advisory lock). Unset: DATABASE_URL.
  DATABASE_DIRECT_URL: z.string().url().optional(),
  // Read replicas (hot standbys), comma-separated URLs: the named heavy reads that tolerate lag (readMayLag,
  // lib/db/replica.ts) go to them in turn; unset, everything reads the primary. A replica more than REPLICA_MAX_LAG_MS
  // behind, or not answering, is left out (reads go to the primary) until it catches up. A signed-in fan's reads go to
  // the primary for REPLICA_READ_YOUR_WRITES_MS after each of their writes (default: the lag limit + 2 s; it must be at
  // least the lag limit + 1 s, the lag check's interval). docs/decisions/0072-read-replicas.md.
  DATABASE_REPLICA_URL: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || commaList(v).every((u) => URL.canParse(u) && /^postgres(ql)?:$/.test(new URL(u).protocol)),
      "comma-separated postgresql:// URLs",
    ),
  REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  REPLICA_READ_YOUR_WRITES_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  // Unset (and no Upstash): the local Redis if one answers, else in-process rate limits, outside production only
  // (lib/redis/client.ts redisBackend). REDIS_BACKEND=memory chooses the in-process store explicitly, also in production.
  REDIS_URL: z.string().url().optional(),
  // A Redis Cluster instead (TCP): some of its masters as host:port,host:port,… (the client finds the rest). Wins over
  // REDIS_URL; Upstash wins over both (docs/decisions/0073-redis-cluster.md).
  REDIS_CLUSTER_NODES: z
    .string()
    .regex(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/, "host:port,host:port,…")
    .optional(),
  REDIS_BACKEND: z.enum(["auto", "memory"]).default("auto"),
  UPSTASH_REDIS_REST_URL: z.string().url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  RATE_LIMIT_TIMEOUT_MS: z.coerce.number().int().min(1).max(10_000).default(200),
  RATE_LIMIT_PREFIX: z.string().min(1).default("rl"),
  // Prefix of the leaderboards' Redis keys (tests give each run its own).
  LEADERBOARD_PREFIX: z.string().min(1).default("lb"),
  // A live leaderboard stream closes itself after this long (below the hosting function's maximum duration) with a
  // retry hint, and sends a comment this often so proxies keep an idle stream open.
  LEADERBOARD_STREAM_MAX_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(270_000),
  LEADERBOARD_STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  // Soft close: a bid within this many minutes of an auction's end moves the end to now + this (0: no soft close).
  AUCTION_SOFT_CLOSE_MINUTES: z.coerce.number().int().min(0).max(60).default(2),
  // Live streams (Server-Sent Events) one caller may hold open at once, across instances (lib/http/streams.ts): a
  // Bearer session's user, else (session cookie or anonymous) the client address.
  STREAMS_PER_CALLER: z.coerce.number().int().min(1).max(1_000).default(5),
  // JSON map of policy → { tokens, window } replacing the built-in numbers, e.g. '{"write":{"tokens":600,"window":"60 s"}}'.
  RATE_LIMIT_OVERRIDES: z.string().optional(),
  // Browser origins allowed to call the API cross-origin (CORS): comma-separated exact origins such as
  // https://app.example.com (scheme, host and port; no path). None by default: no CORS headers at all.
  CORS_ALLOWED_ORIGINS: z
    .string()
    .default("")
    .refine(
      (v) =>
        v
          .split(",")
          .map((o) => o.trim())
          .filter(Boolean)
          .every((o) => /^[a-z][a-z0-9+.-]*:\/\/[^/\s?#]+$/i.test(o)),
      "comma-separated origins (scheme://host[:port], no path or trailing slash)",
    ),
  CLERK_JWT_KEY: z.string().optional(),
  // Origins allowed in a session token's azp claim (comma-separated); required in production, and the staff console
  // then accepts only sessions whose azp is one of them.
  CLERK_AUTHORIZED_PARTIES: z.string().optional(),
  // The Clerk instance's issuer (its Frontend API URL); a token whose iss differs is refused. Required in production;
  // elsewhere it defaults to the issuer of the development tokens (npm run token).
  CLERK_ISSUER: z.string().url().optional(),
  CLERK_SECRET_KEY: z.string().min(1).optional(),
  CLERK_API_URL: z.string().url().optional(),
  // Hosted sign-in page the mobile flow sends the browser to (Clerk Account Portal or the web app's page).
  CLERK_SIGN_IN_URL: z.string().url().default("https://accounts.example.com/sign-in"),
  // Public origin of this service, used to build the mobile OAuth callback URL.
  APP_URL: z.string().url().default("http://localhost:3000"),
  MOBILE_OAUTH_PROVIDERS: z.string().default("google,apple"),
  // Exact redirect URIs the native apps may be sent back to (comma-separated). Anything else is refused.
  MOBILE_REDIRECT_URIS: z.string().default("fanapp://auth/callback"),
  // HMAC key for the mobile OAuth state; required in production.
  MOBILE_STATE_SECRET: z.string().min(32).optional(),
  MOBILE_MIN_VERSION: z.string().default("1.0.0"),
  MOBILE_LATEST_VERSION: z.string().default("1.0.0"),
  MOBILE_UPDATE_URL_IOS: z.string().url().optional(),
  MOBILE_UPDATE_URL_ANDROID: z.string().url().optional(),
  CLERK_CLOCK_SKEW_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  // How long a process keeps a team's public detail (0 = never); syncs in the same process clear it.
  TEAM_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  // How long a process reuses a signed-in caller's user row id and full-suspension end (lib/auth/users.ts; 0 = never):
  // the bound on how late another process refuses a fan staff just suspended (the process that did it forgets at once).
  USER_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  // How long a process reuses the answer of a route marked anonymousCache (the feed, marketplace listings) for callers
  // without a session, per path and query (0 = never). Signed-in callers always read fresh.
  ANONYMOUS_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  // lib/features/config: how long a process reuses the remote config (flags, kill switches, settings) before reading it again.
  CONFIG_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  // The Terms of Use version a user must have accepted to post user-generated content.
  UGC_TERMS_VERSION: z.string().min(1).default("2026-01"),
  // Where the current Terms of Use can be read (GET /api/user/terms).
  UGC_TERMS_URL: z.string().url().optional(),
  // Where a request's client address (for IP rate limits) comes from: "vercel" (Vercel's own header, the default on
  // Vercel), "forwarded" (X-Forwarded-For, TRUSTED_PROXY_HOPS entries from the right: the default elsewhere) or "none".
  CLIENT_IP_SOURCE: z.enum(["vercel", "forwarded", "none"]).optional(),
  // How many proxies in front of the server append to X-Forwarded-For; the client is that many entries from the right.
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // Uploads: Vercel Blob when BLOB_READ_WRITE_TOKEN is set, else files under UPLOAD_DIR served at GET /files/{key}.
  BLOB_READ_WRITE_TOKEN: z.string().min(1).optional(),
  UPLOAD_DIR: z.string().min(1).default(".data/uploads"),
  // Prefix of the URLs of locally stored files, e.g. https://api.example.com/files (default: the relative /files).
  UPLOAD_PUBLIC_BASE_URL: z
    .string()
    .regex(/^(https?:\/\/[^\s]+|\/[^\s]*)$/, "an http(s) URL or an absolute path")
    .optional(),
  // Image proxy: comma-separated hosts it may fetch from (exact host, or *.example.com for any subdomain).
  IMAGE_PROXY_ALLOWED_HOSTS: z.string().default(""),
  // Tests and local stand-ins only: comma-separated host=ip:port pins that skip DNS and the private-address check.
  IMAGE_PROXY_HOST_OVERRIDES: z
    .string()
    .regex(/^\s*$|^\s*[a-z0-9.-]+=[0-9a-f.:[\]]+:\d{1,5}\s*(,\s*[a-z0-9.-]+=[0-9a-f.:[\]]+:\d{1,5}\s*)*$/i, "comma-separated host=ip:port")
    .optional(),
  IMAGE_PROXY_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  IMAGE_PROXY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  // League/team sync: the fixture feed file (relative to the working directory) unless SYNC_FEED_URL is set.
  SYNC_FEED_FILE: z.string().min(1).default("lib/features/sync/fixtures/feed.json"),
  SYNC_FEED_URL: z.string().url().optional(),
  SYNC_FEED_TOKEN: z.string().min(1).optional(),
  // HMAC-SHA256 key of POST /api/webhooks/leagues-sync (unset: every delivery is refused).
  LEAGUES_SYNC_WEBHOOK_SECRET: z.string().min(16).optional(),
  // HMAC-SHA256 key of POST /api/webhooks/live-events, the data provider's live feed (lib/features/live/signature.ts): unset,
  // a development secret outside production, and 503 LIVE_FEED_UNAVAILABLE in production.
  LIVE_EVENTS_WEBHOOK_SECRET: z.string().min(16).optional(),
  // Stripe (lib/features/payments): the secret API key and the webhook endpoint's signing secret; both or web top-ups answer
  // 503 PAYMENTS_UNAVAILABLE. STRIPE_API_URL points the official client elsewhere (the local stand-in: npm run dev
  // starts one when the key is unset, tests run one); STRIPE_RETURN_URL is the page the buyer comes back to.
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_URL: z.string().url().optional(),
  STRIPE_RETURN_URL: z.string().url().optional(),
  // The daily reconciliation leaves differences younger than this alone (a webhook may still be on its way).
  PAYMENTS_RECONCILE_SETTLE_MINUTES: z.coerce.number().int().min(0).max(1440).default(60),
  // In-app purchases on iOS (lib/features/payments/app-store.ts): the app's bundle id and Apple's root certificates (PEM text
  // or a file path: Apple Root CA - G3 from apple.com/certificateauthority) turn them on; APPLE_IAP_APP_APPLE_ID is
  // required in Production. Online checks (OCSP, the current date) are on unless turned off (tests' own chain).
  APPLE_IAP_BUNDLE_ID: z.string().min(1).optional(),
  APPLE_IAP_ROOT_CERTIFICATES: z.string().min(1).optional(),
  APPLE_IAP_ENVIRONMENT: z.enum(["Production", "Sandbox"]).default("Production"),
  APPLE_IAP_APP_APPLE_ID: z.coerce.number().int().positive().optional(),
  APPLE_IAP_ONLINE_CHECKS: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  // The App Store Server API (the reconciliation's App Store side): an in-app purchase key from App Store Connect
  // (its .p8 PEM text or a file path), its id and the issuer id; without them the reconciliation leaves the App Store
  // out. APPLE_IAP_API_URL points it elsewhere than Apple's server for APPLE_IAP_ENVIRONMENT (the stand-in).
  APPLE_IAP_API_KEY: z.string().min(1).optional(),
  APPLE_IAP_API_KEY_ID: z.string().min(1).optional(),
  APPLE_IAP_API_ISSUER_ID: z.string().min(1).optional(),
  APPLE_IAP_API_URL: z
    .string()
    .url()
    .transform((u) => u.replace(/\/+$/, ""))
    .optional(),
  // In-app purchases on Android (lib/features/payments/google-play.ts): the app's package name and a service account's JSON key
  // (the JSON or a file path) with access to the Play Developer API turn them on; GOOGLE_PLAY_API_URL points at a
  // stand-in (whose token endpoint is the key's token_uri). Test purchases (license testers) only when allowed.
  // Real-time Developer Notifications: the Pub/Sub push subscription's OIDC audience and service account (email);
  // GOOGLE_PLAY_PUSH_CERTS_URL: where Google's signing certificates are read (a stand-in's in tests).
  GOOGLE_PLAY_PACKAGE_NAME: z.string().min(1).optional(),
  GOOGLE_PLAY_SERVICE_ACCOUNT: z.string().min(1).optional(),
  GOOGLE_PLAY_API_URL: z
    .string()
    .url()
    .transform((u) => u.replace(/\/+$/, ""))
    .default("https://androidpublisher.googleapis.com"),
  GOOGLE_PLAY_ALLOW_TEST_PURCHASES: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  GOOGLE_PLAY_PUSH_AUDIENCE: z.string().min(1).optional(),
  GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT: z.string().min(1).optional(),
  GOOGLE_PLAY_PUSH_CERTS_URL: z.string().url().default("https://www.googleapis.com/oauth2/v1/certs"),
  // Account deletion: how many days after the request the erasure cron may erase the account (the grace period).
  ACCOUNT_DELETION_GRACE_DAYS: z.coerce.number().int().min(0).max(90).default(7),
  // Spending limits' defaults (lib/features/spending), in minor units of COIN (100 = 1 coin): what a fan may top up and spend on
  // packs per UTC day and calendar month until they set their own (each up to 10 times its default).
  SPENDING_LIMIT_TOPUPS_DAILY: z.coerce.number().int().min(0).max(1e12).default(500_000),
  SPENDING_LIMIT_TOPUPS_MONTHLY: z.coerce.number().int().min(0).max(1e12).default(2_000_000),
  SPENDING_LIMIT_PACKS_DAILY: z.coerce.number().int().min(0).max(1e12).default(500_000),
  SPENDING_LIMIT_PACKS_MONTHLY: z.coerce.number().int().min(0).max(1e12).default(2_000_000),
  // Countries (ISO 3166-1 alpha-2, comma-separated, e.g. "BE,NL") where packs are not sold: the request's country
  // (Vercel's x-vercel-ip-country) or the fan's own setting.
  PACK_SALES_BLOCKED_COUNTRIES: z
    .string()
    .default("")
    .refine((v) => v.split(",").every((c) => c.trim() === "" || /^[A-Za-z]{2}$/.test(c.trim())), "comma-separated two-letter country codes"),
  // Feed signals older than this many days are deleted by GET /api/cron/signals-retention.
  SIGNALS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  // Arena check-ins: open from this many minutes before a game's start until this many after it; where the venue has
  // coordinates, the device must be within the radius, its reported accuracy no coarser than the limit (meters).
  CHECK_IN_OPENS_MINUTES_BEFORE: z.coerce.number().int().min(0).max(1440).default(180),
  CHECK_IN_CLOSES_MINUTES_AFTER: z.coerce.number().int().min(0).max(1440).default(180),
  CHECK_IN_RADIUS_METERS: z.coerce.number().int().min(50).max(50_000).default(1_000),
  CHECK_IN_MAX_ACCURACY_METERS: z.coerce.number().int().min(5).max(10_000).default(250),
  // HMAC key (>= 32 chars) of data export download links (lib/operations/exports/link.ts); unset: one derived from
  // MOBILE_STATE_SECRET, or without that (development only) a random key per process.
  EXPORT_LINK_SECRET: z.string().min(32).optional(),
  // Vercel Cron's Bearer secret for GET /api/cron/leagues-sync (unset: every call is refused).
  CRON_SECRET: z.string().min(16).optional(),
  // Push delivery (lib/core/push). Expo: an access token when the project's push security requires one; EXPO_BASE_URL is
  // the server SDK's own variable (read by the SDK when it loads), which tests and local stand-ins point elsewhere.
  EXPO_ACCESS_TOKEN: z.string().min(1).optional(),
  EXPO_BASE_URL: z.string().url().optional(),
  // Web push: the VAPID key pair (web-push generateVAPIDKeys(), URL-safe base64) and the contact (mailto: or https:).
  // Unset: web push is not configured.
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, "mailto: or https: URL")
    .default("mailto:push@example.com"),
  // FCM (HTTP v1): the Firebase service account's JSON key (the JSON itself, or the path of its file). Its token_uri is
  // where the signed assertion is exchanged for an access token; FCM_BASE_URL is the API's origin (a stand-in in tests).
  // Unset: FCM is not configured.
  FCM_SERVICE_ACCOUNT_JSON: z.string().min(1).optional(),
  FCM_BASE_URL: z
    .string()
    .url()
    .transform((u) => u.replace(/\/+$/, ""))
    .default("https://fcm.googleapis.com"),
  // APNs (HTTP/2, token-based): the .p8 key (PEM, or the path of its file), its key id, the team id and the topic (the
  // app's bundle id); all four or APNs is not configured. APNS_HOST: api.push.apple.com, api.sandbox.push.apple.com
  // for development builds, or host:port of a stand-in, whose certificate APNS_CA (PEM or path) trusts (tests only).
  APNS_KEY: z.string().min(1).optional(),
  APNS_KEY_ID: z.string().min(1).optional(),
  APNS_TEAM_ID: z.string().min(1).optional(),
  APNS_TOPIC: z.string().min(1).optional(),
  APNS_HOST: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d{1,5})?$/i, "a host name, or host:port")
    .default("api.push.apple.com"),
  APNS_CA: z.string().min(1).optional(),
  // A provider that is not configured (Expo: no EXPO_ACCESS_TOKEN or EXPO_BASE_URL outside production; web push: no
  // VAPID keys; FCM: no service account; APNs: not all of its key, key id, team id and topic) delivers to the
  // development stand-in (recorded, logged, shown in the console) when this is on; auto = on outside production. Off:
  // such a device is skipped and recorded.
  PUSH_DEV_STANDIN: z.enum(["auto", "on", "off"]).default("auto"),
  // Retries: a failed send waits PUSH_RETRY_BASE_SECONDS × 2^(attempts − 1), at most PUSH_MAX_ATTEMPTS sends in all.
  PUSH_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  PUSH_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  // A notification not pushed within this many hours (queued through quiet hours, or retrying) is dropped as stale.
  PUSH_STALE_HOURS: z.coerce.number().int().min(1).max(168).default(24),
  // Expo receipts are read this many seconds after the send (Expo keeps them about a day).
  PUSH_EXPO_RECEIPT_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(900),
});

/** The entries of a comma-separated list (replica URLs, cluster nodes), trimmed, empty ones left out. */
function commaList(v: string): string[] {
  return v
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean);
}

export type Env = z.infer<typeof schema>;
let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  if (parsed.data.UPSTASH_REDIS_REST_URL && !parsed.data.UPSTASH_REDIS_REST_TOKEN) {
    throw new Error("Invalid environment: UPSTASH_REDIS_REST_TOKEN is required with UPSTASH_REDIS_REST_URL");
  }
  const lag = parsed.data.REPLICA_MAX_LAG_MS;
  if (parsed.data.REPLICA_READ_YOUR_WRITES_MS !== undefined && parsed.data.REPLICA_READ_YOUR_WRITES_MS < lag + REPLICA_LAG_CHECK_MS) {
    throw new Error(
      `Invalid environment: REPLICA_READ_YOUR_WRITES_MS must be at least REPLICA_MAX_LAG_MS + ${REPLICA_LAG_CHECK_MS} (${lag + REPLICA_LAG_CHECK_MS})`,
    );
  }
  // `next build` evaluates modules with NODE_ENV=production but serves nothing: the server checks at its start.
  if (parsed.data.NODE_ENV === "production" && process.env.NEXT_PHASE !== "phase-production-build") {
    const missing = PRODUCTION_REQUIRED.filter((name) => !parsed.data[name]);
    if (missing.length) throw new Error(`Invalid environment: ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} required in production`);
  }
  return (cached = parsed.data);
}

/** Secrets and settings a production server cannot work without: missing ones stop it at start-up, not at first use. */
const PRODUCTION_REQUIRED = ["CLERK_JWT_KEY", "CLERK_SECRET_KEY", "CLERK_ISSUER", "CLERK_AUTHORIZED_PARTIES", "MOBILE_STATE_SECRET"] as const;

export const DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/fan_engagement";
export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";
/** REDIS_CLUSTER_NODES as "host:port" strings (none when unset). */
export const redisClusterNodes = (): string[] => commaList(env().REDIS_CLUSTER_NODES ?? "");
/** DATABASE_URL, or the local PostgreSQL when it is unset (production refuses to start without it: lib/startup.ts). */
export const databaseUrl = () => env().DATABASE_URL ?? DEFAULT_DATABASE_URL;
export const dbPoolSize = () => env().DB_POOL_SIZE;
/** DATABASE_DIRECT_URL, else DATABASE_URL: what migrations (a session's advisory lock) connect to. */
export const directDatabaseUrl = () => env().DATABASE_DIRECT_URL ?? databaseUrl();

/** How often a process measures each replica's lag (lib/db/replica.ts); reads between two checks use the last one. */
export const REPLICA_LAG_CHECK_MS = 1_000;
/** DATABASE_REPLICA_URL's URLs (none when unset). */
export const replicaUrls = (): string[] => commaList(env().DATABASE_REPLICA_URL ?? "");
/** How long a fan's reads stay on the primary after their write: REPLICA_READ_YOUR_WRITES_MS, else the lag limit + 2 s. */
export const readYourWritesMs = () => env().REPLICA_READ_YOUR_WRITES_MS ?? env().REPLICA_MAX_LAG_MS + 2 * REPLICA_LAG_CHECK_MS;

/**
 * Whether `url` (DATABASE_URL unless given: a replica's too) lends a connection per transaction: DATABASE_POOLER
 * when set to session or transaction (it then describes every URL), else recognised from the URL ("auto").
 */
export function transactionPooled(of = databaseUrl()): boolean {
  const mode = env().DATABASE_POOLER;
  if (mode !== "auto") return mode === "transaction";
  const url = new URL(of);
  return url.hostname.includes("-pooler.") || (url.hostname.endsWith("pooler.supabase.com") && url.port === "6543");
}
