import type { DbTx } from "../../db/client";
import type { ShippingAddress } from "../../generated/prisma/client";
import type { ShippingAddressInput } from "./schemas";

// Shipping addresses: one per fan (primary key user_id), replaced whole by PUT. Physical rewards copy it onto the
// claim at redeem time (lib/features/rewards/fulfilment.ts). Erased with the account (lib/core/accounts), in the data export.

export const toShippingAddress = (a: ShippingAddress) => ({
  name: a.name,
  line1: a.line1,
  line2: a.line2,
  city: a.city,
  region: a.region,
  postalCode: a.postalCode,
  country: a.country,
  phone: a.phone,
  updatedAt: a.updatedAt.toISOString(),
});

export type ShippingAddressView = ReturnType<typeof toShippingAddress>;

export async function getShippingAddress(db: DbTx, userId: string): Promise<ShippingAddressView | null> {
  const row = await db.shippingAddress.findUnique({ where: { userId } });
  return row ? toShippingAddress(row) : null;
}

/** Stores the caller's address (one upsert: concurrent PUTs leave one of them, whole). */
export async function putShippingAddress(db: DbTx, userId: string, input: ShippingAddressInput): Promise<ShippingAddressView> {
  const data = { ...input, line2: input.line2 ?? null, region: input.region ?? null, phone: input.phone ?? null, updatedAt: new Date() };
  const row = await db.shippingAddress.upsert({ where: { userId }, create: { userId, ...data }, update: data });
  return toShippingAddress(row);
}
