import { listConsoleRewards } from "@/lib/operations/admin/queries";
import { REWARD_KINDS, REWARD_MILESTONES } from "@/lib/operations/admin/schemas";
import { db } from "@/lib/db/client";
import { activateRewardAction, adjustStockAction, createRewardAction, deactivateRewardAction, setStockAction } from "./actions";
import { requireStaff } from "../_lib/gate";
import { CatalogFields, Field, first, LabelledSelect, Notice, Select, styles, type SearchParams, TableHead, ScrollTable } from "../_lib/ui";

const ERRORS: Record<string, string> = {
  title: "Enter a title (1-120 characters).",
  slug: "The slug must be lower-case letters, digits and single hyphens (at most 80), and not used by another reward.",
  description: "The description is at most 500 characters.",
  kind: "Choose a kind.",
  costRep: "The cost is a whole number of Rep, 0 or more.",
  stock: "Stock is a whole number, 0 or more (empty: unlimited).",
  perUserLimit: "The per-user limit is a whole number, 1 or more (empty: no limit).",
  milestone: "A milestone reward needs a milestone and a target of 1 or more.",
  milestoneValue: "The milestone target is a whole number, 1 or more.",
  milestone_cost: "Milestone rewards are claimed free: their cost must be 0.",
  redeem_milestone: "A redeem reward has no milestone: leave the milestone fields empty.",
  delta: "Enter a whole number to add (or a negative one to take away), not 0.",
  below_zero: "Stock cannot go below 0: that change would.",
  unlimited: "This reward's stock is unlimited: set a number first.",
  missing: "No such reward.",
};
const DONE: Record<string, string> = {
  created: "Reward created.",
  stock: "Stock updated.",
  deactivated: "Reward deactivated: it left the catalog.",
  activated: "Reward activated: it is in the catalog.",
};

export default async function RewardsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/rewards", "economy");
  const sp = await searchParams;
  const rewards = await listConsoleRewards(db);
  const done = first(sp.done);
  const error = first(sp.error);
  const subject = rewards.find((r) => r.id === first(sp.reward));

  return (
    <>
      <h1>Rewards</h1>
      {done && DONE[done] ? <Notice>{`${subject ? `${subject.title}: ` : ""}${DONE[done]}`}</Notice> : null}
      {error ? (
        <Notice kind="error">{`${subject ? `${subject.title}: ` : ""}${ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice>
      ) : null}
      {rewards.length === 0 ? <p>No rewards yet.</p> : null}
      {rewards.length ? (
        <ScrollTable label="Rewards">
          <TableHead columns={["Reward", "Slug", "Kind", "Cost", "Stock", "Per user", "Claims", "Status", "Actions"]} />
          <tbody>
            {rewards.map((r) => (
              <tr key={r.id} data-reward={r.slug}>
                <th scope="row" style={styles.rowHead}>
                  {r.title}
                </th>
                <td style={styles.td}>
                  <code>{r.slug}</code>
                </td>
                <td style={styles.td}>{r.kind === "milestone" ? `milestone: ${r.milestone} ≥ ${r.milestoneValue}` : "redeem"}</td>
                <td style={styles.td}>{r.costRep}</td>
                <td style={styles.td} data-testid="stock">
                  {r.stock === null ? "Unlimited" : r.stock}
                </td>
                <td style={styles.td}>{r.perUserLimit ?? "—"}</td>
                <td style={styles.td}>{r._count.claims}</td>
                <td style={styles.td} data-testid="reward-status">
                  {r.active ? "Active" : "Inactive"}
                </td>
                <td style={styles.td}>
                  <div style={{ display: "flex", flexDirection: "column", gap: 6 }}>
                    {r.stock !== null ? (
                      <form action={adjustStockAction} style={{ display: "flex", gap: 6 }}>
                        <input type="hidden" name="rewardId" value={r.id} />
                        <input
                          name="delta"
                          type="number"
                          required
                          aria-label={`Change stock of ${r.title} by`}
                          placeholder="+/-"
                          style={{ ...styles.input, width: 80 }}
                        />
                        <button type="submit" style={styles.secondary}>
                          Adjust stock
                        </button>
                      </form>
                    ) : null}
                    <form action={setStockAction} style={{ display: "flex", gap: 6 }}>
                      <input type="hidden" name="rewardId" value={r.id} />
                      <input
                        name="stock"
                        type="number"
                        min={0}
                        aria-label={`Set stock of ${r.title} to`}
                        placeholder="∞"
                        style={{ ...styles.input, width: 80 }}
                      />
                      <button type="submit" style={styles.secondary}>
                        Set stock
                      </button>
                    </form>
                    <form action={r.active ? deactivateRewardAction : activateRewardAction}>
                      <input type="hidden" name="rewardId" value={r.id} />
                      <button type="submit" style={styles.secondary} aria-label={`${r.active ? "Deactivate" : "Activate"} ${r.title}`}>
                        {r.active ? "Deactivate" : "Activate"}
                      </button>
                    </form>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
      <p style={{ ...styles.muted, fontSize: 13, marginTop: 8 }}>
        &quot;Adjust stock&quot; adds (or, negative, takes away) items in one step that never goes below 0, even while fans redeem. &quot;Set stock&quot;
        replaces it; empty means unlimited. Rewards are never deleted: a deactivated reward leaves the catalog and keeps its claims.
      </p>

      <h2>Create a reward</h2>
      <form action={createRewardAction} aria-label="Create a reward" style={styles.form}>
        <CatalogFields />
        <Select name="kind" label="Kind" options={REWARD_KINDS} defaultValue="redeem" />
        <Field label="Cost (Rep)" name="costRep" type="number" min={0} required defaultValue={0} width={100} />
        <Field label="Stock (empty: unlimited)" name="stock" type="number" min={0} width={100} />
        <Field label="Per-user limit" name="perUserLimit" type="number" min={1} width={100} />
        <LabelledSelect
          name="milestone"
          label="Milestone"
          options={[{ value: "", label: "None (redeem)" }, ...REWARD_MILESTONES.map((m) => ({ value: m, label: m }))]}
          defaultValue=""
        />
        <Field label="Milestone target" name="milestoneValue" type="number" min={1} width={100} />
        <button type="submit" style={styles.button}>
          Create reward
        </button>
      </form>
      <p style={{ ...styles.muted, fontSize: 13 }}>
        Redeem rewards are bought with Rep; milestone rewards are claimed free, once, when the fan reaches the target (Rep earned, quests completed or streak
        days).
      </p>
    </>
  );
}
