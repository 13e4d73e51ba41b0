import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { checkReadiness } from "@/lib/operations/platform/service";
import { readiness } from "@/lib/operations/platform/schemas";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Readiness",
      description:
        "Whether this process can serve requests that need its dependencies: PostgreSQL (`SELECT 1`, 2 s limit) and the rate limiter's Redis (`PING`, 1 s limit), touching no data. " +
        "200 with each dependency's state and latency while the database answers; `status: degraded` when only the rate limiter's store is unavailable (requests then proceed without rate limits). " +
        "503 SERVICE_UNAVAILABLE with Retry-After while the database is unavailable; `error.details` lists each check (`checks.database`: `unavailable (2001 ms)`). " +
        "`checks.replica` reports the read replicas (DATABASE_REPLICA_URL): each one's lag behind the primary and whether it is `ok`, `lagging` (over REPLICA_MAX_LAG_MS) or `down`; `none` without replicas. A replica lagging or down only sends the reads that may lag to the primary: it never makes this 503 nor `status` degraded. " +
        "`providers` says which payment providers are configured (Stripe unavailable: card top-ups answer 503 PAYMENTS_UNAVAILABLE); that does not make the process unready. Concurrent probes share one round of checks. `GET /api/health` is the liveness probe and touches nothing.",
      tags: ["Platform"],
      auth: "public",
      // Not limited: a load balancer probes it, and the limiter itself needs the Redis this reports on.
      rateLimit: false,
      errors: [sharedErrors.SERVICE_UNAVAILABLE],
      response: readiness,
    },
    async () => checkReadiness(),
  ),
});
