// Shared start of the scripts that run Python in Pyodide under Node
// (run_tests.mjs, run_bench.mjs): importing this module first makes sure
// WebAssembly stack switching is on, and names the repo's folders.
//
// Pyodide needs stack switching (JSPI) for run_until_complete / asyncio.run.
// Node 20 has it behind a V8 flag: this re-runs the importing script with the
// flag when the running node supports it but it is not on.
import path from "node:path";
import { fileURLToPath } from "node:url";

if (typeof WebAssembly.Suspender === "undefined" && typeof WebAssembly.Suspending === "undefined"
    && !process.env.TESSERA_JSPI_REEXEC) {
  const { spawnSync } = await import("node:child_process");
  const v8opts = spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8" }).stdout || "";
  const flag = ["--experimental-wasm-jspi", "--experimental-wasm-stack-switching"]
    .find((f) => v8opts.includes(f.slice(2) + " "));
  if (flag) {
    const r = spawnSync(process.execPath, [flag, ...process.execArgv, ...process.argv.slice(1)],
      { stdio: "inherit", env: { ...process.env, TESSERA_JSPI_REEXEC: "1" } });
    process.exit(r.status === null ? 1 : r.status);
  }
}

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const pyodideDir = path.join(repo, "node_modules", "pyodide");
