import { sharedErrors, type ErrorDetail } from "../kernel/errors";

// The parts of an answer that need nothing server-only (no env, no database, no node: modules): the request
// pipeline (lib/http/route.ts) builds every API answer from them, and middleware.ts its answer to a malformed path
// (next.config.ts reads the pages' headers too).

/** On every API answer: JSON is never a page to render, frame or sniff as something else. */
export const API_SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
};

/** On every page (the staff console, /docs, sign-in; next.config.ts): no clickjacking of a console button. */
export const PAGE_SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
};

/** The request's X-Request-Id when it is a sane id (8..128 of `[A-Za-z0-9_.:-]`), else a fresh UUID. */
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && /^[\w.:-]{8,128}$/.test(incoming) ? incoming : globalThis.crypto.randomUUID();
}

export function errorBody(code: string, message: string, details?: ErrorDetail[]) {
  return { success: false as const, error: { code, message, ...(details?.length ? { details } : {}) } };
}

/** Paths whose answers are JSON, errors included: the API and the local storage driver's files. */
export const isJsonPath = (pathname: string) => pathname.startsWith("/api/") || pathname === "/api" || pathname.startsWith("/files/");

/** Whether the raw (undecoded) path holds a percent escape that does not decode: `%ZZ`, a `%` at the end, `%FF`. */
export function isMalformedPath(rawPathname: string): boolean {
  try {
    decodeURIComponent(rawPathname);
    return false;
  } catch {
    return true;
  }
}

/**
 * The answer to a path holding a malformed percent escape, which Next would fail to decode while matching a dynamic
 * route, before any route runs (a bare 500 text/plain): on a JSON path the API's 400 VALIDATION_ERROR with the API's
 * headers, elsewhere a short 400 page with the pages' headers. middleware.ts answers it (its matcher takes only paths
 * with a `%` that does not start an ASCII escape).
 */
export function malformedPathAnswer(rawPathname: string, incomingRequestId: string | null | undefined): Response {
  if (isJsonPath(rawPathname)) {
    const body = errorBody(sharedErrors.VALIDATION_ERROR.code, "The request path holds a malformed percent escape (% must start two hex digits of UTF-8).", [
      { path: "path", message: "Malformed percent-encoding" },
    ]);
    return Response.json(body, {
      status: 400,
      headers: { "X-Request-Id": requestIdFrom(incomingRequestId), "Cache-Control": "no-store", ...API_SECURITY_HEADERS },
    });
  }
  const page = "<!doctype html><html lang=en><title>400 Bad Request</title><h1>400 Bad Request</h1><p>The address holds a malformed percent escape.</p></html>";
  return new Response(page, { status: 400, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...PAGE_SECURITY_HEADERS } });
}
