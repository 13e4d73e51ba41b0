import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { MOBILE_TOKEN_PURGE_AFTER_SECONDS } from "@/lib/features/mobile/config";
import { mobileTokenPurge } from "@/lib/features/mobile/schemas";
import { purgeMobileTokens } from "@/lib/features/mobile/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Purge spent mobile sign-in tokens (Vercel Cron)",
      description: `Called hourly by Vercel Cron (vercel.json) with \`Authorization: Bearer <CRON_SECRET>\`; any other Authorization value, none, or an unset CRON_SECRET answers 401. Deletes the one-time mobile session tokens that expired or were consumed more than ${MOBILE_TOKEN_PURGE_AFTER_SECONDS / 60} minutes ago, in batches of 1,000 rows and at most 20 batches per call (what is left goes on the next run), and answers \`{ deleted }\`.`,
      tags: ["Auth"],
      auth: "cron",
      response: mobileTokenPurge,
    },
    async () => ({ deleted: await purgeMobileTokens(db) }),
  ),
});
