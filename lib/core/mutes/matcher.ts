import type { DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { filtersOf } from "./queries";
import type { FilterContext, FilterKeyword } from "./schemas";

// Keyword filters are matched here, in Node, not in SQL: V8 tests a post against a fan's hundred keywords in well
// under a microsecond, where PostgreSQL's regular expressions took 15–100 µs per row (docs/performance.md,
// 2026-11-27). The reading statements return the viewer's users.filters_version (a trigger bumps it on every change
// of their filters); each process keeps the viewer's compiled filters for that version and reloads them when it
// moved or when one of them expires.

/** Whether a text is hidden by the viewer's filters of one context (null text: never). */
export type TextFilter = (text: string | null) => boolean;

const NONE: TextFilter = () => false;
const WORD = String.raw`[\p{L}\p{N}_]`;
const STARTS_WITH_WORD = new RegExp(`^${WORD}`, "u");
const ENDS_WITH_WORD = new RegExp(`${WORD}$`, "u");

/**
 * The keywords as one case-insensitive regular expression: each keyword literal (regular-expression syntax
 * escaped), a space matching any run of white space, and a whole-word keyword bounded on the sides that are word
 * characters (letters, digits, underscore: `#goal` whole-word still matches). Null for no keywords.
 *
 * Keywords with the same bounds share one group, `(?<!W)(?:a|b|…)(?!W)`, instead of each alternative carrying its
 * own: V8 then tests the bound once per position rather than once per keyword, and 200 whole-word keywords cost a
 * 500-character post about 16 µs instead of 450 µs (docs/performance.md, 2026-11-29). Only `test` is asked, so the
 * order of the alternatives does not matter: the text matches exactly when one keyword matches it.
 */
export function compileKeywords(keywords: FilterKeyword[]): RegExp | null {
  if (keywords.length === 0) return null;
  const groups = new Map<string, { before: string; after: string; literals: string[] }>();
  for (const { keyword, wholeWord } of keywords) {
    const literal = keyword.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&").replace(/ /g, String.raw`\s+`);
    const before = wholeWord && STARTS_WITH_WORD.test(keyword) ? `(?<!${WORD})` : "";
    const after = wholeWord && ENDS_WITH_WORD.test(keyword) ? `(?!${WORD})` : "";
    const group = groups.get(before + after) ?? { before, after, literals: [] };
    group.literals.push(literal);
    groups.set(before + after, group);
  }
  const alternatives = [...groups.values()].map((g) => `${g.before}(?:${g.literals.join("|")})${g.after}`);
  return new RegExp(alternatives.join("|"), "iu");
}

interface Compiled {
  version: number;
  /** When the earliest live filter expires (ms): the filters are compiled again then. */
  validUntil: number;
  byContext: Map<FilterContext, TextFilter>;
}

// Per process, the most recently used viewers' filters (a Map keeps insertion order: a hit moves to the end).
const CACHE_MAX = 10_000;
const cache = new Map<string, Compiled>();

async function compile(db: RawDb | DbTx, userId: string, version: number): Promise<Compiled> {
  const now = Date.now();
  const live = (await filtersOf(db, userId)).filter((f) => !f.expiresAt || f.expiresAt.getTime() > now);
  const byContext = new Map<FilterContext, TextFilter>();
  for (const context of new Set(live.flatMap((f) => f.contexts))) {
    const re = compileKeywords(live.filter((f) => f.contexts.includes(context)).flatMap((f) => f.keywords));
    if (re) byContext.set(context, (text) => text !== null && re.test(text));
  }
  const validUntil = Math.min(Infinity, ...live.map((f) => f.expiresAt?.getTime() ?? Infinity));
  return { version, validUntil, byContext };
}

/**
 * The viewer's filter of `context` for rows a reading statement returned with the viewer's filters version
 * (`filtersVersion`: users.filters_version, 0 when the user never had a filter). Anonymous or no rows: none.
 */
export async function viewerTextFilter(
  db: RawDb | DbTx,
  viewerId: string | undefined,
  context: FilterContext,
  rows: readonly { filtersVersion: number }[],
): Promise<TextFilter> {
  const version = rows[0]?.filtersVersion ?? 0;
  if (!viewerId || version === 0) return NONE;
  let entry = cache.get(viewerId);
  if (entry && entry.version === version && Date.now() < entry.validUntil) {
    cache.delete(viewerId);
  } else {
    entry = await compile(db, viewerId, version);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  }
  cache.set(viewerId, entry);
  return entry.byContext.get(context) ?? NONE;
}
