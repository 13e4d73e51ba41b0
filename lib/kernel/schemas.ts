import { z } from "zod";

// Small building blocks shared by route schemas.

/**
 * Query and path values arrive as strings, so a parameter the pipeline parses into a number or boolean has a string
 * schema. This registry holds the JSON Schema of the value a client sends instead (`{ type: "integer", … }`); the
 * OpenAPI document shows that one (lib/operations/openapi/document.ts). Validation never reads it. Copies made by `.meta()` or
 * `.describe()` inherit the entry.
 */
export const sentAs = z.registry<Record<string, unknown>>();

/** An integer sent as a query string, in [min, max]. Rejects "1.5", "abc", "" and out-of-range values. */
const integerString = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, "Expected an integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** An integer query parameter in [min, max]; absent → fallback. */
export const intQuery = (min: number, max: number, fallback: number) => {
  const schema = integerString(min, max)
    .optional()
    .transform((v) => v ?? fallback)
    .meta({ description: `Integer ${min}..${max}, default ${fallback}.` });
  sentAs.add(schema, { type: "integer", minimum: min, maximum: max, default: fallback });
  return schema;
};

/** An integer query parameter in [min, max]; absent → undefined (the caller decides what absence means). */
export const optionalIntQuery = (min: number, max: number) => {
  const schema = integerString(min, max)
    .optional()
    .meta({ description: `Integer ${min}..${max}.` });
  sentAs.add(schema, { type: "integer", minimum: min, maximum: max });
  return schema;
};

/** A "true"/"false" query flag, parsed to a boolean and documented as one. */
export const boolQuery = (description: string) => {
  const schema = z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .meta({ description });
  sentAs.add(schema, { type: "boolean" });
  return schema;
};

export const cursorQuery = z.string().min(1).max(1024).optional().meta({ description: "Opaque cursor from the previous page's nextCursor." });

/** Opaque identifiers: non-empty, no whitespace or slashes, at most 128 characters. */
export const idString = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[^\s/\\]+$/, "Must not contain whitespace or slashes");

/** A UUID in its canonical text form (our uuid primary keys). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in a path, query or body, lower-cased as PostgreSQL prints it. */
export const uuidString = (description: string, message = "Must be a UUID") =>
  z
    .string()
    .regex(UUID_PATTERN, message)
    .transform((id) => id.toLowerCase())
    .meta({ description });

export const isoDateTime = z.string().meta({ format: "date-time" });

/** The IANA name Intl knows the time zone `tz` by (canonical case), or null when Intl knows none. */
export function intlTimeZone(tz: string): string | null {
  try {
    return new Intl.DateTimeFormat("en", { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
