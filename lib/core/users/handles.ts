// Reserved handles: handles no fan may take because they would read as staff or the platform ("admin_",
// "support1", "0fficial", "the_moderator"). A handle is compared in a folded form, so look-alikes fold together:
//
//   1. lower-case;
//   2. confusables to one letter: 0→o, 1→i, l→i (1, l and I look alike: all fold to "i"), 3→e, 4→a, 5→s, 7→t,
//      8→b, and "rn"→"m" ("adrnin");
//   3. underscores are dropped, and trailing digits are dropped too ("admin_", "support1" and "staff_2026" fold to
//      the bare word). Both the form with and the form without its trailing digits are checked, because a trailing
//      digit may be a look-alike itself ("officia1").
//
// The reserved words are folded the same way. A handle is reserved when:
//   - its folded form equals a reserved word, or a reserved word plus a staff suffix ("supportteam", "helpdesk",
//     "modteam", "apibot");
//   - its folded form starts with a STAFF word (admin…, moderator…, official…, verified…): these read as staff
//     whatever follows ("adminjoe", "officialreds");
//   - its first underscore-separated part is a reserved word ("support_fan", "mod_jane", "team_admin"), or any part
//     is a STAFF word ("the_admin", "real_official").
// Deliberately not reserved, to avoid blocking ordinary fans: "supporter", "stafford", "helpful", "rooted",
// "teamwork", "systematic", "modern_fan", "mods_rock" (words other than STAFF words only match whole, with a staff
// suffix, or as the first part before an underscore), and anything merely containing a word ("badminton").
// A user keeps a handle they already hold even if it is reserved today (applyProfilePatch in lib/core/users/service.ts).

/** Read as staff whatever follows them. */
const STAFF_WORDS = ["admin", "administrator", "moderator", "official", "verified", "sysadmin", "webmaster"];
/** Reserved as a whole handle, as the first part of one, or with a staff suffix. */
const OTHER_WORDS = ["support", "staff", "mod", "root", "help", "api", "team", "system", "security", "helpdesk", "postmaster", "hostmaster"];
const STAFF_SUFFIXES = ["team", "desk", "staff", "agent", "crew", "bot", "help", "support", "admin", "official", "mod"];

const CONFUSABLES: Record<string, string> = { "0": "o", "1": "i", l: "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b" };

/** Lower-case, look-alikes folded (see above); underscores and digits other than look-alikes are kept. */
const skeleton = (s: string) =>
  s
    .toLowerCase()
    .replace(/rn/g, "m")
    .replace(/[0134578l]/g, (c) => CONFUSABLES[c]!);

const fold = (words: string[]) => new Set(words.map(skeleton));
const STAFF = fold(STAFF_WORDS);
const ALL = new Set([...STAFF, ...fold(OTHER_WORDS)]);
const SUFFIXES = fold(STAFF_SUFFIXES);

/** The folded forms of one part of a handle: with and without its trailing digits. */
function forms(part: string): string[] {
  const bare = part.replace(/\d+$/, "");
  return [...new Set([skeleton(part), ...(bare ? [skeleton(bare)] : [])])];
}

const isWordWithSuffix = (f: string) => [...ALL].some((w) => f.startsWith(w) && SUFFIXES.has(f.slice(w.length)));

/** Whether a handle (any case) is reserved for staff or the platform. */
export function isReservedHandle(handle: string): boolean {
  const lower = handle.toLowerCase();
  for (const f of forms(lower.replace(/_/g, ""))) {
    if (ALL.has(f) || isWordWithSuffix(f)) return true;
    for (const w of STAFF) if (f.startsWith(w)) return true;
  }
  const parts = lower.split("_").filter(Boolean);
  if (parts.length > 1) {
    if (forms(parts[0]!).some((f) => ALL.has(f))) return true;
    if (parts.some((p) => forms(p).some((f) => STAFF.has(f)))) return true;
  }
  return false;
}
