import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { adminTrends, adminTrendsQuery, TRENDS_WINDOW_HOURS } from "@/lib/features/tags/schemas";
import { adminTrends as listAdminTrends } from "@/lib/features/tags/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Trend review: tags by state (staff)",
      description:
        `Tags in one review state (\`status\` pending, the default, approved or rejected) with their counts over the trends' ${TRENDS_WINDOW_HOURS}-hour window (distinct fans, public live posts), most used first, then by key; \`limit\` 1..100 (default 50). ` +
        "Pending tags are listed only when used in the window. Only approved tags appear in GET /api/v1/trends.",
      tags: ["Admin"],
      auth: "admin",
      query: adminTrendsQuery,
      response: adminTrends,
    },
    ({ query }) => listAdminTrends(db, query),
  ),
});
