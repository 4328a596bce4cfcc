// Loads the wasm module `cargo xtask web` builds into ./pkg and runs the demo on this page's WebGPU.
const status = document.getElementById('status');
const button = document.getElementById('run');
const table = document.getElementById('results');
const sizeInput = document.getElementById('size');

const show = (text, failed = false) => {
  status.textContent = text;
  status.className = failed ? 'failed' : '';
};

const cell = (row, text, className) => {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
};

// A panic in the wasm module rejects nothing: it traps. Say so instead of waiting forever.
const onFailure = (error) => {
  show(`Failed: ${error?.message ?? error} (see the console)`, true);
  button.disabled = false;
};
window.addEventListener('unhandledrejection', (event) => onFailure(event.reason));
window.addEventListener('error', (event) => onFailure(event.error ?? event.message));

async function run(runDemo) {
  const size = Number(sizeInput.value);
  if (!Number.isInteger(size) || size < Number(sizeInput.min) || size > Number(sizeInput.max)) {
    show(`The image size must be a whole number from ${sizeInput.min} to ${sizeInput.max}.`, true);
    return;
  }
  button.disabled = true;
  show(`Running on a ${size}×${size} image…`);
  try {
    const { text, report } = JSON.parse(await runDemo(size));
    console.log(text);
    show(report.adapter);
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
    onFailure(error);
  } finally {
    button.disabled = false;
  }
}

if (!navigator.gpu) {
  show('This browser has no WebGPU (navigator.gpu): try a recent Chrome or Edge.', true);
} else {
  try {
    const { default: init, runDemo } = await import('./pkg/wgconv_web_example.js');
    await init();
    show('Ready.');
    button.disabled = false;
    button.addEventListener('click', () => run(runDemo));
  } catch (error) {
    show(`Could not load ./pkg/wgconv_web_example.js (${error}): build it with \`cargo xtask web\`.`, true);
  }
}
