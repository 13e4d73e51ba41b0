import { randomUUID } from "node:crypto";
import { methods } from "@/lib/http/methods";
import { openApiDocument } from "@/lib/openapi/document";

const { POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: undefined });
export { POST, PUT, PATCH, DELETE, OPTIONS };

// The contract itself: plain JSON, no envelope (tools read it as-is).
export async function GET() {
  return Response.json(openApiDocument(), { headers: { "X-Request-Id": randomUUID(), "Cache-Control": "public, max-age=60" } });
}
