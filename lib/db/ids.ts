import { randomFillSync } from "node:crypto";
import { Prisma } from "../generated/prisma/client";

// Random bytes are drawn 4 KiB at a time (one call to the system's CSPRNG per 256 ids instead of one per id, as
// Node's randomUUID does); each id copies its 16 bytes out, so no two ids share any.
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. What Prisma's @default(uuid(7)) writes, for
 * rows inserted with raw SQL: ids stay time-ordered, so keyset orders that end on the id keep their meaning.
 */
export function uuidv7(at = Date.now()): string {
  if (used === POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const b = Buffer.from(pool.subarray(used, (used += 16)));
  b.writeUIntBE(at, 0, 6);
  b[6] = 0x70 | (b[6]! & 0x0f);
  b[8] = 0x80 | (b[8]! & 0x3f);
  return uuidOfHex(b.toString("hex"));
}

/** 32 hex digits (more are ignored) written as a UUID: 8-4-4-4-12. */
export const uuidOfHex = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;

/**
 * The same UUIDv7 computed by PostgreSQL (15 has no uuidv7()), for set-based INSERT … SELECT: the clock's 48
 * milliseconds over a random v4 uuid, its version nibble turned from 4 into 7.
 */
export const UUIDV7_SQL = Prisma.sql`encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
  placing substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid`;
