export default function Home() {
  return (
    <main style={{ padding: 32 }}>
      <h1>Fan Engagement API</h1>
      <p>
        The API lives under <code>/api</code>. Read the <a href="/docs">reference</a> or fetch <a href="/api/openapi.json">/api/openapi.json</a>.
      </p>
    </main>
  );
}
