import { randomUUID } from "node:crypto";
import { API_SECURITY_HEADERS, errorBody, type RouteHandler } from "./route";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type NextHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/**
 * A path's full method table: the declared handlers, and a JSON 405 with an Allow header for the rest
 * (Next's own 405 has no body). HEAD follows GET (Next derives it); OPTIONS answers 204 with Allow.
 */
export function methods(handlers: Partial<Record<Method, RouteHandler>>): Record<Method | "OPTIONS", NextHandler> {
  const declared = METHODS.filter((m) => handlers[m]);
  const allow = [...declared, ...(handlers.GET ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const notAllowed: NextHandler = async (req) =>
    Response.json(errorBody("METHOD_NOT_ALLOWED", `${req.method} is not allowed here. Allowed: ${allow}.`), {
      status: 405,
      headers: { Allow: allow, "X-Request-Id": randomUUID(), ...API_SECURITY_HEADERS },
    });
  const table = Object.fromEntries(METHODS.map((m) => [m, handlers[m] ?? notAllowed])) as Record<Method, NextHandler>;
  const OPTIONS: NextHandler = async () => new Response(null, { status: 204, headers: { Allow: allow, ...API_SECURITY_HEADERS } });
  return { ...table, OPTIONS };
}
