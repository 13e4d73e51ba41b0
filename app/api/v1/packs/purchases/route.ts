import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { purchasePage, purchasesQuery } from "@/lib/features/packs/schemas";
import { listPurchases } from "@/lib/features/packs/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My pack purchases",
      description:
        "The caller's pack purchases and grants (the onboarding starter pack), newest first, each with its opening once opened; `unopened=true` for those still to open. Keyset: `limit` 1..50 (default 20).",
      tags: ["Packs"],
      auth: "bearer",
      query: purchasesQuery,
      response: purchasePage,
    },
    ({ user, query }) => listPurchases(db, user.id, query),
  ),
});
