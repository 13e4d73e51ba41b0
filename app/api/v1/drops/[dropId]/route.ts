import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";
import { dropDetail, dropParams } from "@/lib/features/drops/schemas";
import { getDrop } from "@/lib/features/drops/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A drop, its order and the caller's entry",
      description:
        "The drop, the caller's entry (null signed out or without one) and, once the order is fixed (`orderedAt`: the draw after closesAt, or the waiting room's positions at opensAt), the revealed `seed` and `order`: every entrant by position with their key, HMAC-SHA256(seed, \"<dropId>:<userId>\") in hex; the order sorts the keys ascending, and SHA-256(seed) is the `seedHash` published at creation, so anyone can recompute it (docs/domains/drops.md). " +
        "The first read after the order is due runs it when the cron has not yet (claimed with SKIP LOCKED: it runs once). Draw outcomes: won, lost, or ineligible:<code> (a fan drawn who could not buy at the draw: frozen wallet, region, spending limit, trading restriction; the next fan drawn took the packs). Unknown drop: 404.",
      tags: ["Drops"],
      auth: "optional",
      params: dropParams,
      response: dropDetail,
      errors: [sharedErrors.NOT_FOUND, walletsErrors.BALANCE_LIMIT],
    },
    ({ user, params }) => getDrop(db, params.dropId, user?.id),
  ),
});
