import type { z } from "zod";

// Reading server actions' form fields, and turning a validation failure into a result code for the page.

export const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : undefined;
};

/** Every form field as a string (file fields dropped), for zod to validate. */
export const fields = (form: FormData, names: readonly string[]): Record<string, string | undefined> =>
  Object.fromEntries(names.map((n) => [n, field(form, n)]));

/**
 * The result code of a failed parse: the first issue's custom code (a refine's message naming the rule), else the
 * field it is about. Pages map codes to messages; free text from the request never reaches the page.
 */
export function issueCode(error: z.ZodError, customCodes: readonly string[]): string {
  const issue = error.issues[0];
  if (!issue) return "invalid";
  if (customCodes.includes(issue.message)) return issue.message;
  return typeof issue.path[0] === "string" ? issue.path[0] : "invalid";
}
