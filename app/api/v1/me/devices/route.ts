import { db } from "@/lib/db/client";
import { errors as devicesErrors } from "@/lib/core/devices/errors";
import { deviceBody, deviceList, deviceResult, DEVICES_MAX } from "@/lib/core/devices/schemas";
import { listDevices, registerDevice } from "@/lib/core/devices/service";
import { methods } from "@/lib/http/methods";
import { reply } from "@/lib/http/reply";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My push devices",
      description: "The caller's registered push devices, oldest first (at most 20). Tokens are never answered back.",
      tags: ["Devices"],
      auth: "bearer",
      response: deviceList,
    },
    ({ user }) => listDevices(db, user.id),
  ),
  POST: route(
    {
      summary: "Register a push device",
      description:
        "Registers where the caller's notifications may be pushed: an Expo, FCM or APNs `token`, or a browser's web push `subscription` (endpoint and keys), with the `platform` and optionally the app's version, locale (BCP 47) and IANA time zone. " +
        `201 when the device is new to the caller; 200 when the caller had it (its details are refreshed). A token belongs to one user at a time: one registered under another account moves to the caller (a shared device after a sign-out). At most ${DEVICES_MAX} devices per account (409 DEVICE_LIMIT). Pushes are delivered through the push outbox (GET and PUT /api/v1/me/notification-preferences set what is pushed).`,
      tags: ["Devices"],
      auth: "bearer",
      body: deviceBody,
      rateLimit: "write",
      status: 201,
      response: deviceResult,
      responses: { 200: { description: "The caller's device, refreshed", schema: deviceResult } },
      errors: [devicesErrors.DEVICE_LIMIT],
    },
    async ({ user, body }) => {
      const { created, device } = await registerDevice(db, user.id, body);
      return reply({ device }, { status: created ? 201 : 200 });
    },
  ),
});
