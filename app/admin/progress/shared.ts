// What the progress page and its actions share: the forms' fields turned into the console inputs (validated by
// lib/features/progress's own schemas), and the result codes' messages.

const list = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
const optionalInt = (v: string | undefined) => (v === undefined || v.trim() === "" ? null : v.trim());

export function tierFields(f: Record<string, string | undefined>) {
  return { slug: f.slug, name: f.name, minRep: f.minRep, perks: list(f.perks) };
}

export function badgeFields(f: Record<string, string | undefined>) {
  return {
    slug: f.slug,
    name: f.name,
    description: f.description,
    rule: f.rule,
    earnKinds: list(f.earnKinds),
    threshold: optionalInt(f.threshold),
    tierId: f.tierId ? f.tierId : null,
    repeatable: f.repeatable === "on",
    revokeOnReversal: f.revokeOnReversal === "on",
  };
}

export const PROGRESS_DONE: Record<string, string> = {
  tier: "Tier saved.",
  badge: "Badge saved.",
};

export const PROGRESS_ERRORS: Record<string, string> = {
  confirm: "Tick the confirmation box to save.",
  SLUG_TAKEN: "Another tier or badge has this slug (or, for a tier, this minimum Rep).",
  NOT_FOUND: "That tier or badge no longer exists.",
  slug: "The slug must be lowercase letters, digits and dashes (up to 40).",
  name: "A name is required (up to 60 characters).",
  minRep: "The minimum Rep must be a whole number of 0 or more.",
  perks: "Perks: up to 10, comma-separated.",
  description: "A description is required (up to 280 characters).",
  earnKinds: "A Rep-credit badge needs earn kinds (comma-separated, e.g. arena_check_in).",
  threshold: "A streak badge needs a threshold of days, and is not repeatable.",
  tierId: "A tier badge needs a tier, and is not repeatable.",
  rule: "Choose a rule.",
};
