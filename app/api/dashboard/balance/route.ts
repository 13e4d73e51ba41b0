import { db } from "@/lib/db/client";
import { repSummary } from "@/lib/operations/dashboard/schemas";
import { balanceOf } from "@/lib/operations/dashboard/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Rep balance",
      description: "Spendable Rep and how it came about: earned per source (credits net of staff reversals) and spent on rewards; `earned − spent = balance`.",
      tags: ["Dashboard"],
      auth: "bearer",
      response: repSummary,
    },
    ({ user }) => balanceOf(db, user.id),
  ),
});
