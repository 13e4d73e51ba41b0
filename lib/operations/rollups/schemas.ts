import { z } from "zod";
import { intQuery, isoDateTime } from "../../kernel/schemas";

/** How many UTC days, ending today, a run recomputes: 2 (today and yesterday) by default, a backfill up to 400. */
export const ROLLUP_MAX_DAYS = 400;

export const rollupQuery = z.object({
  days: intQuery(1, ROLLUP_MAX_DAYS, 2).meta({
    description: `UTC days to recompute, ending today: 1..${ROLLUP_MAX_DAYS}, default 2 (today and yesterday). A larger value backfills.`,
  }),
});

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
