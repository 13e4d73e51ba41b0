import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { topupParams, topupResponse } from "@/lib/features/payments/schemas";
import { getTopup } from "@/lib/features/payments/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "One of my top-ups",
      description:
        "One of the caller's coin purchases and its state (pending, credited, refunded, disputed, failed), with the coins clawed back so far. `checkoutUrl` while pending. Another user's or an unknown id: 404.",
      tags: ["Wallet"],
      auth: "bearer",
      params: topupParams,
      response: topupResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getTopup(db, user.id, params.topupId),
  ),
});
