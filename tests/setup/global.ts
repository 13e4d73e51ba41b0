import type { TestProject } from "vitest/node";
import { startTestServer } from "./test-server";

export type { Fixture } from "./test-server";

// The api project's world: a seeded database, every fixture, and `next start` with response validation on.
export default async function setup(project: TestProject) {
  const server = await startTestServer({
    dbPrefix: "fan_test",
    seed: true,
    label: "server",
    reportLine: (l) => l.includes('"unhandled error"'),
    env: ({ run }) => ({
      DB_POOL_SIZE: "10",
      RATE_LIMIT_PREFIX: `test:${run}`,
      // Generous limits so concurrency tests measure the rules, tight public limit to test 429s.
      RATE_LIMIT_OVERRIDES: JSON.stringify({
        write: { tokens: 100_000, window: "60 s" },
        earn: { tokens: 100_000, window: "60 s" },
        public: { tokens: 5, window: "60 s" },
      }),
      CLERK_AUTHORIZED_PARTIES: "https://app.example.com,https://admin.example.com",
      // As behind a CDN and a load balancer: the client is the second X-Forwarded-For entry from the right.
      CLIENT_IP_SOURCE: "forwarded",
      TRUSTED_PROXY_HOPS: "2",
      VALIDATE_RESPONSES: "1",
    }),
  });
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseUrl", server.databaseUrl);
  project.provide("privateKey", server.privateKey);
  project.provide("publicKey", server.publicKey);
  project.provide("redisPrefix", `test:${server.run}`);
  project.provide("fixtures", server.provided);
  return server.stop;
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    privateKey: string;
    publicKey: string;
    redisPrefix: string;
    /** Values fixtures hand to tests (e.g. a stand-in's URL), by fixture file name. */
    fixtures: Record<string, Record<string, string>>;
  }
}
