// Imported first by scripts/bench.ts: the lib modules it loads read the environment once, when they load, so the
// bench's database and leaderboard prefix must be in place before them (the bench process rebuilds and moves boards).
export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/fan_bench";
export const BOARD_PREFIX = "lb:bench";
process.env.DATABASE_URL = BENCH_DATABASE_URL;
process.env.LEADERBOARD_PREFIX = BOARD_PREFIX;
