import { listChallenges } from "@/lib/features/challenges/service";
import { db } from "@/lib/db/client";
import { listDrops } from "@/lib/features/drops/service";
import { listPacks } from "@/lib/features/packs/service";
import { requireStaff } from "../_lib/gate";
import { Field, first, LabelledSelect, Notice, type SelectOption, styles, TableHead, when, type SearchParams, ScrollTable } from "../_lib/ui";
import { formatCoins } from "../economy/shared";
import { createChallengeAction, createDropAction, runDrawsAction } from "./actions";
import { DROPS_DONE, DROPS_ERRORS } from "./shared";

// Drops (lib/features/drops) and collection challenges (lib/features/challenges): the latest of each, and creating them. A drop's and a
// challenge's seed hash is published when it is created; the seeds are revealed on the API once the order is fixed.

const DROP_MODES: SelectOption[] = [
  { value: "draw", label: "draw" },
  { value: "queue", label: "queue (waiting room)" },
];

export default async function DropsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/drops", "economy");
  const sp = await searchParams;
  const done = first(sp.done);
  const error = first(sp.error);
  const [drops, challenges, packs] = await Promise.all([listDrops(db, { limit: 50 }), listChallenges(db, { limit: 50 }), listPacks(db)]);
  const short = (hash: string) => `${hash.slice(0, 12)}…`;

  return (
    <>
      <h1>Drops and challenges</h1>
      {done && DROPS_DONE[done] ? <Notice>{DROPS_DONE[done]}</Notice> : null}
      {error ? <Notice kind="error">{`${DROPS_ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}

      <section aria-labelledby="drops">
        <h2 id="drops">Drops</h2>
        <p style={styles.muted}>
          Draws run at their close (the drops cron, every minute, or the first read after it); a waiting room&apos;s order is fixed at its opening. Times are
          UTC.
        </p>
        <form action={runDrawsAction}>
          <button type="submit" style={styles.secondary}>
            Run due draws now
          </button>
        </form>
        {drops.drops.length === 0 ? (
          <p>No drop yet.</p>
        ) : (
          <ScrollTable label="Drops">
            <TableHead columns={["Drop", "Pack", "Mode", "Price", "Sold", "Per fan", "Opens", "Closes", "Status", "Seed hash"]} />
            <tbody>
              {drops.drops.map((d) => (
                <tr key={d.id} data-drop={d.id}>
                  <th scope="row" style={styles.rowHead}>
                    {d.name}
                  </th>
                  <td style={styles.td}>{d.pack.name}</td>
                  <td style={styles.td}>{d.mode}</td>
                  <td style={styles.td}>{formatCoins(d.price)}</td>
                  <td style={styles.td} data-testid="sold">
                    {d.sold} / {d.quantity}
                  </td>
                  <td style={styles.td}>{d.perUserCap}</td>
                  <td style={styles.td}>{when(d.opensAt)}</td>
                  <td style={styles.td}>{when(d.closesAt)}</td>
                  <td style={styles.td} data-testid="status">
                    {d.status}
                  </td>
                  <td style={styles.td}>
                    <code title={d.seedHash}>{short(d.seedHash)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
        <h3>Create a drop</h3>
        <form action={createDropAction} style={styles.form} aria-label="Create a drop">
          <Field label="Name" name="name" required maxLength={120} />
          <LabelledSelect name="packId" label="Pack" options={packs.packs.map((p) => ({ value: p.id, label: p.name }))} required />
          <LabelledSelect name="mode" label="Mode" options={DROP_MODES} />
          <Field label="Price (minor units)" name="price" required inputMode="numeric" />
          <Field label="Quantity" name="quantity" required inputMode="numeric" />
          <Field label="Per fan" name="perUserCap" required inputMode="numeric" defaultValue="1" />
          <Field label="Opens (UTC)" name="opensAt" type="datetime-local" required />
          <Field label="Closes (UTC)" name="closesAt" type="datetime-local" required />
          <button type="submit" style={styles.button}>
            Create drop
          </button>
        </form>
      </section>

      <section aria-labelledby="challenges">
        <h2 id="challenges">Collection challenges</h2>
        {challenges.challenges.length === 0 ? (
          <p>No challenge yet.</p>
        ) : (
          <ScrollTable label="Challenges">
            <TableHead columns={["Challenge", "Cards", "Reward", "Rep", "Starts", "Ends", "Status"]} />
            <tbody>
              {challenges.challenges.map((c) => (
                <tr key={c.id} data-challenge={c.id}>
                  <th scope="row" style={styles.rowHead}>
                    {c.title}
                  </th>
                  <td style={styles.td}>{c.cards.map((x) => `${x.card.name}${x.count > 1 ? ` ×${x.count}` : ""}`).join(", ")}</td>
                  <td style={styles.td} data-testid="reward">
                    {c.reward.card ? `${c.reward.card.name}: ${c.reward.remaining} of ${c.reward.supply} left` : "—"}
                  </td>
                  <td style={styles.td}>{c.reward.rep}</td>
                  <td style={styles.td}>{when(c.startsAt)}</td>
                  <td style={styles.td}>{when(c.endsAt)}</td>
                  <td style={styles.td} data-testid="status">
                    {c.status}
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
        <h3>Create a challenge</h3>
        <form action={createChallengeAction} style={styles.form} aria-label="Create a challenge">
          <Field label="Title" name="title" required maxLength={120} />
          <Field label="Description" name="description" maxLength={2000} />
          <Field label="Cards (cc_a=2, cc_b)" name="cards" required width={240} />
          <Field label="Starts (UTC)" name="startsAt" type="datetime-local" required />
          <Field label="Ends (UTC)" name="endsAt" type="datetime-local" required />
          <Field label="Reward card id" name="rewardCardId" />
          <Field label="Reward copies" name="rewardSupply" inputMode="numeric" />
          <Field label="Rep each" name="rewardRep" inputMode="numeric" defaultValue="0" />
          <button type="submit" style={styles.button}>
            Create challenge
          </button>
        </form>
      </section>
    </>
  );
}
