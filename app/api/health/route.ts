import { z } from "zod";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

const startedAt = Date.now();

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Liveness",
      description: "Answers while the process serves requests. Touches no database.",
      tags: ["Platform"],
      auth: "public",
      response: z.object({ status: z.literal("ok"), uptimeSeconds: z.number() }).meta({ id: "Health" }),
    },
    async () => ({ status: "ok" as const, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) }),
  ),
});
