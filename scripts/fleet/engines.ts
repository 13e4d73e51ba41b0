import { existsSync, readdirSync } from "node:fs";

// The Debian packages the fleet starts (scripts/fleet/fleet.ts). Where one is missing the fleet cannot start: the
// fleet test tier is left out with one line naming what to install (vitest.config.ts), and in CI .ci/run installs them.

const PACKAGES: [name: string, found: () => boolean][] = [
  ["haproxy", () => ["/usr/sbin/haproxy", "/usr/bin/haproxy"].some(existsSync)],
  ["pgbouncer", () => ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].some(existsSync)],
  [
    "postgresql",
    () => existsSync("/usr/lib/postgresql") && readdirSync("/usr/lib/postgresql").some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/pg_basebackup`)),
  ],
  ["redis-server", () => ["/usr/bin/redis-server", "/usr/sbin/redis-server"].some(existsSync)],
];

/** The packages the fleet needs that this machine lacks. */
export const missingEngines = (): string[] => PACKAGES.filter(([, found]) => !found()).map(([name]) => name);

export const NO_FLEET = (missing: string[]) =>
  `fleet tests skipped: ${missing.join(", ")} not installed (apt-get install ${missing.join(" ")}; docs/operations.md "A fleet on one machine")`;
