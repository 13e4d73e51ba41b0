import { corsHeaders, isPreflight, preflightHeaders } from "./cors";
import { API_SECURITY_HEADERS, errorBody, requestIdOf, type RouteHandler } from "./route";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type NextHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/**
 * A path's full method table: the declared handlers, and a JSON 405 with an Allow header for the rest
 * (Next's own 405 has no body). HEAD follows GET (Next derives it). OPTIONS answers 204 with Allow; a CORS preflight
 * from an allowed origin also gets the path's methods, the request headers clients send and a max age.
 */
export function methods(handlers: Partial<Record<Method, RouteHandler>>): Record<Method | "OPTIONS", NextHandler> {
  const declared = METHODS.filter((m) => handlers[m]);
  const allow = [...declared, ...(handlers.GET ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const notAllowed: NextHandler = async (req) =>
    Response.json(errorBody("METHOD_NOT_ALLOWED", `${req.method} is not allowed here. Allowed: ${allow}.`), {
      status: 405,
      headers: { Allow: allow, "X-Request-Id": requestIdOf(req), ...API_SECURITY_HEADERS, ...corsHeaders(req) },
    });
  const table = Object.fromEntries(METHODS.map((m) => [m, handlers[m] ?? notAllowed])) as Record<Method, NextHandler>;
  const OPTIONS: NextHandler = async (req) =>
    new Response(null, {
      status: 204,
      headers: {
        Allow: allow,
        "X-Request-Id": requestIdOf(req),
        ...API_SECURITY_HEADERS,
        ...(isPreflight(req) ? preflightHeaders(req, allow) : corsHeaders(req)),
      },
    });
  return { ...table, OPTIONS };
}
