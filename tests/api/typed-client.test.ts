import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, newUser } from "../helpers";

// A client generated from the served document, as an app team would make one (openapi-typescript + openapi-fetch):
// the generated types must accept the calls a client makes and refuse the mistakes it must not make, and the same
// typed calls must work against the server.

// Compiled with the generated `paths`; every `@ts-expect-error` line must be an error, else tsc reports the directive.
const CLIENT = `
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./api";

type Team = components["schemas"]["Team"];
export type Api = Client<paths>;

export const client = (baseUrl: string, headers: Record<string, string> = {}): Api => createClient<paths>({ baseUrl, headers });

export async function searchTeams(api: Api, limit: number): Promise<Team[]> {
  const { data, error, response } = await api.GET("/api/teams/search", { params: { query: { limit, sort: "name" } } });
  if (error) throw new Error(\`search: \${response.status} \${error.error.code}\`);
  return data.data.teams;
}

export async function teamName(api: Api, id: string): Promise<string> {
  const { data, error, response } = await api.GET("/api/teams/{id}", { params: { path: { id } } });
  if (error) throw new Error(\`team: \${response.status} \${error.error.code}\`);
  return data.team.name;
}

export async function openTicket(api: Api, subject: string, message: string): Promise<{ subject: string; status: string; body: string }> {
  const { data, error, response } = await api.POST("/api/user/support/tickets", { body: { subject, message } });
  if (error) throw new Error(\`ticket: \${response.status} \${error.error.code}\`);
  return { subject: data.data.ticket.subject, status: data.data.ticket.status, body: data.data.message.body };
}

export async function badLimit(api: Api): Promise<{ status: number; code: string | undefined }> {
  const { error, response } = await api.GET("/api/teams/search", { params: { query: { limit: 0 } } });
  return { status: response.status, code: error?.error.code };
}

export function mistakes(api: Api): void {
  // @ts-expect-error limit is an integer, not a string
  void api.GET("/api/teams/search", { params: { query: { limit: "10" } } });
  // @ts-expect-error sort is one of rank, name, fans
  void api.GET("/api/teams/search", { params: { query: { sort: "newest" } } });
  // @ts-expect-error the path parameter id is required
  void api.GET("/api/teams/{id}", { params: { path: {} } });
  // @ts-expect-error a path with a parameter needs params
  void api.GET("/api/teams/{id}");
  // @ts-expect-error opponentId is a required query parameter
  void api.GET("/api/teams/{id}/head-to-head", { params: { path: { id: "t" }, query: {} } });
  // @ts-expect-error the body needs a message
  void api.POST("/api/user/support/tickets", { body: { subject: "Cannot open my pack" } });
  // @ts-expect-error no such path
  void api.GET("/api/no-such-path");
}

export async function wrongResponseType(api: Api): Promise<void> {
  const { data } = await api.GET("/api/teams/search", { params: { query: {} } });
  // @ts-expect-error teams are objects, not strings
  const names: string[] | undefined = data?.data.teams;
  void names;
}
`;

// What the test reads from the compiled module (its own types are checked by the compiler above).
interface TypedClient {
  client(baseUrl: string, headers?: Record<string, string>): unknown;
  searchTeams(api: unknown, limit: number): Promise<{ id: string; name: string }[]>;
  teamName(api: unknown, id: string): Promise<string>;
  openTicket(api: unknown, subject: string, message: string): Promise<{ subject: string; status: string; body: string }>;
  badLimit(api: unknown): Promise<{ status: number; code: string | undefined }>;
}

let dir: string;
let clientFile: string;

beforeAll(async () => {
  const res = await fetch(`${baseUrl}/api/openapi.json`);
  expect(res.status).toBe(200);
  const types = astToString(await openapiTS((await res.json()) as Parameters<typeof openapiTS>[0]));
  dir = mkdtempSync(path.join(tmpdir(), "typed-client-"));
  // The generated files resolve openapi-fetch from this project, for the compiler and for the import below.
  symlinkSync(path.join(process.cwd(), "node_modules"), path.join(dir, "node_modules"), "dir");
  writeFileSync(path.join(dir, "api.d.ts"), types);
  clientFile = path.join(dir, "client.ts");
  writeFileSync(clientFile, CLIENT);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("typed client generated from /api/openapi.json", () => {
  it("type-checks the calls a client makes and refuses a string limit, a missing required parameter and a wrong body", () => {
    const program = ts.createProgram([clientFile], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
      types: [],
      skipLibCheck: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          ts.flattenDiagnosticMessageText(d.messageText, "\n") +
          (d.file && d.start !== undefined ? ` (${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1})` : ""),
      );
    expect(diagnostics).toEqual([]);
  });

  it("the typed calls work against the server", async () => {
    const client = (await import(pathToFileURL(clientFile).href)) as TypedClient;
    const anonymous = client.client(baseUrl);

    const teams = await client.searchTeams(anonymous, 2);
    expect(teams.length).toBe(2);
    expect(await client.teamName(anonymous, teams[0]!.id)).toBe(teams[0]!.name);
    expect(await client.badLimit(anonymous)).toEqual({ status: 400, code: "VALIDATION_ERROR" });

    const { auth } = newUser();
    const ticket = await client.openTicket(client.client(baseUrl, auth), "Typed client ticket", "Sent through openapi-fetch.");
    expect(ticket).toEqual({ subject: "Typed client ticket", status: "open", body: "Sent through openapi-fetch." });
  });
});
