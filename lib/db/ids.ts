import { randomBytes } from "node:crypto";

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. What Prisma's @default(uuid(7)) writes, for
 * rows inserted with raw SQL: ids stay time-ordered, so keyset orders that end on the id keep their meaning.
 */
export function uuidv7(at = Date.now()): string {
  const b = randomBytes(16);
  b.writeUIntBE(at, 0, 6);
  b[6] = 0x70 | (b[6]! & 0x0f);
  b[8] = 0x80 | (b[8]! & 0x3f);
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
