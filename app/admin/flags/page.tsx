import { db } from "@/lib/db/client";
import { adminConfig } from "@/lib/features/config/service";
import { requireStaff } from "../_lib/gate";
import { Confirm, Field, first, LabelledSelect, Notice, type SelectOption, type SearchParams, styles, TableHead, when, ScrollTable } from "../_lib/ui";
import { flagAction, killSwitchAction, settingAction } from "./actions";

// Remote config (lib/features/config): kill switches, feature flags and settings, each change confirmed and audited. Servers
// apply a change within CONFIG_CACHE_TTL_MS (this one at once).

const ERRORS: Record<string, string> = {
  confirm: "Tick the confirmation box to save.",
  feature: "Unknown feature.",
  key: "A flag key is lower-case letters, digits, _ and ., starting with a letter (at most 64).",
  rolloutPercent: "The rollout is a percentage from 0 to 100, at most two decimals.",
  userIds: "User ids are UUIDs (at most 1,000), separated by commas or spaces.",
  message: "The message is at most 280 characters.",
  description: "The description is at most 500 characters.",
  value: "That value is not valid for this setting (a version like 1.4.0, or an http(s) URL).",
  VALIDATION_ERROR: "That value is not valid (a version like 1.4.0, or an http(s) URL; at most 200 flags).",
};
const DONE: Record<string, string> = {
  paused: "Feature paused.",
  resumed: "Feature resumed.",
  flag: "Flag saved.",
  setting: "Setting saved.",
};
/** A kill switch's choice: `paused` is sent as yes or no. */
const PAUSE_CHOICES: SelectOption[] = [
  { value: "yes", label: "pause" },
  { value: "no", label: "resume" },
];

export default async function FlagsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/flags", "admin");
  const sp = await searchParams;
  const done = first(sp.done);
  const error = first(sp.error);
  const config = await adminConfig(db);

  return (
    <>
      <h1>Flags and kill switches</h1>
      {done && DONE[done] ? <Notice>{`${DONE[done]} Every server applies it within ${config.refreshSeconds} s.`}</Notice> : null}
      {error ? <Notice kind="error">{`${ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}

      <section aria-labelledby="switches">
        <h2 id="switches">Kill switches</h2>
        <p style={styles.muted}>
          A paused feature&apos;s writes answer 409 FEATURE_DISABLED; reads stay available. Name user ids to pause it for those users only (a test cohort).
        </p>
        <ScrollTable label="Kill switches">
          <TableHead columns={["Feature", "What it pauses", "State", "Message", "Changed", "Change"]} />
          <tbody>
            {config.killSwitches.map((k) => (
              <tr key={k.feature} data-feature={k.feature}>
                <th scope="row" style={styles.rowHead}>
                  {k.feature}
                </th>
                <td style={styles.td}>{k.description}</td>
                <td style={styles.td} data-testid="state">
                  {!k.paused
                    ? "live"
                    : k.scope === "everyone"
                      ? "paused for everyone"
                      : `paused for ${k.userIds.length} user${k.userIds.length === 1 ? "" : "s"}`}
                </td>
                <td style={styles.td}>{k.message ?? "—"}</td>
                <td style={styles.td}>{k.updatedAt ? `${when(k.updatedAt)} by ${k.updatedBy}` : "never"}</td>
                <td style={styles.td}>
                  <form action={killSwitchAction} aria-label={`Kill switch ${k.feature}`} style={{ ...styles.form, margin: 0 }}>
                    <input type="hidden" name="feature" value={k.feature} />
                    <LabelledSelect name="paused" label="Set" options={PAUSE_CHOICES} defaultValue={k.paused ? "no" : "yes"} />
                    <Field label="Message" name="message" maxLength={280} />
                    <Field label="Only these user ids" name="userIds" width={200} />
                    <Confirm />
                    <button type="submit" style={styles.button}>
                      Save
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </section>

      <section aria-labelledby="flags">
        <h2 id="flags">Feature flags</h2>
        <p style={styles.muted}>
          A signed-in user gets a flag when their bucket (SHA-256 of the flag key and user id, 0..9999) is below the rollout: raising it only adds users.
          Signed-out callers get it at 100% only.
        </p>
        {config.flags.length === 0 ? (
          <p>No flag yet.</p>
        ) : (
          <ScrollTable label="Feature flags">
            <TableHead columns={["Flag", "Description", "Rollout", "Changed", "Edit"]} />
            <tbody>
              {config.flags.map((f) => (
                <tr key={f.key} data-flag={f.key}>
                  <th scope="row" style={styles.rowHead}>
                    <code>{f.key}</code>
                  </th>
                  <td style={styles.td}>{f.description || "—"}</td>
                  <td style={styles.td} data-testid="rollout">
                    {f.rolloutPercent}%
                  </td>
                  <td style={styles.td}>
                    {when(f.updatedAt)} by {f.updatedBy}
                  </td>
                  <td style={styles.td}>
                    <form action={flagAction} aria-label={`Edit flag ${f.key}`} style={{ ...styles.form, margin: 0 }}>
                      <input type="hidden" name="key" value={f.key} />
                      <Field label="Rollout %" name="rolloutPercent" required inputMode="decimal" defaultValue={String(f.rolloutPercent)} width={80} />
                      <Confirm />
                      <button type="submit" style={styles.button}>
                        Save flag
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
        <h3>Create a flag</h3>
        <form action={flagAction} aria-label="Create a flag" style={styles.form}>
          <Field label="Key" name="key" required pattern="[a-z][a-z0-9_.]{0,63}" />
          <Field label="Description" name="description" maxLength={500} width={260} />
          <Field label="Rollout %" name="rolloutPercent" required inputMode="decimal" defaultValue="0" width={80} />
          <Confirm />
          <button type="submit" style={styles.button}>
            Create flag
          </button>
        </form>
      </section>

      <section aria-labelledby="settings">
        <h2 id="settings">Minimum versions and legal links</h2>
        <ScrollTable label="Settings">
          <TableHead columns={["Setting", "Meaning", "Value", "Change"]} />
          <tbody>
            {config.settings.map((s) => (
              <tr key={s.key} data-setting={s.key}>
                <th scope="row" style={styles.rowHead}>
                  <code>{s.key}</code>
                </th>
                <td style={styles.td}>{s.description}</td>
                <td style={styles.td} data-testid="value">
                  {s.value}
                  {s.isDefault ? <span style={styles.muted}> (default)</span> : null}
                </td>
                <td style={styles.td}>
                  <form action={settingAction} aria-label={`Setting ${s.key}`} style={{ ...styles.form, margin: 0 }}>
                    <input type="hidden" name="key" value={s.key} />
                    <input name="value" required defaultValue={s.value} aria-label="Value" style={{ ...styles.input, width: 240 }} />
                    <Confirm />
                    <button type="submit" style={styles.button}>
                      Save
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </section>
    </>
  );
}
