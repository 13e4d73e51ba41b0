import { DomainError } from "./errors";

// Opaque, versioned keyset cursors: base64url of "v1|<sort key>|<id>". Clients must not parse them.
const VERSION = "v1";

export function encodeCursor(sortKey: string | number, id: string): string {
  return Buffer.from(`${VERSION}|${sortKey}|${id}`, "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): { sortKey: string; id: string } {
  const invalid = () =>
    new DomainError("VALIDATION_ERROR", "The cursor is invalid or expired; start again without it.", [
      { path: "query.cursor", message: "Invalid cursor" },
    ]);
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) throw invalid();
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (parts.length !== 3 || parts[0] !== VERSION || !parts[1] || !parts[2]) throw invalid();
  return { sortKey: parts[1], id: parts[2] };
}

/** A cursor whose sort key is a millisecond timestamp. */
export function decodeTimeCursor(cursor: string): { at: Date; id: string } {
  const { sortKey, id } = decodeCursor(cursor);
  const ms = Number(sortKey);
  if (!Number.isSafeInteger(ms) || ms < 0) {
    throw new DomainError("VALIDATION_ERROR", "The cursor is invalid or expired; start again without it.", [
      { path: "query.cursor", message: "Invalid cursor" },
    ]);
  }
  return { at: new Date(ms), id };
}
