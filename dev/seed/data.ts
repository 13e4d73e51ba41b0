// Demo seed data (dev/seed/data/): plain, typed, deterministic constants, one file per subject; the facts tests may
// rely on are listed at the top of data/types.ts.
export * from "./data/types";
export * from "./data/leagues";
export * from "./data/teams";
export * from "./data/players";
export * from "./data/games";
export * from "./data/quests";
export * from "./data/catalog";
