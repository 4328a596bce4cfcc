// Loads the wasm module `cargo xtask web` builds into ./pkg and runs the demo on this page's WebGPU.
import init, { runDemo } from './pkg/wgconv_web_example.js';

const status = document.getElementById('status');
const button = document.getElementById('run');
const table = document.getElementById('results');

const cell = (row, text, className) => {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
};

async function run() {
  const size = Number(document.getElementById('size').value);
  button.disabled = true;
  status.textContent = `Running on a ${size}×${size} image…`;
  try {
    const { text, report } = JSON.parse(await runDemo(size));
    console.log(text);
    status.textContent = report.adapter;
    const body = table.tBodies[0];
    body.replaceChildren();
    for (const layer of report.layers) {
      const row = body.insertRow();
      cell(row, layer.name);
      cell(row, `[${layer.input_shape}] → [${layer.output_shape}]`);
      cell(row, layer.kernel);
      cell(row, `${layer.first_call_ms.toFixed(1)} ms`);
      cell(row, `${layer.gpu_ms.toFixed(3)} ms (${layer.timing_source})`);
      cell(row, `${layer.max_abs_error.toExponential(2)}: ${layer.error}`);
      cell(row, layer.passed ? 'ok' : 'FAILED', layer.passed ? 'ok' : 'failed');
    }
    table.hidden = false;
  } catch (error) {
    status.textContent = `Failed: ${error}`;
    status.className = 'failed';
  } finally {
    button.disabled = false;
  }
}

if (!navigator.gpu) {
  status.textContent = 'This browser has no WebGPU (navigator.gpu): try a recent Chrome, Edge or Firefox.';
  status.className = 'failed';
} else {
  await init();
  status.textContent = 'Ready.';
  button.disabled = false;
  button.addEventListener('click', run);
}
