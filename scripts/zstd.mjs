// Zstandard for scripts/build_site.py, by Pyodide's own Python (its
// compression.zstd: the build's Python is the system's, without one, and
// Node's zlib has none before Node 22):
//   node scripts/zstd.mjs OUT < IN
// Level 19 (22 made tessera.zip's frame 10 bytes larger) with a 1 MB window
// (the page's decoder holds a window as large while it inflates, and wasm
// memory never shrinks: 8 MB, level 19's own, made 668.6 KB instead of
// 673.7).  The page inflates it with the same module
// (assets/js/pyodide-snapshot.mjs, READ_ZIP), which reads the zip's local
// headers as it inflates: the frame's checksum (4 bytes) covers their names.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { readFileSync, writeFileSync } from "node:fs";

const plain = readFileSync(0);
const pyodide = await loadPyodide();
pyodide.FS.writeFile("/plain", plain);
pyodide.runPython(`
from compression import zstd
with open("/plain", "rb") as plain, open("/framed", "wb") as framed:
    parameter = zstd.CompressionParameter
    options = {parameter.compression_level: 19, parameter.window_log: 20, parameter.checksum_flag: 1}
    framed.write(zstd.compress(plain.read(), options=options))
`);
writeFileSync(process.argv[2], pyodide.FS.readFile("/framed"));
