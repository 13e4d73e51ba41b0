import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { env } from "../../lib/env";
import { forgetTeamDetails, teamSummaries } from "../../lib/core/teams/service";
import { db } from "../helpers";

// The team summaries the locker room's posts show come from a per-team cache (TEAM_CACHE_TTL_MS), not from each
// post's statement: a change shows once the entry expires, or at once in the process that made it (forgetTeamDetails).

describe("teamSummaries", () => {
  it("answers known teams once each, skips nulls and unknown ids, and keeps a summary for the TTL until forgotten", async () => {
    expect(env().TEAM_CACHE_TTL_MS).toBeGreaterThan(1_000);
    const id = `tm_sum_${randomUUID().slice(0, 8)}`;
    await db().team.create({ data: { id, slug: id.replace(/_/g, "-"), name: "Summary Seals", shortName: "Seals", abbreviation: "SUM" } });
    try {
      const first = await teamSummaries(db(), [id, null, "tm_no_such_team", id]);
      expect([...first.keys()]).toEqual([id]);
      expect(first.get(id)).toEqual({ id, slug: id.replace(/_/g, "-"), name: "Summary Seals", shortName: "Seals", abbreviation: "SUM", logo: null });

      await db().team.update({ where: { id }, data: { name: "Renamed Seals" } });
      expect((await teamSummaries(db(), [id])).get(id)?.name).toBe("Summary Seals");
      forgetTeamDetails();
      expect((await teamSummaries(db(), [id])).get(id)?.name).toBe("Renamed Seals");
    } finally {
      await db().team.delete({ where: { id } });
      forgetTeamDetails();
    }
  });
});
