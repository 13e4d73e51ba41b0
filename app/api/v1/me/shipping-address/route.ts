import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { shippingAddress, shippingAddressBody, shippingAddressOrNull } from "@/lib/features/shipping/schemas";
import { getShippingAddress, putShippingAddress } from "@/lib/features/shipping/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My shipping address",
      description: "The caller's shipping address for physical rewards, or `data: null` when none is stored.",
      tags: ["Rewards"],
      auth: "bearer",
      response: shippingAddressOrNull,
    },
    ({ user }) => getShippingAddress(db, user.id),
  ),
  PUT: route(
    {
      summary: "Set my shipping address",
      description:
        "Stores the caller's shipping address, replacing any earlier one whole. Redeeming a physical reward copies it onto the claim (later changes do not move a claim already made). " +
        "Fields: name, line1, optional line2, city, optional region, postalCode, country (ISO 3166-1 alpha-2, any case, stored upper-case), optional phone. Erased with the account; included in the data export.",
      tags: ["Rewards"],
      auth: "bearer",
      body: shippingAddressBody,
      rateLimit: "write",
      response: shippingAddress,
    },
    ({ user, body }) => putShippingAddress(db, user.id, body),
  ),
});
