import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { cacheableJson } from "@/lib/leagues/http";
import { accessibilityMatrix } from "@/lib/leagues/schemas";
import { ACCESSIBILITY_MATRIX } from "@/lib/platform/accessibility";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Accessibility matrix",
      description:
        "Static configuration: the standards the apps target, and per feature the support level (`full`, `partial`, `none`) with notes on web, iOS and Android, plus an accessibility contact. Touches no database; answers `Cache-Control: public, max-age=3600`.",
      tags: ["Platform"],
      auth: "public",
      response: accessibilityMatrix,
    },
    async () => cacheableJson(ACCESSIBILITY_MATRIX, 3600),
  ),
});
