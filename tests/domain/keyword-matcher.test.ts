import { describe, expect, it } from "vitest";
import { compileKeywords } from "../../lib/mutes/matcher";

// The keyword filters' regular expression (lib/mutes/matcher.ts): literal keywords (no character of a keyword is ever
// regular-expression syntax), case-insensitive in Unicode, a space for any run of white space, whole-word bounds only
// on the sides that are word characters.

const matches = (keyword: string, wholeWord: boolean, text: string) => compileKeywords([{ keyword, wholeWord }])!.test(text);

describe("compileKeywords", () => {
  it("takes every printable ASCII character literally", () => {
    for (let code = 0x21; code < 0x7f; code++) {
      const c = String.fromCharCode(code);
      const keyword = `a${c}b`;
      expect(matches(keyword, false, `x ${keyword} y`), keyword).toBe(true);
      if (!/[a-z0-9]/i.test(c)) expect(matches(keyword, false, "x aXb y"), keyword).toBe(c === "x" || c === "X");
    }
    expect(matches("(", true, "a ( b")).toBe(true);
    expect(matches("\\d+", false, "123")).toBe(false);
  });

  it("matches case-insensitively in Unicode, whole words bounded by Unicode letters and digits", () => {
    expect(matches("café", true, "Un CAFÉ avant")).toBe(true);
    expect(matches("σοφία", true, "ΣΟΦΊΑ scored")).toBe(true);
    expect(matches("goal", true, "What a GOAL!")).toBe(true);
    expect(matches("goal", true, "goalkeeper")).toBe(false);
    expect(matches("goal", true, "autogoal")).toBe(false);
    expect(matches("goal", true, "éGoal")).toBe(false);
    expect(matches("goal", true, "goal_")).toBe(false);
    expect(matches("keeper", false, "goalkeeper")).toBe(true);
    expect(matches("#var", true, "#VAR again")).toBe(true);
    expect(matches("#var", true, "x#var")).toBe(true);
    expect(matches("#var", true, "#variant")).toBe(false);
  });

  it("lets a space match any run of white space", () => {
    expect(matches("red card", true, "Red   card")).toBe(true);
    expect(matches("red card", true, "red\n\tcard")).toBe(true);
    expect(matches("red card", true, "redcard")).toBe(false);
  });

  it("joins keywords as alternatives; none compiles to null", () => {
    const re = compileKeywords([
      { keyword: "spoiler", wholeWord: true },
      { keyword: "a|b", wholeWord: false },
    ])!;
    expect(re.test("big SPOILER")).toBe(true);
    expect(re.test("a|b")).toBe(true);
    expect(re.test("a")).toBe(false);
    expect(compileKeywords([])).toBeNull();
  });
});
