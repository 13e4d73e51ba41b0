import { IDEMPOTENCY_HEADER } from "../db/idempotency";
import { validationError } from "../kernel/errors";

// The Idempotency-Key header (route option `idempotency`, lib/http/route.ts); the header's names, the store and the
// replay are the data layer's (lib/db/idempotency.ts).

/** A key's length and characters (visible ASCII): checked here, stated by the OpenAPI document (lib/operations/openapi). */
export const IDEMPOTENCY_KEY_MAX = 255;
export const IDEMPOTENCY_KEY_CHARS = "\\x21-\\x7e";
const KEY = new RegExp(`^[${IDEMPOTENCY_KEY_CHARS}]{1,${IDEMPOTENCY_KEY_MAX}}$`);

/** The Idempotency-Key header, or null when it is absent; a malformed one is a 400 naming the header. */
export function idempotencyKeyOf(req: Request): string | null {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key !== null && !KEY.test(key)) {
    throw validationError(`${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters.`, [
      { path: `headers.${IDEMPOTENCY_HEADER.toLowerCase()}`, message: "1..255 visible ASCII characters" },
    ]);
  }
  return key;
}

/** The Idempotency-Key header, required: money-moving creates cannot be retried safely without one. */
export function requireIdempotencyKey(req: Request): string {
  const key = idempotencyKeyOf(req);
  if (key === null) {
    throw validationError(`Send an ${IDEMPOTENCY_HEADER} header of 1 to 255 visible ASCII characters (a UUID, say): a retry with it never moves money twice.`, [
      { path: `headers.${IDEMPOTENCY_HEADER.toLowerCase()}`, message: "required" },
    ]);
  }
  return key;
}

/**
 * The route's path template, from the request's path and its params: each segment that is a param's value becomes
 * `{name}` ("/api/v1/packs/pk_1/purchases" with { packId: "pk_1" } → "/api/v1/packs/{packId}/purchases").
 */
export function pathTemplate(pathname: string, params: Record<string, string | string[]> | undefined): string {
  const names = new Map(Object.entries(params ?? {}).flatMap(([name, value]) => (typeof value === "string" ? [[value, name] as const] : [])));
  return pathname
    .split("/")
    .map((segment) => {
      const name = names.get(decodeURIComponent(segment));
      return name ? `{${name}}` : segment;
    })
    .join("/");
}
