// Responses that clients may cache. The pipeline answers `Cache-Control: no-store` by default; a handler that
// returns a Response keeps its own headers (the pipeline adds X-Request-Id and the rest).

/** A JSON body with `Cache-Control: public, max-age=<seconds>`, enveloped as `{ success: true, data }` unless bare. */
export function cacheableJson(data: unknown, maxAgeSeconds: number, { envelope = true }: { envelope?: boolean } = {}): Response {
  return Response.json(envelope ? { success: true, data } : data, {
    headers: { "Cache-Control": `public, max-age=${maxAgeSeconds}` },
  });
}
