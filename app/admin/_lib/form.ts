import { redirect } from "next/navigation";
import type { z } from "zod";
import { ConsoleRefusal } from "@/lib/operations/admin/service";
import { DomainError } from "@/lib/kernel/errors";

// Reading server actions' form fields, and turning a validation failure into a result code for the page.

/** A form field's text; a file, or text holding a NUL character (which PostgreSQL refuses), reads as absent. */
export const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" && !v.includes("\u0000") ? v : undefined;
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

/**
 * A console page's answers to its server actions: `back(extra)` is the page's URL with `extra` as query parameters;
 * `attempt(write, extra, codes)` runs a write and sends a refusal back to the page as `error`: a DomainError's or
 * ConsoleRefusal's code, renamed through `codes` when given (then only the codes it names; others are thrown on).
 */
export function resultRedirects(page: string) {
  const back = (extra: Record<string, string>) => `${page}?${new URLSearchParams(extra)}`;
  async function attempt<T>(write: () => Promise<T>, extra: Record<string, string> = {}, codes?: Record<string, string>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      const refused = error instanceof DomainError || error instanceof ConsoleRefusal ? error.code : undefined;
      const code = refused && (codes ? codes[refused] : refused);
      if (code) redirect(back({ ...extra, error: code }));
      throw error;
    }
  }
  return { back, attempt };
}
