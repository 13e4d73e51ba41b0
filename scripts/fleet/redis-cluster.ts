import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort, portAnswers } from "../../lib/ports";

// A local Redis Cluster of N masters and no replicas, from Debian's `redis-server` and `redis-cli` (package
// redis-server): for `npm run fleet --redis-cluster` and the fleet tests (docs/decisions/0073-redis-cluster.md).
// Nothing is persisted: every node runs in a scratch directory that stop() removes.

const run = promisify(execFile);

export interface RedisCluster {
  /** The masters, as REDIS_CLUSTER_NODES takes them: "127.0.0.1:<port>". */
  nodes: string[];
  stop(): Promise<void>;
}

const HOST = "127.0.0.1";

/** Starts `masters` (default 3) cluster-enabled redis-servers on free ports, joins them into one cluster, waits for cluster_state:ok. */
export async function startRedisCluster(opts: { masters?: number } = {}): Promise<RedisCluster> {
  const masters = opts.masters ?? 3;
  if (masters < 3) throw new Error("redis-cli --cluster create needs at least 3 masters");
  const dir = mkdtempSync(path.join(os.tmpdir(), "fan-redis-cluster-"));
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      // The cluster bus port is the client port + 10000 unless set: an ephemeral port + 10000 may not exist, so each
      // node gets its own free bus port too.
      const [port, bus] = [await freePort(), await freePort()];
      ports.push(port);
      const child = spawn(
        "redis-server",
        [
          ...["--port", String(port), "--bind", HOST, "--cluster-enabled", "yes", "--cluster-port", String(bus)],
          ...["--cluster-config-file", path.join(dir, `nodes-${port}.conf`), "--dir", dir, "--save", "", "--appendonly", "no"],
          ...["--logfile", path.join(dir, `redis-${port}.log`), "--cluster-node-timeout", "5000"],
        ],
        { stdio: "ignore" },
      );
      children.push(child);
    }
    for (const port of ports) {
      for (let i = 0; i < 100 && !(await portAnswers(port)); i++) await new Promise((r) => setTimeout(r, 50));
      if (!(await portAnswers(port))) throw new Error(`redis-server did not start on port ${port}: ${tail(path.join(dir, `redis-${port}.log`))}`);
    }
    const nodes = ports.map((p) => `${HOST}:${p}`);
    await run("redis-cli", ["--cluster", "create", ...nodes, "--cluster-replicas", "0", "--cluster-yes"], { timeout: 30_000 });
    await clusterOk(ports, 30_000);
    return { nodes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Waits until every node reports cluster_state:ok (the slots assigned and every node agreeing). */
async function clusterOk(ports: number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await Promise.all(
      ports.map(async (p) => (await run("redis-cli", ["-h", HOST, "-p", String(p), "cluster", "info"])).stdout.match(/cluster_state:(\w+)/)?.[1]),
    );
    if (states.every((s) => s === "ok")) return;
    if (Date.now() > deadline) throw new Error(`Redis Cluster not ok after ${timeoutMs} ms: ${states.join(", ")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, "utf8").slice(-500);
  } catch {
    return "(no log)";
  }
}
