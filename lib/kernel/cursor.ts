import { DomainError, sharedErrors } from "./errors";
import { UUID_PATTERN } from "./schemas";

// Opaque, versioned keyset cursors: base64url of JSON ["v1", sortKey, id]. Clients must not parse them.
const VERSION = "v1";

export const invalidCursor = () =>
  new DomainError(sharedErrors.VALIDATION_ERROR, "The cursor is invalid or expired; start again without it.", [
    { path: "query.cursor", message: "Invalid cursor" },
  ]);

export function encodeCursor(sortKey: string | number, id: string): string {
  return Buffer.from(JSON.stringify([VERSION, String(sortKey), id]), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): { sortKey: string; id: string } {
  if (!/^[A-Za-z0-9_-]{1,1024}$/.test(cursor)) throw invalidCursor();
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parts) || parts.length !== 3 || parts[0] !== VERSION) throw invalidCursor();
  const [, sortKey, id] = parts;
  if (typeof sortKey !== "string" || typeof id !== "string" || !sortKey || !id) throw invalidCursor();
  return { sortKey, id };
}

/** A cursor whose sort key is a millisecond timestamp. */
export function decodeTimeCursor(cursor: string): { at: Date; id: string } {
  const { sortKey, id } = decodeCursor(cursor);
  const ms = Number(sortKey);
  if (!/^\d{1,15}$/.test(sortKey) || Number.isNaN(new Date(ms).getTime())) throw invalidCursor();
  return { at: new Date(ms), id };
}

/** A time cursor whose id is a uuid (our uuid primary keys): anything else is a 400, never a SQL cast error. */
export function decodeUuidTimeCursor(cursor: string): { at: Date; id: string } {
  const after = decodeTimeCursor(cursor);
  if (!UUID_PATTERN.test(after.id)) throw invalidCursor();
  return after;
}

/** A cursor over a list ordered by a UUIDv7 id alone (time-ordered ids need no other sort key). */
export const encodeIdCursor = (id: string) => encodeCursor("id", id);

export function decodeIdCursor(cursor: string): string {
  const { sortKey, id } = decodeCursor(cursor);
  if (sortKey !== "id" || !UUID_PATTERN.test(id)) throw invalidCursor();
  return id;
}
