import { sharedErrors, type ErrorDef } from "../kernel/errors";

/** What of a route's declaration (RouteConfig, lib/http/route.ts) decides the errors it documents. */
export interface ErrorDeclaration {
  errors?: ErrorDef[];
  params?: unknown;
  query?: unknown;
  body?: unknown;
  idempotency?: unknown;
  auth: string;
  webhook?: { verifier?: { errors?: ErrorDef[] } };
  allowSuspended?: boolean;
  feature?: string;
  rateLimit?: unknown;
  database?: boolean;
}

/**
 * The errors a route documents: its own `errors`, and those its declaration implies (validation of what it parses,
 * its auth mode, body limits, its rate limit, SERVICE_UNAVAILABLE unless it touches no database) plus INTERNAL_ERROR.
 * The OpenAPI document lists exactly these; with VALIDATE_RESPONSES=1 the pipeline logs any other code a route answers
 * ("undocumented error code").
 */
export function documentedErrors(c: ErrorDeclaration): ErrorDef[] {
  const errors = new Map<string, ErrorDef>((c.errors ?? []).map((e) => [e.code, e]));
  const add = (e: ErrorDef) => errors.set(e.code, e);
  // What the pipeline parses: a malformed (or, required, missing) Idempotency-Key is a 400 too, body or not.
  if (c.params || c.query || c.body || c.idempotency) add(sharedErrors.VALIDATION_ERROR);
  // A provider's webhook verifier answers its own codes instead of 401 (Stripe's: 400 for a bad signature).
  if (c.auth !== "public" && !c.webhook?.verifier) add(sharedErrors.UNAUTHORIZED);
  for (const e of c.webhook?.verifier?.errors ?? []) add(e);
  if (c.auth === "admin") add(sharedErrors.FORBIDDEN);
  if ((c.auth === "bearer" || c.auth === "optional" || c.auth === "admin") && !c.allowSuspended) add(sharedErrors.ACCOUNT_SUSPENDED);
  if (c.feature) add(sharedErrors.FEATURE_DISABLED);
  if (c.body || c.auth === "webhook") add(sharedErrors.PAYLOAD_TOO_LARGE);
  if (c.rateLimit !== false) add(sharedErrors.RATE_LIMITED);
  // Every route reads or writes PostgreSQL (a session resolves its user row) unless it says it never does.
  if (c.database !== false) add(sharedErrors.SERVICE_UNAVAILABLE);
  add(sharedErrors.INTERNAL_ERROR);
  return [...errors.values()];
}
