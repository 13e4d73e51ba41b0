import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { staffClaimsPage, staffClaimsQuery } from "@/lib/features/rewards/schemas";
import { staffClaims } from "@/lib/features/rewards/fulfilment";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Reward claims by fulfilment status (staff)",
      description:
        "Claims in one fulfilment status (default `pending`: physical rewards waiting to ship), oldest first (keyset by claim id: `limit` 1..100, default 50), with the fan's id and the shipping address. " +
        "Voucher codes are never shown here (only `voucherAssigned`).",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "economy",
      query: staffClaimsQuery,
      response: staffClaimsPage,
    },
    ({ query }) => staffClaims(db, query),
  ),
});
