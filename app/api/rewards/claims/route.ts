import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { claimsPage, claimsQuery } from "@/lib/features/rewards/schemas";
import { myClaims } from "@/lib/features/rewards/fulfilment";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My reward claims",
      description:
        "The caller's redemptions and milestone claims, newest first (keyset by claim id: `limit` 1..50, default 20; `nextCursor` only when more remain), each with its fulfilment: " +
        "the kind, the status (`fulfilled`, or `pending` → `shipped` → `delivered` for physical rewards, or `failed` with the Rep and stock given back), a voucher reward's code (shown to its owner only), " +
        "the tracking code once shipped and the shipping address copied at redeem time.",
      tags: ["Rewards"],
      auth: "bearer",
      query: claimsQuery,
      response: claimsPage,
    },
    ({ user, query }) => myClaims(db, user.id, query),
  ),
});
