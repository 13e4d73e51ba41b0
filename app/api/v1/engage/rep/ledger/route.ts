import { pool } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { ledgerPage, ledgerQuery } from "@/lib/core/rep/schemas";
import { listLedger } from "@/lib/core/rep/queries";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Rep ledger",
      description: "Newest first (createdAt desc, then id desc), keyset-paginated. `nextCursor` is present only when more entries remain.",
      tags: ["Rep"],
      auth: "bearer",
      query: ledgerQuery,
      envelope: false,
      response: ledgerPage,
    },
    ({ user, query }) => listLedger(pool, user.id, query),
  ),
});
