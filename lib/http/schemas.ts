import { z } from "zod";

// Small building blocks shared by route schemas.

/** An integer query parameter in [min, max]; absent → fallback. Rejects "1.5", "abc", "" and out-of-range values. */
export const intQuery = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^-?\d+$/, "Expected an integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((v) => v ?? fallback)
    .meta({ description: `Integer ${min}..${max}, default ${fallback}.` });

export const cursorQuery = z
  .string()
  .min(1)
  .max(1024)
  .optional()
  .meta({ description: "Opaque cursor from the previous page's nextCursor." });

/** Opaque identifiers: non-empty, no whitespace or slashes, at most 128 characters. */
export const idString = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[^\s/\\]+$/, "Must not contain whitespace or slashes");

/** A UUID in its canonical text form (our uuid primary keys). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isoDateTime = z.string().meta({ format: "date-time" });
