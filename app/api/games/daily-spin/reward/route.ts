import { db } from "@/lib/db/client";
import { dailySpinResult } from "@/lib/features/games/schemas";
import { DAILY_SPIN_AMOUNTS, spinDaily } from "@/lib/features/games/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { errors as repErrors } from "@/lib/core/rep/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Daily spin (deprecated)",
      description: `Deprecated (answers carry a \`Deprecation\` header) but still working. One spin per caller per UTC day: the server draws the Rep amount (one of ${DAILY_SPIN_AMOUNTS.join(", ")}) and credits it. A second spin the same UTC day, including concurrent ones, is 409 ALREADY_EARNED. No request body.`,
      tags: ["Games"],
      auth: "bearer",
      rateLimit: "write",
      deprecated: { since: "2026-06-01" },
      response: dailySpinResult,
      errors: [repErrors.ALREADY_EARNED],
    },
    ({ user }) => spinDaily(db, user.id),
  ),
});
