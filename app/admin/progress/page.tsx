import { db } from "@/lib/db/client";
import { BADGE_RULES } from "@/lib/features/progress/schemas";
import { badgesOf, tiersOf } from "@/lib/features/progress/service";
import type { BadgeRow, TierRow } from "@/lib/features/progress/queries";
import { requireStaff } from "../_lib/gate";
import { Check, Confirm, Field, first, LabelledSelect, Notice, type SearchParams, Select, styles, TableHead, ScrollTable } from "../_lib/ui";
import { saveBadgeAction, saveTierAction } from "./actions";
import { PROGRESS_DONE, PROGRESS_ERRORS } from "./shared";

// Tiers and badges (lib/features/progress): every one, editable in place, and creating one. Each save needs the confirmation
// box and is written with its audit entry. A badge is retired (active off), never deleted: its grants stay.

function TierForm({ tier }: { tier?: TierRow }) {
  const label = tier ? `Edit tier ${tier.slug}` : "Create a tier";
  return (
    <form action={saveTierAction} style={styles.form} aria-label={label}>
      {tier ? <input type="hidden" name="id" value={tier.id} /> : null}
      <Field label="Slug" name="slug" required maxLength={40} defaultValue={tier?.slug} />
      <Field label="Name" name="name" required maxLength={60} defaultValue={tier?.name} />
      <Field label="Min Rep" name="minRep" required inputMode="numeric" defaultValue={tier?.minRep} />
      <Field label="Perks (comma-separated)" name="perks" defaultValue={tier?.perks.join(", ")} width={280} />
      <Confirm />
      <button type="submit" style={styles.button}>
        {tier ? "Save tier" : "Create tier"}
      </button>
    </form>
  );
}

function BadgeForm({ badge, tiers }: { badge?: BadgeRow; tiers: TierRow[] }) {
  const label = badge ? `Edit badge ${badge.slug}` : "Create a badge";
  return (
    <form action={saveBadgeAction} style={styles.form} aria-label={label}>
      {badge ? <input type="hidden" name="id" value={badge.id} /> : null}
      <Field label="Slug" name="slug" required maxLength={40} defaultValue={badge?.slug} />
      <Field label="Name" name="name" required maxLength={60} defaultValue={badge?.name} />
      <Field label="Description" name="description" required maxLength={280} defaultValue={badge?.description} width={260} />
      <Select name="rule" label="Rule" options={BADGE_RULES} defaultValue={badge?.rule ?? "rep_kind"} />
      <Field label="Earn kinds (rep_kind)" name="earnKinds" defaultValue={badge?.earnKinds.join(", ")} />
      <Field label="Days (streak)" name="threshold" inputMode="numeric" defaultValue={badge?.threshold ?? ""} />
      <LabelledSelect
        name="tierId"
        label="Tier (tier)"
        options={[{ value: "", label: "—" }, ...tiers.map((t) => ({ value: t.id, label: t.name }))]}
        defaultValue={badge?.tierId ?? ""}
      />
      <Check label="Repeatable" name="repeatable" defaultChecked={badge?.repeatable} />
      <Check label="Revoke on reversal" name="revokeOnReversal" defaultChecked={badge?.revokeOnReversal ?? true} />
      {badge ? <Check label="Active" name="active" defaultChecked={badge.active} /> : null}
      <Confirm />
      <button type="submit" style={styles.button}>
        {badge ? "Save badge" : "Create badge"}
      </button>
    </form>
  );
}

export default async function ProgressPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/progress", "admin");
  const sp = await searchParams;
  const done = first(sp.done);
  const error = first(sp.error);
  const [tiers, badges] = await Promise.all([tiersOf(db), badgesOf(db, true)]);

  return (
    <>
      <h1>Tiers and badges</h1>
      {done && PROGRESS_DONE[done] ? <Notice>{PROGRESS_DONE[done]}</Notice> : null}
      {error ? <Notice kind="error">{`${PROGRESS_ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}

      <section aria-labelledby="tiers">
        <h2 id="tiers">Tiers</h2>
        <p style={styles.muted}>A fan&apos;s tier is the highest whose minimum they reached with Rep earned in the season (a UTC month).</p>
        <ScrollTable label="Tiers">
          <TableHead columns={["Tier", "Min Rep", "Perks"]} />
          <tbody>
            {tiers.map((t) => (
              <tr key={t.id} data-tier={t.slug}>
                <th scope="row" style={styles.rowHead}>
                  {t.name}
                </th>
                <td style={styles.td} data-testid="min-rep">
                  {t.minRep}
                </td>
                <td style={styles.td}>{t.perks.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
        {tiers.map((t) => (
          <details key={t.id}>
            <summary>Edit {t.name}</summary>
            <TierForm tier={t} />
          </details>
        ))}
        <h3>Create a tier</h3>
        <TierForm />
      </section>

      <section aria-labelledby="badges">
        <h2 id="badges">Badges</h2>
        <ScrollTable label="Badges">
          <TableHead columns={["Badge", "Rule", "Repeatable", "Revoked on reversal", "Active"]} />
          <tbody>
            {badges.map((b) => (
              <tr key={b.id} data-badge={b.slug}>
                <th scope="row" style={styles.rowHead}>
                  {b.name}
                </th>
                <td style={styles.td}>
                  {b.rule === "rep_kind"
                    ? `Rep: ${b.earnKinds.join(", ")}`
                    : b.rule === "streak"
                      ? `${b.threshold}-day streak`
                      : `Tier ${tiers.find((t) => t.id === b.tierId)?.name ?? "?"}`}
                </td>
                <td style={styles.td}>{b.repeatable ? "yes" : "no"}</td>
                <td style={styles.td}>{b.revokeOnReversal ? "yes" : "no"}</td>
                <td style={styles.td} data-testid="active">
                  {b.active ? "yes" : "no"}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
        {badges.map((b) => (
          <details key={b.id}>
            <summary>Edit {b.name}</summary>
            <BadgeForm badge={b} tiers={tiers} />
          </details>
        ))}
        <h3>Create a badge</h3>
        <BadgeForm tiers={tiers} />
      </section>
    </>
  );
}
