import type { NextConfig } from "next";

const config: NextConfig = {
  poweredByHeader: false,
  // Separate build directories let several checkouts' test runs coexist (tests read the same variable).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // Server-only packages that must not be bundled (native or large); Node resolves them at run time.
  serverExternalPackages: ["sharp", "pg", "@prisma/adapter-pg", "ioredis"],
  typedRoutes: false,
};

export default config;
