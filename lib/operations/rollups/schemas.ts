import { z } from "zod";
import { isoDateTime, optionalIntQuery } from "../../kernel/schemas";

/** How many UTC days, ending today, a run recomputes when told: a backfill up to 400. */
export const ROLLUP_MAX_DAYS = 400;
/**
 * Without `days`, a run catches up: every day from the first one not computed after it ended (a missed slot's day),
 * at least today and yesterday, at most this many days (a longer gap is a backfill's job).
 */
export const ROLLUP_CATCH_UP_DAYS = 35;

const daysQuery = optionalIntQuery(1, ROLLUP_MAX_DAYS).meta({
  description:
    `UTC days to recompute, ending today: 1..${ROLLUP_MAX_DAYS} (a backfill). Without it, the days since the last one computed after it ended, ` +
    `at least today and yesterday, at most ${ROLLUP_CATCH_UP_DAYS}.`,
});

export const rollupQuery = z.object({ days: daysQuery });

export const rollupResult = z
  .object({
    from: z.string().meta({ description: "First day recomputed (YYYY-MM-DD, UTC)." }),
    to: z.string().meta({ description: "Last day recomputed (today, UTC)." }),
    rows: z.number().int().nonnegative().meta({ description: "Metric rows written (days × daily metrics, plus today's snapshot metrics)." }),
    computedAt: isoDateTime.meta({ description: "When the run started." }),
  })
  .meta({ id: "ConsoleRollupResult" });

/** The dashboard's range switch: 7, 30 or 90 days. */
export const RANGES = [7, 30, 90] as const;
export type Range = (typeof RANGES)[number];
export const rangeOf = (v: string | undefined): Range => RANGES.find((r) => String(r) === v) ?? 30;
