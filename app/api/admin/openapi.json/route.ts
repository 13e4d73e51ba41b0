import { z } from "zod";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { internalOpenApiDocument } from "@/lib/operations/openapi/document";
import { ROUTES } from "@/app/api/routes.generated";

// The internal contract (staff console, cron and webhook routes: isInternal in lib/operations/openapi/document.ts), for staff only.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    { summary: "Internal OpenAPI document", tags: ["Admin"], auth: "admin", staffArea: "staff", envelope: false, response: z.record(z.string(), z.unknown()) },
    async () => internalOpenApiDocument(ROUTES),
  ),
});
