import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { OPENAPI_DOCUMENT_ROUTE, openApiDocument } from "@/lib/operations/openapi/document";
import { ROUTES } from "@/app/api/routes.generated";

// The contract itself: plain JSON, no envelope (tools read it as-is); the document describes this route from the same config.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(OPENAPI_DOCUMENT_ROUTE, async () => openApiDocument(ROUTES)),
});
