import { openApiDocument } from "@/lib/openapi/document";

// A readable reference rendered on the server from the OpenAPI document (no client script, no CDN).
export const dynamic = "force-static";

type Op = {
  summary: string;
  description?: string;
  "x-auth": string;
  parameters?: { name: string; in: string; required: boolean; description?: string }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { description: string }>;
  deprecated?: boolean;
};

const AUTH_LABEL: Record<string, string> = { public: "Public", bearer: "Bearer", optional: "Optional", admin: "Admin" };

export default function Docs() {
  const doc = openApiDocument() as { info: { title: string; version: string; description: string }; paths: Record<string, Record<string, Op>> };
  return (
    <main style={{ maxWidth: 960, margin: "0 auto", padding: 32, lineHeight: 1.5 }}>
      <h1>
        {doc.info.title} <small style={{ color: "#666" }}>v{doc.info.version}</small>
      </h1>
      <p>{doc.info.description}</p>
      <p>
        Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>
      </p>
      {Object.entries(doc.paths).map(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => (
          <section key={`${method} ${path}`} id={`${method}-${path}`} style={{ borderTop: "1px solid #ddd", padding: "16px 0" }}>
            <h2 style={{ fontSize: 18, margin: 0 }}>
              <code style={{ background: "#eef", padding: "2px 6px", borderRadius: 4 }}>{method.toUpperCase()}</code> <code>{path}</code>{" "}
              <span style={{ fontSize: 13, color: "#555" }}>· {AUTH_LABEL[op["x-auth"]] ?? op["x-auth"]}</span>
              {op.deprecated ? <span style={{ color: "#a00" }}> · deprecated</span> : null}
            </h2>
            <p style={{ margin: "4px 0" }}>
              <strong>{op.summary}</strong>
            </p>
            {op.description ? <p style={{ margin: "4px 0" }}>{op.description}</p> : null}
            {op.parameters?.length ? (
              <ul>
                {op.parameters.map((p) => (
                  <li key={p.in + p.name}>
                    <code>{p.name}</code> ({p.in}
                    {p.required ? ", required" : ""}){p.description ? ` — ${p.description}` : ""}
                  </li>
                ))}
              </ul>
            ) : null}
            {op.requestBody ? (
              <details>
                <summary>Request body</summary>
                <pre style={{ background: "#f6f6f6", padding: 8, overflowX: "auto" }}>
                  {JSON.stringify(Object.values(op.requestBody.content)[0]?.schema, null, 2)}
                </pre>
              </details>
            ) : null}
            <ul>
              {Object.entries(op.responses).map(([status, r]) => (
                <li key={status}>
                  <code>{status}</code> {r.description}
                </li>
              ))}
            </ul>
          </section>
        )),
      )}
    </main>
  );
}
