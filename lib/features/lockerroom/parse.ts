// Hashtags and mentions in a post's or comment's text: two regular expressions with Unicode property escapes (no
// tokenizer of our own), read at write time (indexing.ts) and by the tag routes for their parameter.
//
//  - A hashtag is `#` then letters, marks, digits and underscores (\p{L} \p{M} \p{N} _), with at least one letter,
//    not preceded by such a character, `&` (HTML entities), `/` (URLs' fragments) or another `#`: #Fußball, #日本,
//    #élan_2026 are tags, #2026 and a#b are not. Its key is NFKC-normalized and lower-cased (String.prototype
//    toLowerCase, not full case folding: #FUSSBALL is "fussball", #Fußball "fußball"); the key is what rows, routes
//    and follows use, the first form seen is its display name.
//  - A mention is `@` then a handle as handles are (3..30 of [A-Za-z0-9_], lib/core/users), not preceded by a letter,
//    digit, `_`, `.`, `/` or `@` (so e-mail addresses are not mentions), matched case-insensitively (users.handle_key).
//
// Limits: a tag (its key) is at most TAG_MAX_LENGTH characters, longer ones are not tags; the first TAGS_MAX distinct
// tags and the first MENTIONS_MAX distinct handles of a text count, the rest are left as plain text.

export const TAG_MAX_LENGTH = 64;
export const TAGS_MAX = 10;
export const MENTIONS_MAX = 10;

const HASHTAG = /(?<![\p{L}\p{M}\p{N}_&/#])#([\p{L}\p{M}\p{N}_]+)/gu;
const TAG_KEY = /^[\p{L}\p{M}\p{N}_]+$/u;
const LETTER = /\p{L}/u;
const MENTION = /(?<![\p{L}\p{M}\p{N}_./@])@([A-Za-z0-9_]{3,30})(?![\p{L}\p{M}\p{N}_])/gu;

/** The key of a tag as written (without `#`): NFKC, lower-cased; undefined when that is not a tag. */
export function tagKey(name: string): string | undefined {
  const key = name.normalize("NFKC").toLowerCase();
  if (!TAG_KEY.test(key) || !LETTER.test(key) || [...key].length > TAG_MAX_LENGTH) return undefined;
  return key;
}

export interface ParsedTag {
  tag: string;
  name: string;
}

/** The distinct tags of a text in order of first use (at most TAGS_MAX). */
export function parseTags(text: string): ParsedTag[] {
  const out = new Map<string, ParsedTag>();
  for (const m of text.matchAll(HASHTAG)) {
    if (out.size >= TAGS_MAX) break;
    const name = m[1]!.normalize("NFKC");
    const tag = tagKey(name);
    if (tag && !out.has(tag)) out.set(tag, { tag, name });
  }
  return [...out.values()];
}

/** The distinct handle keys (lower-cased) a text mentions, in order of first use (at most MENTIONS_MAX). */
export function parseMentions(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(MENTION)) {
    if (out.size >= MENTIONS_MAX) break;
    out.add(m[1]!.toLowerCase());
  }
  return [...out];
}
