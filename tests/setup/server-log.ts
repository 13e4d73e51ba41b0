// What the server under test logged, judged after the run: some lines are only reported, others fail the run.

/** Logged by the pipeline (VALIDATE_RESPONSES=1) when a route answers an error code its declaration does not document. */
export const UNDOCUMENTED_ERROR_CODE = '"msg":"undocumented error code"';

export interface LogVerdict {
  reported: string[];
  failures: string[];
}

export function judgeServerLog(logs: string, o: { reportLine: (line: string) => boolean; failLine?: (line: string) => boolean }): LogVerdict {
  const lines = logs.split("\n");
  return { reported: lines.filter(o.reportLine), failures: o.failLine ? lines.filter(o.failLine) : [] };
}

/** One error naming each distinct failing line (route, method, code), or null when there is none. */
export function failureOf(label: string, failures: string[]): Error | null {
  if (!failures.length) return null;
  const distinct = [
    ...new Set(
      failures.map((l) => {
        try {
          const { route, method, code, summary } = JSON.parse(l) as Record<string, string>;
          return code ? `${method} ${route} (${summary}): ${code}` : l;
        } catch {
          return l;
        }
      }),
    ),
  ];
  return new Error(`${label} logged ${failures.length} line(s) that fail the run:\n  ${distinct.join("\n  ")}`);
}
