// Runs an async export of a wasm-bindgen module (built with `--target web`) under Dawn in node,
// with Dawn installed as the page's `navigator.gpu`. The export resolves to JSON
// `{ "passed": bool, "text": "...", ... }`: the text is printed, and the exit status is 0 only
// when it passed; 124 when it has not settled within WASM_TIMEOUT_S seconds (default 900), so a
// hang fails instead of stalling CI. `cargo xtask web` and `cargo xtask web-test` run it
// through run.sh.
//
// Usage: node run_wasm.mjs MODULE.js EXPORT [ARGUMENT...]
// Arguments that are whole numbers are passed as numbers, the others as strings.
// DAWN_OPTIONS: Dawn's node options, separated by spaces (an option may hold commas, e.g.
// `enable-dawn-features=disable_robustness,skip_validation`, or `backend=opengles`).
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { create, globals } from 'webgpu';

const [modulePath, exportName, ...rawArgs] = process.argv.slice(2);
const args = rawArgs.map((a) => (/^\d+$/.test(a) ? Number(a) : a));
const timeoutS = Number(process.env.WASM_TIMEOUT_S ?? 900);
setTimeout(() => {
  console.error(`${exportName} did not settle within ${timeoutS} s`);
  process.exit(124);
}, timeoutS * 1000).unref();

Object.assign(globalThis, globals);
// wgpu finds the GPU as a page does: `Window` (or `WorkerGlobalScope`) must exist, then it reads
// `navigator.gpu`. Node 21+ has a `navigator` (without `gpu`), node 20 none.
globalThis.Window ??= class Window {};
const gpu = create((process.env.DAWN_OPTIONS ?? '').split(/\s+/).filter(Boolean));
if (globalThis.navigator) {
  Object.defineProperty(globalThis.navigator, 'gpu', { value: gpu, configurable: true });
} else {
  Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true });
}

const started = performance.now();
const module = await import(pathToFileURL(modulePath).href);
await module.default({ module_or_path: fs.readFileSync(modulePath.replace(/\.js$/, '_bg.wasm')) });
let result;
try {
  result = JSON.parse(await module[exportName](...args));
} catch (error) {
  console.error(`${exportName} failed: ${error?.stack ?? error}`);
  process.exit(1);
}
console.log(result.text);
const shown = rawArgs.map((a) => (a.length > 40 ? `${a.slice(0, 37)}...` : a)).join(', ');
console.log(`(${exportName}(${shown}) under Dawn in node: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
process.exit(result.passed ? 0 : 1);
