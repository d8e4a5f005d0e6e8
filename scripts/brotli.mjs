// Brotli at its strongest, for scripts/build_site.py (the build's Python is
// the system's, which has no brotli module; Node's zlib has one):
//   node scripts/brotli.mjs OUT < IN
// Quality 11 with a 16 MB window (the largest standard one: the snapshot's
// 17 MB nearly fit, and a larger, non-standard window came out 14 bytes larger).
import { readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

const plain = readFileSync(0);
writeFileSync(process.argv[2], brotliCompressSync(plain, {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 11,
    [constants.BROTLI_PARAM_LGWIN]: 24,
    [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
  },
}));
