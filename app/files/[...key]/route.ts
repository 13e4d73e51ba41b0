import { randomUUID } from "node:crypto";
import { API_SECURITY_HEADERS, errorBody } from "@/lib/http/route";
import { contentTypeOfKey, isValidKey, storage } from "@/lib/storage";
import { INCOMING_PREFIX } from "@/lib/core/uploads/kinds";

// Serves files of the local storage driver (lib/storage/local.ts) at /files/{key}. Outside /api: the answer is
// the file itself. Keys are unique per upload (a fresh UUID), so a stored file never changes and may be cached
// for a year. Keys are validated segment by segment (no "..", no absolute paths, no hidden files) and the
// resolved path must stay inside UPLOAD_DIR; anything else is the same JSON 404 as a missing file.

type Ctx = { params: Promise<{ key?: string[] }> };

const notFound = (requestId: string) =>
  Response.json(errorBody("NOT_FOUND", "File not found."), {
    status: 404,
    headers: { "X-Request-Id": requestId, "Cache-Control": "no-store", ...API_SECURITY_HEADERS },
  });

export async function GET(_req: Request, ctx: Ctx): Promise<Response> {
  const requestId = randomUUID();
  const key = ((await ctx.params).key ?? []).join("/");
  const store = storage();
  // Direct uploads' originals (incoming/…) are never served: they still carry their metadata (EXIF, GPS). Data
  // exports (exports/…) are served only through their signed, short-lived download links (lib/operations/exports).
  if (!isValidKey(key) || store.driver !== "local" || key.startsWith(`${INCOMING_PREFIX}/`) || key.startsWith("exports/")) return notFound(requestId);
  const file = await store.get(key);
  if (!file) return notFound(requestId);
  return new Response(new Uint8Array(file.bytes), {
    status: 200,
    headers: {
      "Content-Type": contentTypeOfKey(key),
      "Content-Length": String(file.bytes.byteLength),
      "Cache-Control": "public, max-age=31536000, immutable",
      ...API_SECURITY_HEADERS,
      // Images only: nothing here may run script even if opened directly.
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "X-Request-Id": requestId,
    },
  });
}

const notAllowed = async (req: Request) =>
  Response.json(errorBody("METHOD_NOT_ALLOWED", `${req.method} is not allowed here. Allowed: GET, HEAD, OPTIONS.`), {
    status: 405,
    headers: { Allow: "GET, HEAD, OPTIONS", "X-Request-Id": randomUUID() },
  });

export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
