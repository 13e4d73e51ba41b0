import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { accessibilityMatrix } from "@/lib/operations/platform/schemas";
import { ACCESSIBILITY_MATRIX } from "@/lib/operations/platform/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Accessibility matrix",
      description:
        "Static configuration: the standards the apps target, and per feature the support level (`full`, `partial`, `none`) with notes on web, iOS and Android, plus an accessibility contact. Touches no database; answers `Cache-Control: public, max-age=3600`.",
      tags: ["Platform"],
      auth: "public",
      cache: { maxAge: 3600 },
      database: false,
      response: accessibilityMatrix,
    },
    async () => ACCESSIBILITY_MATRIX,
  ),
});
