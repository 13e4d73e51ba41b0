import type { NextConfig } from "next";

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
        headers: [
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" },
        ],
      },
    ];
  },
};

export default config;
