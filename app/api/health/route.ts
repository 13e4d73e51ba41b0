import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { health } from "@/lib/operations/platform/schemas";

const startedAt = Date.now();

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Liveness",
      description: "Answers while the process serves requests. Touches no database.",
      tags: ["Platform"],
      auth: "public",
      // Not limited: the load balancer probes it and it is the benchmark baseline; it touches nothing worth protecting.
      rateLimit: false,
      database: false,
      response: health,
    },
    async () => ({ status: "ok" as const, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) }),
  ),
});
