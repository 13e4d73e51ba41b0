import type { CSSProperties, InputHTMLAttributes, ReactNode, TableHTMLAttributes, TextareaHTMLAttributes } from "react";
import { SLUG_PATTERN } from "@/lib/operations/admin/schemas";

// Small shared pieces for the console's server-rendered pages (plain HTML, inline styles, no client script).

export const styles = {
  table: { borderCollapse: "collapse", width: "100%", fontSize: 14 } satisfies CSSProperties,
  th: { textAlign: "left", borderBottom: "2px solid #ccc", padding: "6px 8px" } satisfies CSSProperties,
  td: { borderBottom: "1px solid #eee", padding: "6px 8px", verticalAlign: "top" } satisfies CSSProperties,
  rowHead: { borderBottom: "1px solid #eee", padding: "6px 8px", verticalAlign: "top", textAlign: "left", fontWeight: 500 } satisfies CSSProperties,
  form: { display: "flex", gap: 12, alignItems: "end", flexWrap: "wrap", margin: "12px 0" } satisfies CSSProperties,
  label: { display: "flex", flexDirection: "column", gap: 4, fontSize: 14 } satisfies CSSProperties,
  input: { padding: "6px 8px", fontSize: 14, border: "1px solid #999", borderRadius: 4 } satisfies CSSProperties,
  button: {
    padding: "6px 12px",
    fontSize: 14,
    border: "1px solid #245",
    borderRadius: 4,
    background: "#1f4e79",
    color: "#fff",
    cursor: "pointer",
  } satisfies CSSProperties,
  secondary: {
    padding: "4px 10px",
    fontSize: 13,
    border: "1px solid #777",
    borderRadius: 4,
    background: "#fff",
    color: "#1a1a1a",
    cursor: "pointer",
  } satisfies CSSProperties,
  muted: { color: "#555" } satisfies CSSProperties,
};

export function Notice({ kind = "ok", children }: { kind?: "ok" | "error"; children: ReactNode }) {
  const palette = kind === "ok" ? { background: "#e8f4ea", border: "#3c7d46" } : { background: "#fbeaea", border: "#a33" };
  return (
    <p role={kind === "error" ? "alert" : "status"} style={{ background: palette.background, borderLeft: `4px solid ${palette.border}`, padding: "8px 12px" }}>
      {children}
    </p>
  );
}

export function Stat({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div style={{ border: "1px solid #ddd", borderRadius: 6, padding: "12px 16px", minWidth: 150 }}>
      <dt style={{ fontSize: 13, color: "#555" }}>{label}</dt>
      <dd data-testid={testId} style={{ margin: 0, fontSize: 28, fontWeight: 600 }}>
        {value}
      </dd>
    </div>
  );
}

/** How the console names a user's role (lib/operations/admin providerRole). */
export const ROLE_LABEL = {
  admin: "Staff (admin)",
  moderator: "Staff (moderator)",
  support: "Staff (support)",
  economy: "Staff (economy)",
  fan: "Fan",
  unknown: "Unknown (not held by the identity provider)",
} as const;

export const when = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString().replace("T", " ").slice(0, 19) + " UTC" : "—");

/**
 * A search parameter's first value. One holding a NUL character reads as absent: PostgreSQL refuses NUL in text, and
 * the API refuses it the same way (lib/http/input.ts).
 */
export const first = (v: string | string[] | undefined): string | undefined => {
  const value = Array.isArray(v) ? v[0] : v;
  return value?.includes("\u0000") ? undefined : value;
};
export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A table's header row: one column header per label; an empty label (a column of buttons) is read as "Actions". */
export function TableHead({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} style={styles.th} scope="col">
            {c || <span className="visually-hidden">Actions</span>}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * A data table named `label`, inside a group of the same name that scrolls sideways when the table is wider than
 * the page (a tablet), so the page itself never does. The group is focusable so it scrolls with the keyboard too
 * (a group rather than a region: a landmark per table would bury the page's own).
 */
export function ScrollTable({ label, style, children, ...table }: { label: string } & TableHTMLAttributes<HTMLTableElement>) {
  return (
    <div role="group" aria-label={label} tabIndex={0} className="table-scroll">
      <table aria-label={label} style={{ ...styles.table, ...style }} {...table}>
        {children}
      </table>
    </div>
  );
}

/**
 * A labelled input (text unless `type` says otherwise); `width` in pixels for the longer ones, or `minWidth` in pixels
 * for the label, which the input then fills (free text such as a reason).
 */
export function Field({ label, width, minWidth, ...input }: { label: string; width?: number; minWidth?: number } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label style={minWidth ? { ...styles.label, minWidth } : styles.label}>
      {label}
      <input {...input} style={width ? { ...styles.input, width } : styles.input} />
    </label>
  );
}

/** A labelled textarea, as `Field` is a labelled input; `width` in pixels. */
export function TextArea({ label, width, ...textarea }: { label: string; width?: number } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <label style={styles.label}>
      {label}
      <textarea {...textarea} style={width ? { ...styles.input, width } : styles.input} />
    </label>
  );
}

/** A labelled checkbox; the confirmation box of a console write is `<Check name="confirm" value="yes" … />`. */
export function Check({ label, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label style={styles.label}>
      <span>
        <input type="checkbox" {...input} /> {label}
      </span>
    </label>
  );
}

/** A checkbox with its label beside it, on one line (a filter's or a form's on/off setting). */
export function InlineCheck({ label, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label style={{ ...styles.label, flexDirection: "row", alignItems: "center" }}>
      <input type="checkbox" {...input} /> {label}
    </label>
  );
}

/** The confirmation box every console write needs (its server action refuses the write without it). */
export function Confirm({ label = "Confirm" }: { label?: string }) {
  return <InlineCheck label={label} name="confirm" value="yes" required />;
}

/** One choice of a `LabelledSelect`: the `value` sent, the `label` shown. */
export type SelectOption = { value: string; label: string };

/** A labelled select over options computed by the page (rows of a table, a value shown under another name). */
export function LabelledSelect({
  name,
  label,
  options,
  defaultValue,
  required,
}: {
  name: string;
  label: string;
  options: readonly SelectOption[];
  defaultValue?: string;
  required?: boolean;
}) {
  return (
    <label style={styles.label}>
      {label}
      <select name={name} required={required} defaultValue={defaultValue} style={styles.input}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The options of a select whose values are shown as they are. */
const asOptions = (values: readonly string[]): SelectOption[] => values.map((v) => ({ value: v, label: v }));

/** A labelled select over a fixed list of values (the first is the default unless another is named). */
export function Select({ name, label, options, defaultValue }: { name: string; label: string; options: readonly string[]; defaultValue?: string }) {
  return <LabelledSelect name={name} label={label} options={asOptions(options)} defaultValue={defaultValue ?? options[0]} />;
}

/** A list's filter: a GET form with one select over `options` and "all" (the empty value), `value` selected. */
export function FilterForm({ name, label, options, value }: { name: string; label: string; options: readonly string[]; value?: string }) {
  return (
    <form method="get" style={styles.form}>
      <LabelledSelect name={name} label={label} options={[{ value: "", label: "all" }, ...asOptions(options)]} defaultValue={value ?? ""} />
      <button type="submit" style={styles.secondary}>
        Show
      </button>
    </form>
  );
}

/** The title, slug and description every catalog entry (quest, reward) is created with. */
export function CatalogFields() {
  return (
    <>
      <Field label="Title" name="title" required maxLength={120} />
      <Field label="Slug" name="slug" required maxLength={80} pattern={SLUG_PATTERN} />
      <Field label="Description" name="description" maxLength={500} minWidth={300} />
    </>
  );
}
