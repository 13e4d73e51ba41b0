import type { Db, DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { uuidv7 } from "../../db/ids";
import { txOptions } from "../../db/tx";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { notFound, validationError } from "../../kernel/errors";
import { packById } from "../packs/service";
import { newSeed, orderKey, seedHashOf } from "./order";
import { orderIfDue } from "./ordering";
import { dropById, dropsPage, entryOf, insertAllowlist, insertDrop, orderedEntries, toDrop, toEntry, type DropRow, type EntryRow } from "./queries";
import type { CreateDropBody } from "./schemas";
import { recordAudit, type StaffActor } from "../../core/audit/service";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { dropLedgerMismatches } from "./queries";

// Drops: a quantity of a pack sold at a set time by draw or by waiting room, in a verifiable seeded order (order.ts).
// Entering, buying and withdrawing: entries.ts; the draw and the queue's order: ordering.ts.

export { enterDrop, withdrawEntry } from "./entries";
export { runDropsCron } from "./ordering";

export async function listDrops(db: RawDb | DbTx, q: { cursor?: string; limit: number }) {
  const rows = await dropsPage(db, q.cursor ? decodeIdCursor(q.cursor) : undefined, q.limit + 1);
  return keysetPage("drops", rows, q.limit, (r) => encodeIdCursor(r.id), toDrop);
}

const outcomeOf = (d: DropRow, e: EntryRow) =>
  d.mode === "queue" ? e.status : e.status === "lost" && e.ineligibleCode ? `ineligible:${e.ineligibleCode}` : e.status;

/** One drop; the first read after its order is due runs it (draw or queue order), then shows the order and the seed. */
export async function getDrop(db: Db, dropId: string, userId: string | undefined) {
  let d = await dropById(db, dropId);
  if (!d) throw notFound("Drop");
  if (await orderIfDue(db, d)) d = (await dropById(db, dropId))!;
  const order = d.orderedAt
    ? (await orderedEntries(db, d.id, d.mode === "queue" ? d.orderedCount : null)).map((e) => ({
        position: e.position!,
        userId: e.userId,
        key: orderKey(d.seed, d.id, e.userId),
        quantity: e.quantity,
        won: e.won,
        outcome: outcomeOf(d, e),
      }))
    : null;
  const entry = userId ? await entryOf(db, dropId, userId) : undefined;
  return { drop: toDrop(d), order, entry: entry ? toEntry(entry) : null };
}

export async function getEntry(db: RawDb | DbTx, userId: string, dropId: string) {
  if (!(await dropById(db, dropId))) throw notFound("Drop");
  const e = await entryOf(db, dropId, userId);
  if (!e) throw notFound("Entry");
  return { entry: toEntry(e) };
}

/** POST /api/admin/drops: a drop of an active pack (not the starter pack), its seed drawn and its hash published now. */
export async function createDrop(db: Db, body: CreateDropBody, actor: StaffActor) {
  const pack = await packById(db, body.packId);
  if (!pack) throw notFound("Pack");
  if (pack.isFreeStarter) throw validationError("The starter pack is granted, never sold.", [{ path: "body.packId", message: "The starter pack" }]);
  const id = uuidv7();
  const seed = newSeed();
  await db.$transaction(async (tx) => {
    await insertDrop(tx, {
      id,
      name: body.name,
      packId: body.packId,
      mode: body.mode,
      price: body.price,
      quantity: body.quantity,
      perUserCap: body.perUserCap,
      opensAt: new Date(body.opensAt),
      closesAt: new Date(body.closesAt),
      allowlistOpensAt: body.allowlist ? new Date(body.allowlist.opensAt) : null,
      queueWindow: body.queueWindow ?? body.quantity,
      seed,
      seedHash: seedHashOf(seed),
      createdBy: actor.id,
    });
    if (body.allowlist) await insertAllowlist(tx, id, body.allowlist.userIds ?? [], body.allowlist.teamId);
    await recordAudit(tx, actor, { action: "drop.create", targetType: "drop", targetId: id, after: { ...body, seedHash: seedHashOf(seed) } });
  }, txOptions());
  return { drop: toDrop((await dropById(db, id))!) };
}
