// The for-you ranking (docs/domains/feeds.md, "Ranking"; decision 0053). One statement (queries.ts, rankIntoSnapshotSql)
// ranks a bounded candidate pool for a fan and stores the order as a snapshot; pages then read positions of that
// frozen order. Every number the formula uses is here.

/** The freshest posts the viewer may see, whoever wrote them: the pool's main source. */
export const POOL_FRESH = 25_000;
/** Newest posts of each followed fan, and of each followed or joined team, added to the pool. */
export const POOL_PER_FOLLOWED_FAN = 200;
export const POOL_PER_TEAM = 1_000;
/** Newest posts of each of the (at most POOL_AFFINITY_AUTHORS) authors the fan's signals favour, added to the pool. */
export const POOL_AFFINITY_AUTHORS = 50;
export const POOL_PER_AFFINITY_AUTHOR = 200;
/** Signals read: the fan's events received in the last SIGNAL_WINDOW_DAYS. */
export const SIGNAL_WINDOW_DAYS = 30;
/** Followed sources and signal authors reach back this far. */
export const POOL_MAX_AGE_DAYS = 30;

/** The weight of each signal type toward the author (and team) of the item it is about. */
export const SIGNAL_WEIGHTS = {
  like: 3,
  share: 3,
  save: 2,
  click: 0.5,
  view: 0.5,
  /** dwell: per 10 s of durationMs, at most 30 s counted (so at most 3). */
  dwellPer10s: 1,
  unlike: -3,
  /** hide: the post itself leaves the ranking, and its author is pushed down. */
  hide: -4,
  impression: 0,
} as const;

/** Freshness halves every FRESHNESS_HALF_LIFE_HOURS. */
export const FRESHNESS_HALF_LIFE_HOURS = 12;
/** The factors of the score (see scoreSql). */
export const WEIGHTS = {
  engagement: 0.2,
  followsAuthor: 1,
  followsTeam: 0.5,
  authorAffinity: 0.5,
  teamAffinity: 0.25,
} as const;

/** Snapshot chunks hold this many ids (16 bytes each). */
export const SNAPSHOT_CHUNK = 100;
