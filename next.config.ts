import type { NextConfig } from "next";
import { PAGE_SECURITY_HEADERS } from "./lib/http/bare";

const config: NextConfig = {
  poweredByHeader: false,
  // Separate build directories let several checkouts' test runs coexist (tests read the same variable).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // Server-only packages that must not be bundled (native or large); Node resolves them at run time.
  serverExternalPackages: ["sharp", "pg", "@prisma/adapter-pg", "ioredis", "@parse/node-apn", "stripe"],
  typedRoutes: false,
  // Parallel local builds (NEXT_DIST_DIR) skip next's own type check and run `tsc --noEmit` instead; CI keeps it.
  typescript: { ignoreBuildErrors: process.env.NEXT_SKIP_TYPECHECK === "1" },
  // Pages (the staff console, /docs, sign-in) may not be framed: no clickjacking of a console button. The API
  // sets its own security headers in the request pipeline (lib/http/route.ts), so /api is left out here.
  async headers() {
    return [
      {
        source: "/((?!api/|files/).*)",
        headers: Object.entries(PAGE_SECURITY_HEADERS).map(([key, value]) => ({ key, value })),
      },
    ];
  },
};

export default config;
