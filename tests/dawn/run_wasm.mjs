// Runs an async export of a wasm-bindgen module (built with `--target web`) under Dawn in node,
// with Dawn installed as the page's `navigator.gpu`. The export resolves to JSON
// `{ "passed": bool, "text": "...", ... }`: the text is printed, and the exit status is 0 only
// when it passed. `cargo xtask web` and `cargo xtask web-test` run it through run.sh.
//
// Usage: node run_wasm.mjs MODULE.js EXPORT [ARGUMENT...]
// DAWN_OPTIONS: Dawn's node options, comma-separated (e.g. `backend=opengles` or
// `enable-dawn-features=disable_robustness`); none by default.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { create, globals } from 'webgpu';

const [modulePath, exportName, ...args] = process.argv.slice(2);
Object.assign(globalThis, globals);
// wgpu finds the GPU as a page does: `Window` (or `WorkerGlobalScope`) must exist, then it reads
// `navigator.gpu`. Node 21+ defines `navigator` (without `gpu`); node 20 does not.
globalThis.Window ??= class Window {};
Object.defineProperty(globalThis, 'navigator', {
  value: { ...(globalThis.navigator ?? {}), gpu: create((process.env.DAWN_OPTIONS ?? '').split(',').filter(Boolean)) },
  configurable: true,
});

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
const shown = args.map((a) => (a.length > 40 ? `${a.slice(0, 37)}...` : a)).join(', ');
console.log(`(${exportName}(${shown}) under Dawn in node: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
process.exit(result.passed ? 0 : 1);
