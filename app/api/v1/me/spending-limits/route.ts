import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { RAISE_DELAY_HOURS, spendingLimits, spendingLimitsPut } from "@/lib/features/spending/schemas";
import { setSpendingLimits, spendingLimitsOf } from "@/lib/features/spending/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My spending limits",
      description:
        "The caller's daily (UTC day) and monthly (UTC calendar month) limits on coins bought (`topups`) and on coins spent on packs (`packs`), in minor units of COIN: the amount in force, whether it is the configured default, what the period used and has left, when it resets, and a raise waiting to take effect. A purchase that would pass a limit is refused with 409 SPENDING_LIMIT_REACHED.",
      tags: ["Wallet"],
      auth: "bearer",
      response: spendingLimits,
    },
    ({ user }) => spendingLimitsOf(db, user.id),
  ),
  PUT: route(
    {
      summary: "Set my spending limits",
      description:
        `Sets the limits sent (the others stay). A value lower than or equal to the limit in force takes effect at once and cancels a raise waiting; a higher one takes effect ${RAISE_DELAY_HOURS} hours later (shown as \`pending\`), the limit in force staying until then. ` +
        "Each value is 0..10 times its configured default; more is 400 naming the field. Answers the limits as GET does.",
      tags: ["Wallet"],
      auth: "bearer",
      body: spendingLimitsPut,
      rateLimit: "write",
      response: spendingLimits,
    },
    ({ user, body }) => setSpendingLimits(db, user.id, body),
  ),
});
