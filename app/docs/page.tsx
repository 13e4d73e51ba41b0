import { ROUTES } from "@/app/api/routes.generated";
import { openApiDocument } from "@/lib/operations/openapi/document";
import { Reference } from "./reference";

// The interactive reference (Swagger UI, served from this app's own bundle) of GET /api/openapi.json, with a plain
// list of the operations for readers without JavaScript.
export const dynamic = "force-static";

const DOCUMENT_URL = "/api/openapi.json";

type Doc = { info: { title: string; version: string }; paths: Record<string, Record<string, { summary: string }>> };

export default function Docs() {
  const doc = openApiDocument(ROUTES) as Doc;
  return (
    <>
      <header style={{ maxWidth: 1460, margin: "0 auto", padding: "16px 20px 0", lineHeight: 1.5 }}>
        <h1 style={{ fontSize: 22, margin: "0 0 4px" }}>{doc.info.title} reference</h1>
        <p style={{ margin: 0, fontSize: 14 }}>
          Machine-readable: <a href={DOCUMENT_URL}>{DOCUMENT_URL}</a> (OpenAPI 3.1). To try a call, press <strong>Authorize</strong>, paste a session token
          (locally: <code>npm run token -- user_alice</code>), then <strong>Try it out</strong> on an operation.
        </p>
      </header>
      <noscript>
        <ul style={{ maxWidth: 1460, margin: "0 auto", padding: "16px 40px" }}>
          {Object.entries(doc.paths).flatMap(([path, ops]) =>
            Object.entries(ops).map(([method, op]) => (
              <li key={`${method} ${path}`}>
                <code>
                  {method.toUpperCase()} {path}
                </code>{" "}
                {op.summary}
              </li>
            )),
          )}
        </ul>
      </noscript>
      <Reference url={DOCUMENT_URL} />
    </>
  );
}
