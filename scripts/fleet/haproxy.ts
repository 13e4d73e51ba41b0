import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, portAnswers } from "../../lib/ports";

// HAProxy (Debian's `haproxy` package) in front of the fleet's `next start` instances: one address, requests spread
// round-robin, an instance whose /api/health stops answering taken out of rotation, as a platform's load balancer
// does. It appends the client's address to X-Forwarded-For (one more trusted hop for the instances). Each instance
// takes at most `perInstance` requests at a time; more wait in HAProxy's queue (as a platform queues requests for a
// busy function instance) instead of piling up inside the instance, where they would wait for a pool connection past
// its 5 s and answer 503. Server-sent event streams (paths ending in /stream) hold their connection for minutes: they
// have a backend of their own, without that cap, kept open (timeout tunnel).

const BINARY = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].find((p) => existsSync(p));

export interface Haproxy {
  url: string;
  stop(): Promise<void>;
}

export async function startHaproxy(backends: string[], { perInstance = 32 }: { perInstance?: number } = {}): Promise<Haproxy> {
  if (!BINARY) throw new Error("HAProxy is not installed (apt-get install haproxy)");
  const dir = mkdtempSync(path.join(os.tmpdir(), "fan-haproxy-"));
  const port = await freePort();
  const config = path.join(dir, "haproxy.cfg");
  writeFileSync(
    config,
    [
      "global",
      "  maxconn 9000", // two descriptors a connection: within the 20,000 a process may open here
      "defaults",
      "  mode http",
      "  option forwardfor",
      "  timeout connect 5s",
      "  timeout client 60s",
      "  timeout server 60s",
      "  timeout tunnel 1h",
      "  timeout http-keep-alive 30s",
      "  timeout queue 300s",
      "frontend app",
      `  bind 127.0.0.1:${port}`,
      "  acl stream path_end /stream",
      "  use_backend streams if stream",
      "  default_backend instances",
      "backend instances",
      "  balance roundrobin",
      "  option httpchk GET /api/health",
      ...backends.map((b, i) => `  server app${i + 1} ${new URL(b).host} check inter 2s fall 2 rise 1 maxconn ${perInstance}`),
      "backend streams",
      "  balance roundrobin",
      "  option httpchk GET /api/health",
      ...backends.map((b, i) => `  server app${i + 1} ${new URL(b).host} check inter 2s fall 2 rise 1`),
      "",
    ].join("\n"),
  );
  const child: ChildProcess = spawn(BINARY, ["-db", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
  let output = "";
  child.stderr!.on("data", (d) => (output += d));
  for (let i = 0; i < 100 && !(await portAnswers(port)) && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
  if (!(await portAnswers(port))) {
    child.kill("SIGKILL");
    throw new Error(`HAProxy did not start on port ${port}: ${output.slice(-500)}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => setTimeout(r, 100));
      if (child.exitCode === null) child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
