import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { rawTransaction, type RawDb } from "../../db/raw";
import { lockUser } from "../../db/tx";
import { DomainError, notFound } from "../../kernel/errors";
import { errors as devicesErrors } from "./errors";
import { deleteDevice, devicesOf, tokenOwner, toDevice, updateDevice, upsertDevice } from "./queries";
import { DEVICES_MAX, type DeviceBody } from "./schemas";

// Push devices (POST, GET /api/v1/me/devices; PATCH, DELETE …/{deviceId}): where the caller's notifications may be
// pushed. A token belongs to one user at a time: registering it moves it to the caller. At most DEVICES_MAX per user,
// counted under the user's row lock, so concurrent registrations cannot pass the cap. Tokens are never answered back.

/** Registers (or refreshes, or moves to the caller) a device; `created` when it was not the caller's before. */
export async function registerDevice(db: Db, userId: string, body: DeviceBody) {
  const token = body.provider === "webpush" ? body.subscription.endpoint : body.token;
  return rawTransaction(db, async (tx) => {
    if (!(await lockUser(tx, userId))) throw notFound("User");
    const owner = await tokenOwner(tx, body.provider, token);
    if (owner !== userId && (await devicesOf(tx, userId)).length >= DEVICES_MAX) {
      throw new DomainError(devicesErrors.DEVICE_LIMIT, `An account registers at most ${DEVICES_MAX} devices: remove one first.`);
    }
    const device = await upsertDevice(tx, {
      id: uuidv7(),
      userId,
      provider: body.provider,
      token,
      webpushKeys: body.provider === "webpush" ? body.subscription.keys : null,
      platform: body.platform,
      appVersion: body.appVersion ?? null,
      locale: body.locale ?? null,
      timezone: body.timezone ?? null,
    });
    return { created: owner !== userId, device: toDevice(device) };
  });
}

export async function listDevices(db: RawDb | DbTx, userId: string) {
  return { devices: (await devicesOf(db, userId)).map(toDevice) };
}

export async function patchDevice(db: RawDb | DbTx, userId: string, deviceId: string, patch: { appVersion?: string; locale?: string; timezone?: string }) {
  const row = await updateDevice(db, userId, deviceId, patch);
  if (!row) throw notFound("Device");
  return { device: toDevice(row) };
}

/** Removes one of the caller's devices; 404 when it is not theirs (or gone). */
export async function removeDevice(db: RawDb | DbTx, userId: string, deviceId: string) {
  if ((await deleteDevice(db, userId, deviceId)) === 0) throw notFound("Device");
  return { removed: true };
}

/** Signing out on a device stops pushes to it (POST /api/logout with its id): the caller's own device only, quietly. */
export async function forgetDevice(db: RawDb | DbTx, userId: string, deviceId: string): Promise<void> {
  await deleteDevice(db, userId, deviceId);
}
