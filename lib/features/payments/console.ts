import type { Db } from "../../db/client";
import { rawTransaction } from "../../db/raw";
import { recordAudit, type StaffActor } from "../../core/audit/service";
import { lockProduct, saveProduct, type ConsoleProduct } from "./console-queries";

// The staff console's (/admin/payments) change of a bundle, audited; what the console reads, and the statements,
// are console-queries.ts.

/**
 * Creates the bundle or changes it (a bundle's coins change only what later purchases credit), with its audit entry
 * (`payment.product_save`; none when nothing changed). Answers false when a store product id belongs to another
 * bundle (unique).
 */
export async function upsertProduct(db: Db, actor: StaffActor, p: Omit<ConsoleProduct, "coins"> & { coins: number }): Promise<boolean> {
  try {
    await rawTransaction(db, async (tx) => {
      const before = await lockProduct(tx, p.id);
      const after = { ...p };
      await saveProduct(tx, p);
      if (before && JSON.stringify(sortKeys(before)) === JSON.stringify(sortKeys(after))) return;
      await recordAudit(tx, actor, {
        action: "payment.product_save",
        targetType: "coin_product",
        targetId: p.id,
        before: before ? { ...before } : undefined,
        after,
      });
    });
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "23505") return false;
    throw error;
  }
}

/** A row with its keys (and nested objects' keys) in order, to compare two rows as JSON. */
const sortKeys = (v: unknown): unknown =>
  v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(
        Object.entries(v)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, x]) => [k, sortKeys(x)]),
      )
    : v;
