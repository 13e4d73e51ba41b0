import http from "node:http";
import type { AddressInfo } from "node:net";

// What the local provider stand-ins (Stripe, the App Store, Google Play) share: an HTTP server on 127.0.0.1 that
// hands each request its whole body as text (a handler that throws answers 500 with the message), closed with its open
// connections, and a JSON answer.

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export async function serveStandIn(
  port: number | undefined,
  handle: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => Promise<unknown>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      handle(req, res, Buffer.concat(chunks).toString("utf8")).catch((error: Error) => sendJson(res, 500, { error: error.message }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port ?? 0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
