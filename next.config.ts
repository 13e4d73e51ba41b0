import type { NextConfig } from "next";

const config: NextConfig = {
  poweredByHeader: false,
  // Separate build directories let several checkouts' test runs coexist (tests read the same variable).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // Server-only packages that must not be bundled (native or large); Node resolves them at run time.
  serverExternalPackages: ["sharp", "pg", "@prisma/adapter-pg", "ioredis"],
  typedRoutes: false,
  // Parallel local builds (NEXT_DIST_DIR) skip next's own type check and run `tsc --noEmit` instead; CI keeps it.
  typescript: { ignoreBuildErrors: process.env.NEXT_SKIP_TYPECHECK === "1" },
};

export default config;
