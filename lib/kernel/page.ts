import { z, type ZodType } from "zod";

// Keyset pages: every list fetches `limit + 1` rows in its sort order; the extra row only says that more remain.

export type Page<K extends string, T> = { [P in K]: T[] } & { nextCursor?: string };

/**
 * The page of `rows` (fetched with LIMIT limit + 1) under `key`, each row serialized by `serialize`, and a
 * `nextCursor` (the cursor of the last row shown) only when more rows remain.
 *
 * With `keep`, rows it refuses (a viewer's mutes and keyword filters, decided by the statement that read them) are
 * left out after the read: the page may come back short, and `nextCursor` is the cursor of the last row *read* within
 * the page, so the next page continues right after it and no row is ever skipped or repeated.
 */
export function keysetPage<K extends string, R, T>(
  key: K,
  rows: R[],
  limit: number,
  cursorOf: (last: R) => string,
  serialize: (row: R) => T,
  keep?: (row: R) => boolean,
): Page<K, T> {
  const read = rows.slice(0, limit);
  const last = read[read.length - 1];
  const page = { [key]: (keep ? read.filter(keep) : read).map(serialize) } as Page<K, T>;
  if (rows.length > limit && last) page.nextCursor = cursorOf(last);
  return page;
}

/** The response schema of a keyset page: `{ <key>: item[], nextCursor? }`, named `id` in the OpenAPI document. */
export function pageSchema<K extends string, T extends ZodType>(key: K, item: T, { id, nextCursor }: { id?: string; nextCursor?: string } = {}) {
  const cursor = z.string().optional();
  const schema = z.object({ [key]: z.array(item), nextCursor: nextCursor ? cursor.meta({ description: nextCursor }) : cursor } as {
    [P in K]: z.ZodArray<T>;
  } & { nextCursor: z.ZodOptional<z.ZodString> });
  return id ? schema.meta({ id }) : schema;
}
