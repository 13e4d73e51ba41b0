// Settings of the multi tier's servers that its tests reason about (read by tests/multi/setup.ts and the tests).

/** How long an instance reuses a team's public detail in this tier (TEAM_CACHE_TTL_MS). */
export const TEAM_CACHE_TTL_MS = 1_000;

/** How long an instance reuses a signed-in fan's row and suspension in this tier (USER_CACHE_TTL_MS). */
export const USER_CACHE_TTL_MS = 1_000;

/** The tight policy this tier spends across instances: `public`, keyed by client address. */
export const PUBLIC_LIMIT = { tokens: 6, window: "60 s", windowMs: 60_000 } as const;
