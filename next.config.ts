import type { NextConfig } from "next";

const config: NextConfig = {
  poweredByHeader: false,
  // Server-only packages that must not be bundled (native or large); Node resolves them at run time.
  serverExternalPackages: ["sharp", "pg", "@prisma/adapter-pg", "ioredis"],
  typedRoutes: false,
};

export default config;
