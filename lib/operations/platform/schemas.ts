import { z } from "zod";

export const health = z.object({ status: z.literal("ok"), uptimeSeconds: z.number() }).meta({ id: "Health" });

const check = z.object({
  status: z.enum(["ok", "unavailable"]),
  latencyMs: z.number().meta({ description: "How long the check took (at most its time limit)." }),
});

const replicaStatus = z.enum(["ok", "lagging", "down"]);
const lagMs = z
  .number()
  .nullable()
  .meta({ description: "How far behind in time (0: it had replayed everything the primary had written); null when unknown or down." });
const replicaCheck = z
  .object({
    status: z.enum(["ok", "lagging", "down", "none"]).meta({
      description:
        "`none`: no DATABASE_REPLICA_URL. `ok`: every replica is within REPLICA_MAX_LAG_MS. `lagging` or `down`: the worst replica's state; reads that may lag then go to the primary instead, so this never makes the process unready.",
    }),
    lagMs: lagMs.meta({ description: "The largest known lag among the replicas (ms); null when none is known." }),
    replicas: z
      .array(
        z.object({
          status: replicaStatus,
          lagMs,
          lagBytes: z
            .number()
            .nullable()
            .meta({ description: "How far behind in WAL bytes (the primary's write position minus its replay position); null when down." }),
          checkedAt: z.string().meta({ description: "When this process last measured it (at most once a second)." }),
        }),
      )
      .meta({ description: "Each replica of DATABASE_REPLICA_URL, in its order." }),
  })
  .meta({ description: "Read replicas (lag measured against the primary's WAL position, 1 s limit per check); reported, never required." });

export const readiness = z
  .object({
    status: z.enum(["ok", "degraded"]).meta({ description: "`degraded`: the rate limiter's store is unavailable; requests proceed without rate limits." }),
    checks: z.object({
      database: check.meta({ description: "PostgreSQL: `SELECT 1` on the server's pool (2 s limit). Always `ok` here: unavailable is a 503." }),
      rateLimiter: check
        .extend({
          backend: z.enum(["redis", "redis-cluster", "upstash", "memory"]).meta({
            description:
              "Redis (REDIS_URL or the local one), a Redis Cluster (REDIS_CLUSTER_NODES), Upstash's REST API when configured, or the in-process store (development without Redis, REDIS_BACKEND=memory).",
          }),
        })
        .meta({ description: "The rate limiter's store: `PING` (1 s limit)." }),
      replica: replicaCheck,
    }),
    providers: z
      .object({
        stripe: z.object({
          status: z.enum(["configured", "unavailable"]).meta({
            description:
              "`unavailable`: STRIPE_SECRET_KEY or STRIPE_WEBHOOK_SECRET is unset, so card top-ups and the Stripe webhook answer 503 PAYMENTS_UNAVAILABLE.",
          }),
          mode: z.enum(["live", "test", "standin", "unconfigured"]).meta({ description: "Live or test keys, the local stand-in (STRIPE_API_URL), or none." }),
        }),
        appStore: z.object({
          status: z.enum(["configured", "unavailable"]).meta({
            description:
              "`unavailable`: APPLE_IAP_BUNDLE_ID or APPLE_IAP_ROOT_CERTIFICATES is unset, so iOS purchases and the App Store webhook answer 503 PAYMENTS_UNAVAILABLE.",
          }),
          mode: z
            .enum(["production", "sandbox", "unconfigured"])
            .meta({ description: "The App Store environment whose transactions are accepted (APPLE_IAP_ENVIRONMENT), or none." }),
        }),
        googlePlay: z.object({
          status: z.enum(["configured", "unavailable"]).meta({
            description:
              "`unavailable`: GOOGLE_PLAY_PACKAGE_NAME or GOOGLE_PLAY_SERVICE_ACCOUNT is unset, so Android purchases and the Google Play webhook answer 503 PAYMENTS_UNAVAILABLE.",
          }),
          mode: z
            .enum(["live", "standin", "unconfigured"])
            .meta({ description: "Google's Play Developer API, the local stand-in (GOOGLE_PLAY_API_URL), or none." }),
        }),
      })
      .meta({ description: "Payment providers as configured (read from the environment, not probed). Not configured does not make the process unready." }),
  })
  .meta({ id: "Readiness" });

export type Readiness = z.infer<typeof readiness>;

const support = z.enum(["full", "partial", "none"]);
const platformSupport = z.object({ support, notes: z.string().nullable() });

export const accessibilityMatrix = z
  .object({
    version: z.string(),
    updatedAt: z.string().meta({ description: "YYYY-MM-DD of the last review." }),
    standards: z.array(z.string()),
    platforms: z.array(z.enum(["web", "ios", "android"])),
    features: z.array(
      z.object({
        id: z.string(),
        label: z.string(),
        description: z.string(),
        platforms: z.object({ web: platformSupport, ios: platformSupport, android: platformSupport }),
      }),
    ),
    contact: z.object({ email: z.string(), url: z.string() }),
  })
  .meta({ id: "AccessibilityMatrix" });

export type AccessibilityMatrix = z.infer<typeof accessibilityMatrix>;
