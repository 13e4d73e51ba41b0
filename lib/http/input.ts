import type { z, ZodType } from "zod";
import { DomainError, sharedErrors, type ErrorDetail } from "../kernel/errors";

// Reading a request's input for the pipeline (route.ts): the query as an object, and zod parsing behind a scan that
// refuses what PostgreSQL or the process should never see (NUL characters, nesting past MAX_INPUT_DEPTH), each a 400
// naming the field.

/** Deepest nesting of arrays and objects accepted in a request (the depth of the JSON, a scalar body being 0). */
export const MAX_INPUT_DEPTH = 32;

interface Frame {
  value: unknown;
  key: string;
  depth: number;
  parent: Frame | null;
}

const pathOf = (frame: Frame): string => {
  const keys: string[] = [];
  for (let f: Frame | null = frame; f; f = f.parent) keys.push(f.key);
  return keys.reverse().join(".");
};

/**
 * The first problem PostgreSQL or the stack would trip on: a string (value or key) holding U+0000, which text
 * cannot store, or nesting past MAX_INPUT_DEPTH. Iterative, and a path is built only for the problem found, so a
 * hostile body costs time linear in its size.
 */
function inputProblem(value: unknown, where: string): ErrorDetail | null {
  const stack: Frame[] = [{ value, key: where, depth: 0, parent: null }];
  while (stack.length) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (typeof v === "string") {
      if (v.includes("\u0000")) return { path: pathOf(frame), message: "Must not contain NUL characters" };
      continue;
    }
    if (!v || typeof v !== "object") continue;
    if (frame.depth >= MAX_INPUT_DEPTH) return { path: pathOf(frame), message: `Nested more than ${MAX_INPUT_DEPTH} levels deep` };
    const depth = frame.depth + 1;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: String(i), depth, parent: frame });
    } else {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const child: Frame = { value: (v as Record<string, unknown>)[key], key, depth, parent: frame };
        if (key.includes("\u0000")) return { path: pathOf(child), message: "Must not contain NUL characters" };
        stack.push(child);
      }
    }
  }
  return null;
}

export function parse<T>(schema: ZodType<T>, value: unknown, where: "params" | "query" | "body"): T {
  const problem = inputProblem(value, where);
  if (problem) throw new DomainError(sharedErrors.VALIDATION_ERROR, `Invalid request ${where}.`, [problem]);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new DomainError(sharedErrors.VALIDATION_ERROR, `Invalid request ${where}.`, issuesToDetails(result.error, where));
}

export function issuesToDetails(error: z.ZodError, where: string): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    const path = [where, ...issue.path.map(String)];
    // One detail per unknown field, named, rather than one for the object that holds them.
    if (issue.code === "unrecognized_keys") return issue.keys.map((key) => ({ path: [...path, key].join("."), message: "Unknown field" }));
    return [{ path: path.join("."), message: issue.message }];
  });
}

export function queryObject(req: Request): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URL(req.url).searchParams) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
