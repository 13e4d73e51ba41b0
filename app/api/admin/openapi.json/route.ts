import { z } from "zod";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { internalOpenApiDocument } from "@/lib/openapi/document";

// The internal contract (staff console and cron routes), for staff only.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route({ summary: "Internal OpenAPI document", tags: ["Admin"], auth: "admin", envelope: false, response: z.record(z.string(), z.unknown()) }, async () =>
    internalOpenApiDocument(),
  ),
});
