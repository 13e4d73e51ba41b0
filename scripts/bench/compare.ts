// BENCH_COMPARE_DIST_DIR: GET /api/health on NEXT_DIST_DIR's build and a second one in alternating rounds
// (BENCH_ROUNDS, both servers up throughout), each build's throughput and CPU time per request as shares of the other's.
import { CONNECTIONS, DURATION, measure, median, pad } from "./common";
import { startServer } from "./server";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Measures both builds, prints the comparison and ends the process. */
export async function compareBuilds(distDir: string, compareDir: string, publicKey: string): Promise<never> {
  const builds = [
    { dir: distDir, ...(await startServer(distDir, publicKey)), rps: [] as number[], cpu: [] as number[] },
    { dir: compareDir, ...(await startServer(compareDir, publicKey)), rps: [] as number[], cpu: [] as number[] },
  ];
  console.log(`\nbench: GET /api/health, ${DURATION}s per round, ${CONNECTIONS} connections, builds alternating\n`);
  console.log(`${"round".padEnd(7)}${"build".padEnd(24)}${pad("req/s", 10)}${pad("p50 ms", 9)}${pad("p99 ms", 9)}${pad("CPU µs/req", 12)}${pad("errors", 8)}`);
  let errors = 0;
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const b of round % 2 ? builds : [...builds].reverse()) {
        const r = await measure("GET /api/health", b.pid, { url: `${b.base}/api/health` });
        b.rps.push(r.rps);
        b.cpu.push(r.cpuUs);
        errors += r.errors;
        console.log(
          `${String(round).padEnd(7)}${b.dir.padEnd(24)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50, 9)}${pad(r.p99, 9)}${pad(r.cpuUs.toFixed(0), 12)}${pad(r.errors, 8)}`,
        );
      }
    }
  } finally {
    for (const b of builds) b.stop();
  }
  const [a, b] = builds as [(typeof builds)[0], (typeof builds)[0]];
  // Each round's two measurements are back to back, so their ratio cancels most of the load other processes add.
  const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
  for (const [what, key] of [
    ["throughput", "rps"],
    ["CPU per request", "cpu"],
  ] as const) {
    const ratios = a[key].map((x, i) => x / b[key][i]!);
    console.log(`\n${what}: median ${a.dir} ${median(a[key]).toFixed(0)}, ${b.dir} ${median(b[key]).toFixed(0)}`);
    console.log(`  ${a.dir} / ${b.dir} per round: ${ratios.map(percent).join(", ")}`);
    console.log(`  median of the per-round ratios: ${percent(median(ratios))} (range ${percent(Math.min(...ratios))}–${percent(Math.max(...ratios))})`);
  }
  if (errors > 0) console.log("errors were recorded: the figures above are not valid");
  process.exit(errors > 0 ? 1 : 0);
}
