/** Sport values come from the provider as free text; null, empty or unusable values become "other". */
export function normalizeSport(value: string | null | undefined): string {
  const v = (value ?? "").trim().toLowerCase();
  return /^[a-z][a-z0-9_-]{0,39}$/.test(v) ? v : "other";
}
