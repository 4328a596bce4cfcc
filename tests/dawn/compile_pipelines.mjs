// Compiles, with Dawn, every compute pipeline listed in a JSON file written by
// tests/tests/dawn_portability.rs: [{ "shader": "shaders/x.wgsl", "entry": "main",
// "constants": { "name": 1.0, ... } }, ...], WGSL read from the repository. Prints one line per
// failure and a summary; exits 1 when Dawn (Tint) rejects a shader or a pipeline.
//
// Usage: node compile_pipelines.mjs PIPELINES.json REPOSITORY_ROOT
import fs from 'node:fs';
import path from 'node:path';
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);
const [listPath, root] = process.argv.slice(2);
const pipelines = JSON.parse(fs.readFileSync(listPath, 'utf8'));

const gpu = create([]);
const adapter = await gpu.requestAdapter();
if (!adapter) {
  console.error('dawn: no adapter (is VK_DRIVER_FILES pointing at Mesa 25 lavapipe? see tests/dawn/setup.sh)');
  process.exit(2);
}
// The adapter's limits, as wgconv's Context requests them; pipelines planned at WebGPU's default
// limits fit those too.
const requiredLimits = {};
for (const key of ['maxComputeWorkgroupStorageSize', 'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX', 'maxComputeWorkgroupSizeY', 'maxStorageBufferBindingSize',
  'maxBufferSize', 'maxComputeWorkgroupsPerDimension']) {
  requiredLimits[key] = adapter.limits[key];
}
// The f16 variants (`enable f16;`) need shader-f16, as wgconv's Context asks for it; without it
// they fail here, which is the point: every shipped shader must compile.
const requiredFeatures = adapter.features.has('shader-f16') ? ['shader-f16'] : [];
const device = await adapter.requestDevice({ requiredLimits, requiredFeatures });
const info = adapter.info;
console.log(`dawn: ${info.description || info.device} (${info.vendor}), ${pipelines.length} pipelines`);

const failures = [];
// Pipelines that failed, by index: a rejected shader fails every pipeline of it, and a pipeline
// that both throws and leaves a scope error counts once.
const failed = new Set();
const modules = new Map();
for (const shader of new Set(pipelines.map((p) => p.shader))) {
  const code = fs.readFileSync(path.join(root, shader), 'utf8');
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ label: shader, code });
  const messages = (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
  const scope = await device.popErrorScope();
  if (messages.length > 0 || scope) {
    const text = messages.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('; ') || scope.message;
    failures.push(`${shader}: ${text}`);
    pipelines.forEach((p, i) => { if (p.shader === shader) failed.add(i); });
    continue;
  }
  modules.set(shader, module);
}
for (const [i, p] of pipelines.entries()) {
  const module = modules.get(p.shader);
  if (!module) continue;
  device.pushErrorScope('validation');
  try {
    await device.createComputePipelineAsync({
      label: `${p.shader}:${p.entry}`,
      layout: 'auto',
      compute: { module, entryPoint: p.entry, constants: p.constants },
    });
  } catch (e) {
    failures.push(`${p.shader} ${p.entry} ${JSON.stringify(p.constants)}: ${e.message}`);
    failed.add(i);
  }
  const scope = await device.popErrorScope();
  if (scope) {
    failures.push(`${p.shader} ${p.entry} ${JSON.stringify(p.constants)}: ${scope.message}`);
    failed.add(i);
  }
}
for (const f of failures) console.error(`dawn rejected ${f}`);
console.log(`dawn: ${pipelines.length - failed.size} of ${pipelines.length} pipelines compiled`);
device.destroy();
process.exit(failures.length === 0 ? 0 : 1);
