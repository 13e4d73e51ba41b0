import type { RepSource } from "../../generated/prisma/enums";
import type { DbTx } from "../../db/client";
import { ctes, oncePerUser, type Ctes, type OncePerUser } from "../../db/fragments";
import { int8, type Int8, type RawDb } from "../../db/raw";
import { Prisma, type RepEntry } from "../../generated/prisma/client";
import { uuidv7 } from "../../db/ids";
import { SPENDING_KINDS } from "./kinds";

// Rep's ledger statements: every credit, debit and refund writes its entry and moves the balance (and the earned or
// spent total) on the user's row in one statement. grants.ts decides what to grant and notes the leaderboard moves.

/** A ledger entry with its amount as a number (lib/db/raw.ts: int8). */
export type Entry = Omit<RepEntry, "amount"> & { amount: number };
export type Granted = { entry: Entry; balance: number };
type GrantedRow = Int8<Entry & { balance: number }, "amount" | "balance">;

/** One ledger credit the server decided on: what, how much, which Rep type, and the key it may be granted under once. */
export interface Award {
  earnKind: string;
  amount: number;
  source: RepSource;
  reason: string;
  /** What the grant counts against, unique per user (e.g. "arena_check_in:tm_hch:2026-11-23"): a second award is a no-op. */
  grantKey: string;
  targetId?: string | null;
  idempotencyKey?: string | null;
  requestHash?: string | null;
  createdAt?: Date;
}

/** The users column totalling what each source earned (kept with rep_balance by the statements below). */
const EARNED: Record<RepSource, Prisma.Sql> = {
  fanAmp: Prisma.raw("rep_earned_fan_amp"),
  club: Prisma.raw("rep_earned_club"),
  playerAmp: Prisma.raw("rep_earned_player_amp"),
  serviceDirect: Prisma.raw("rep_earned_service_direct"),
};

const ENTRY_COLUMNS = Prisma.sql`id, user_id AS "userId", source, amount, reason, earn_kind AS "earnKind", target_id AS "targetId",
  grant_key AS "grantKey", idempotency_key AS "idempotencyKey", request_hash AS "requestHash", created_at AS "createdAt"`;

// Without an idempotency key the grant key is the only conflict an entry can meet (its id is new): naming it spares
// PostgreSQL checking the other unique indexes before the insert.
const GRANT_KEY = Prisma.sql`(user_id, grant_key)`;

/**
 * The one place Rep is credited, as two CTEs for a statement (lib/db/fragments.ts): `entries` inserts the entry with
 * ON CONFLICT DO NOTHING on the unique (user_id, grant_key) and (user_id, idempotency_key), and `raised` raises the
 * balance only if it was inserted (with the source's earned total), answering (id, rep_balance). The caller notes the
 * move (noteBoardsMoved) when it took. `when` gates the credit on the rest of the statement (e.g. "the rating row was
 * inserted"). A statement holding these must not update the user's row elsewhere (one row is modified once per
 * statement).
 */
export function awardCtes(userId: string, a: Award, when: Prisma.Sql = Prisma.sql`true`): Ctes<"entries" | "raised"> {
  const at = a.createdAt ?? new Date();
  return awardRowsCtes(
    oncePerUser(Prisma.sql`SELECT ${uuidv7(at.getTime())}::uuid AS id, ${userId}::uuid AS user_id, ${a.targetId ?? null}::text AS target_id,
                      ${a.grantKey}::text AS grant_key, ${at}::timestamptz AS created_at WHERE ${when}`),
    a,
  );
}

/** What awardRowsCtes credits alike on every row (the rows hold their own user, target, grant key and time). */
export type RowsAward = Omit<Award, "grantKey" | "targetId" | "createdAt">;

/**
 * awardCtes for many credits at once: `rows` is a query with columns id (uuid), user_id (uuid), target_id, grant_key
 * and created_at, each user at most once (`raised` raises each user's row once). `raised` answers (id, rep_balance)
 * per credited user.
 */
export function awardRowsCtes(rows: OncePerUser, a: RowsAward): Ctes<"entries" | "raised"> {
  if (!Number.isInteger(a.amount) || a.amount < 0) throw new Error(`award: amount must be a non-negative integer (${a.amount})`);
  return ctes(
    { entries: "rep_entry", raised: "rep_raised" },
    (name) => Prisma.sql`${name.entries} AS (
      INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, target_id, grant_key, idempotency_key, request_hash, created_at)
      SELECT r.id, r.user_id, ${a.source}::"RepSource", ${a.amount}, ${a.reason}, ${a.earnKind}, r.target_id, r.grant_key,
             ${a.idempotencyKey ?? null}, ${a.requestHash ?? null}, r.created_at
      FROM (${rows}) r
      ON CONFLICT ${a.idempotencyKey ? Prisma.empty : GRANT_KEY} DO NOTHING
      RETURNING *
    ), ${name.raised} AS (
      UPDATE users u SET rep_balance = rep_balance + ${a.amount}, ${EARNED[a.source]} = ${EARNED[a.source]} + ${a.amount}
      FROM ${name.entries} e WHERE u.id = e.user_id RETURNING u.id, u.rep_balance
    )`,
  );
}

/** The credit of awardCtes as a statement of its own: the entry and the new balance, or null when its key was used. */
export async function insertCredit(tx: RawDb, userId: string, a: Award): Promise<Granted | null> {
  const credit = awardCtes(userId, a);
  const [row] = await tx.$queryRaw<GrantedRow[]>`
    WITH ${credit.sql}
    SELECT ${ENTRY_COLUMNS}, (SELECT rep_balance FROM ${credit.name.raised}) AS balance FROM ${credit.name.entries}`;
  if (!row) return null;
  const { balance, ...entry } = int8(row, ["amount", "balance"]);
  return { entry, balance };
}

/** One ledger debit: spending Rep (a reward) or a staff reversal. `amount` is how much to take (positive); the entry's is negative. */
export type Debit = Omit<Award, "idempotencyKey" | "requestHash">;

/**
 * The debit's conditional UPDATE … WHERE rep_balance >= amount and, only if it took, its negative ledger entry: the
 * entry and the new balance, or null when the balance is short.
 */
export async function insertDebit(tx: DbTx, userId: string, d: Debit): Promise<Granted | null> {
  const at = d.createdAt ?? new Date();
  // Spending adds to rep_spent; a staff reversal takes back from what its source earned.
  const total = SPENDING_KINDS.includes(d.earnKind)
    ? Prisma.sql`rep_spent = rep_spent + ${d.amount}`
    : Prisma.sql`${EARNED[d.source]} = ${EARNED[d.source]} - ${d.amount}`;
  const [row] = await tx.$queryRaw<GrantedRow[]>`
    WITH taken AS (
      UPDATE users SET rep_balance = rep_balance - ${d.amount}, ${total}
      WHERE id = ${userId}::uuid AND rep_balance >= ${d.amount} RETURNING rep_balance
    ), entry AS (
      INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, target_id, grant_key, created_at)
      SELECT ${uuidv7(at.getTime())}::uuid, ${userId}::uuid, ${d.source}::"RepSource", ${-d.amount}, ${d.reason}, ${d.earnKind}, ${d.targetId ?? null},
             ${d.grantKey}, ${at}::timestamptz
      FROM taken
      RETURNING *
    )
    SELECT ${ENTRY_COLUMNS}, (SELECT rep_balance FROM taken) AS balance FROM entry`;
  if (!row) return null;
  const { balance, ...entry } = int8(row, ["amount", "balance"]);
  return { entry, balance };
}

/**
 * The refund's positive entry (ON CONFLICT on the unique (user_id, grant_key) DO NOTHING) and, only if it was
 * inserted, the balance raised and rep_spent lowered: the entry and the new balance, or null when the key was used.
 */
export async function insertRefund(tx: RawDb, userId: string, r: Debit): Promise<Granted | null> {
  const at = r.createdAt ?? new Date();
  const [row] = await tx.$queryRaw<GrantedRow[]>`
    WITH entry AS (
      INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, target_id, grant_key, created_at)
      VALUES (${uuidv7(at.getTime())}::uuid, ${userId}::uuid, ${r.source}::"RepSource", ${r.amount}, ${r.reason}, ${r.earnKind}, ${r.targetId ?? null},
              ${r.grantKey}, ${at}::timestamptz)
      ON CONFLICT ${GRANT_KEY} DO NOTHING
      RETURNING *
    ), given AS (
      UPDATE users u SET rep_balance = rep_balance + ${r.amount}, rep_spent = rep_spent - ${r.amount}
      FROM entry e WHERE u.id = e.user_id RETURNING u.rep_balance
    )
    SELECT ${ENTRY_COLUMNS}, (SELECT rep_balance FROM given) AS balance FROM entry`;
  if (!row) return null;
  const { balance, ...entry } = int8(row, ["amount", "balance"]);
  return { entry, balance };
}
