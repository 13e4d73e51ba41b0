import { listChallenges } from "@/lib/features/challenges/service";
import { db } from "@/lib/db/client";
import { listDrops } from "@/lib/features/drops/service";
import { listPacks } from "@/lib/features/packs/service";
import { requireStaff } from "../_lib/gate";
import { first, Notice, styles, TableHead, when, type SearchParams, ScrollTable } from "../_lib/ui";
import { formatCoins } from "../economy/shared";
import { createChallengeAction, createDropAction, runDrawsAction } from "./actions";
import { DROPS_DONE, DROPS_ERRORS } from "./shared";

// Drops (lib/features/drops) and collection challenges (lib/features/challenges): the latest of each, and creating them. A drop's and a
// challenge's seed hash is published when it is created; the seeds are revealed on the API once the order is fixed.

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
          <label style={styles.label}>
            Name
            <input name="name" required maxLength={120} style={styles.input} />
          </label>
          <label style={styles.label}>
            Pack
            <select name="packId" required style={styles.input}>
              {packs.packs.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label style={styles.label}>
            Mode
            <select name="mode" style={styles.input}>
              <option value="draw">draw</option>
              <option value="queue">queue (waiting room)</option>
            </select>
          </label>
          <label style={styles.label}>
            Price (minor units)
            <input name="price" required inputMode="numeric" style={styles.input} />
          </label>
          <label style={styles.label}>
            Quantity
            <input name="quantity" required inputMode="numeric" style={styles.input} />
          </label>
          <label style={styles.label}>
            Per fan
            <input name="perUserCap" required inputMode="numeric" defaultValue="1" style={styles.input} />
          </label>
          <label style={styles.label}>
            Opens (UTC)
            <input name="opensAt" type="datetime-local" required style={styles.input} />
          </label>
          <label style={styles.label}>
            Closes (UTC)
            <input name="closesAt" type="datetime-local" required style={styles.input} />
          </label>
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
          <label style={styles.label}>
            Title
            <input name="title" required maxLength={120} style={styles.input} />
          </label>
          <label style={styles.label}>
            Description
            <input name="description" maxLength={2000} style={styles.input} />
          </label>
          <label style={styles.label}>
            Cards (cc_a=2, cc_b)
            <input name="cards" required style={{ ...styles.input, width: 240 }} />
          </label>
          <label style={styles.label}>
            Starts (UTC)
            <input name="startsAt" type="datetime-local" required style={styles.input} />
          </label>
          <label style={styles.label}>
            Ends (UTC)
            <input name="endsAt" type="datetime-local" required style={styles.input} />
          </label>
          <label style={styles.label}>
            Reward card id
            <input name="rewardCardId" style={styles.input} />
          </label>
          <label style={styles.label}>
            Reward copies
            <input name="rewardSupply" inputMode="numeric" style={styles.input} />
          </label>
          <label style={styles.label}>
            Rep each
            <input name="rewardRep" inputMode="numeric" defaultValue="0" style={styles.input} />
          </label>
          <button type="submit" style={styles.button}>
            Create challenge
          </button>
        </form>
      </section>
    </>
  );
}
