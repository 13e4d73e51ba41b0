import { db } from "@/lib/db/client";
import { deviceParams, devicePatch, deviceRemoved, deviceResult } from "@/lib/core/devices/schemas";
import { patchDevice, removeDevice } from "@/lib/core/devices/service";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PATCH: route(
    {
      summary: "Update a push device",
      description: "Changes a device's app version, locale or time zone (at least one). 404 when the device is not the caller's.",
      tags: ["Devices"],
      auth: "bearer",
      params: deviceParams,
      body: devicePatch,
      rateLimit: "write",
      response: deviceResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, body }) => patchDevice(db, user.id, params.deviceId, body),
  ),
  DELETE: route(
    {
      summary: "Remove a push device",
      description: "Stops pushes to the device. 404 when it is not the caller's (or already removed).",
      tags: ["Devices"],
      auth: "bearer",
      params: deviceParams,
      rateLimit: "write",
      response: deviceRemoved,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => removeDevice(db, user.id, params.deviceId),
  ),
});
