import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { appConfig } from "@/lib/features/config/schemas";
import { configFor } from "@/lib/features/config/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Remote config",
      description:
        "What an app reads at start-up and on resume: every feature flag on or off for this caller (signed in: stable per user, a SHA-256 bucket of the user id and the flag key against the flag's rollout; signed out: on only when rolled out to 100%), each feature's kill switch (`enabled: false` while staff paused it; its writes then answer 409 FEATURE_DISABLED), the minimum app version per platform, legal links, limits and the coin bundles' store product ids. Each server process reads the config at most every `refreshSeconds` (CONFIG_CACHE_TTL_MS): a staff change shows everywhere within that bound. Conditional: send the `ETag` back in `If-None-Match` for a `304 Not Modified` without a body.",
      tags: ["Platform"],
      auth: "optional",
      // Not limited: answered from the process's memory (no query), it costs less than a limiter's Redis round trip;
      // a bad token costs one signature check either way (auth runs before limits).
      rateLimit: false,
      conditional: true,
      // A suspended fan's app still needs its minimum version, links and switches (it only reads).
      allowSuspended: true,
      response: appConfig,
    },
    ({ user }) => configFor(db, user),
  ),
});
