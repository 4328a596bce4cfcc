{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 #}
{% set rows = 4 %}{# output rows per thread #}
{% set quads = 2 %}{# vec4s of output channels per thread: 8 channels #}
{% set chunk = 4 %}{# input channels per staged chunk #}
{% set lanes = 32 %}{# tile columns: one per lane of a warp #}
{% set warps = 4 %}{# warps per workgroup #}
{% set max_row_warps = 2 %}{# warps down the tile's rows at the fewest output channels #}
{% set in_w = lanes + 2 %}{# a 3×3 filter's input columns for the tile's #}
{% set in_h = rows * max_row_warps + 2 %}{# and rows, at the tallest tile #}
{% set XYZW = ["x", "y", "z", "w"] %}
{% set slots = chunk * in_h // warps %}{# input rows a warp stages per chunk, at most #}
{% set wslots = (chunk * 9 * warps * quads + warps * lanes - 1) // (warps * lanes) %}{# weight vec4s a thread stages per chunk, at most (at the widest tile) #}
{#
  Global → registers: input channels c0..c0 + 3's staged values that this thread copies. The
  chunk's input rows go a warp per row (slot): lane x copies column x, lanes 0 and 1 also columns
  32 and 33; zeros outside the image (padding) and past the last channel. Its weights: the
  chunk's vec4s (tap k of 4 output channels) local, local + 128, ...; zeros past the last
  channel in or out. Whole vec4s a thread: WGSL lets a store to one component of a vector
  access the whole vector, so threads storing components of one vector would race.
#}
{% macro load_chunk(c0) %}
{% filter trim("\n") %}
{% for s in range(slots) %}
        {
            let slot = warp + {{ warps * s }}u;
            let c = slot / in_rows;
            let iy = iy_origin + i32(slot % in_rows);
            let row_ok = slot < TILED_CHUNK * in_rows && {{ c0 }} + c < params.ic && u32(iy) < params.ih;
            let row_at = image_at + ({{ c0 }} + c) * input_plane + u32(iy) * params.iw;
            next_in_{{ s }}_0 = 0.0;
            if (row_ok && u32(ix_lane) < params.iw) {
                next_in_{{ s }}_0 = {{ to_f32 }}(input[row_at + u32(ix_lane)]);
            }
            next_in_{{ s }}_1 = 0.0;
            if (row_ok && lane < TILED_IN_W - TILED_LANES && u32(ix_lane + {{ lanes }}) < params.iw) {
                next_in_{{ s }}_1 = {{ to_f32 }}(input[row_at + u32(ix_lane + {{ lanes }})]);
            }
        }
{% endfor %}
{% for j in range(wslots) %}
        {
            let e = local + {{ j * warps * lanes }}u;
            let k = e / tile_quads;
            let oc = oc0 + e % tile_quads * 4u;
            let ok = e < TILED_CHUNK * 9u * tile_quads && {{ c0 }} + k / 9u < params.ic;
            let at = oc * params.ic * 9u + {{ c0 }} * 9u + k;
            next_w_{{ j }} = vec4<f32>(0.0);
{% for jj in range(4) %}
            if (ok && oc + {{ jj }}u < params.oc) {
                next_w_{{ j }}.{{ XYZW[jj] }} = {{ to_f32 }}(weight[at + {{ jj }}u * params.ic * 9u]);
            }
{% endfor %}
        }
{% endfor %}
{% endfilter %}
{% endmacro %}
{# Registers → workgroup memory: this thread's share of the chunk (vec4 e of the weights is tap
   e / (tile channels / 4) of output channels 4 · (e % (tile channels / 4)) + 0..3). #}
{% macro store_chunk() %}
{% filter trim("\n") %}
{% for s in range(slots) %}
        {
            let slot = warp + {{ warps * s }}u;
            if (slot < TILED_CHUNK * in_rows) {
                let at = (slot / in_rows * TILED_IN_H + slot % in_rows) * TILED_IN_W + lane;
                tile_input[at] = next_in_{{ s }}_0;
                if (lane < TILED_IN_W - TILED_LANES) {
                    tile_input[at + TILED_LANES] = next_in_{{ s }}_1;
                }
            }
        }
{% endfor %}
{% for j in range(wslots) %}
        {
            let e = local + {{ j * warps * lanes }}u;
            if (e < TILED_CHUNK * 9u * tile_quads) {
                tile_weights[e] = next_w_{{ j }};
            }
        }
{% endfor %}
{% endfilter %}
{% endmacro %}
// Direct 3×3 convolution (stride 1, dilation 1, one group, any padding) from input tiles staged
// in workgroup memory. A workgroup of {{ warps }} warps computes a tile of {{ lanes }} output columns (one per
// lane) × {{ rows * max_row_warps }} rows × {{ 2 * quads * 4 }} output channels ({{ max_row_warps }} warps down the rows, 2 across the
// channels; `oc_warps` = 2) or {{ rows }} rows × {{ warps * quads * 4 }} channels (`oc_warps` = {{ warps }}) of one image; each thread
// computes {{ rows }} consecutive rows of its column for {{ quads * 4 }} output channels. Per staged input
// channel a thread reads the {{ rows + 2 }} × 3 input values its rows' 9 taps share (each feeds up to 3
// rows' taps from a register), and for each tap the same {{ quads }} vec4s of weights as its warp (one
// broadcast read each): {{ 9 * rows * quads * 4 }} multiply-adds per {{ 3 * (rows + 2) + 9 * quads }} workgroup-memory reads, where an
// implicit GEMM's im2col tile stages each input value once per tap and, at 32 output channels,
// shares it over a 32-row tile only. The next chunk of {{ chunk }} input channels is loaded into registers
// during this chunk's multiply-adds and stored to workgroup memory after them (v55 call A: loading
// it after the multiply-adds instead ran 0.44–0.86× as fast). {{ quads * 4 }} channels a thread, not 16,
// doubles the threads of a layer (v55 call B: 1.5× in geomean over 133 layers; 128 registers a
// thread, against 168). For layers of few output channels on large grids (ESRGAN's and DenseNet's
// growth layers into 32 channels), where the GEMM tiles' staging, not the multiply-adds, sets the
// pace.
// Tensors are {{ io }} (the output {{ out }}); the arithmetic is f32.

{% if io == "f16" or out == "f16" %}
enable f16;

{% endif %}
{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<{{ io }}>;
@group(0) @binding(1) var<storage, read> weight: array<{{ io }}>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
@group(0) @binding(3) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(4) var<uniform> params: ConvParams;

// Warps of the workgroup across its output channels: 2 (tiles of {{ rows * max_row_warps }} rows × {{ 2 * quads * 4 }} channels) or {{ warps }}
// ({{ rows }} rows × {{ warps * quads * 4 }} channels); the others go down the rows.
override oc_warps: u32 = 2;
{{ conv.spec_overrides(3, 1) }}
{{ conv.activation_overrides() }}

{{ conv.activate(vec4=true) }}

// Threads per workgroup: TILED_WARPS warps of TILED_LANES.
const TILED_WORKGROUP: u32 = {{ warps * lanes }}u;
// Warps per workgroup.
const TILED_WARPS: u32 = {{ warps }}u;
// Output columns per tile: one per lane.
const TILED_LANES: u32 = {{ lanes }}u;
// Output rows per thread.
const TILED_ROWS: u32 = {{ rows }}u;
// Output channels per thread.
const TILED_THREAD_OC: u32 = {{ quads * 4 }}u;
// Input channels per staged chunk.
const TILED_CHUNK: u32 = {{ chunk }}u;
// A staged channel's input: columns and (at the tallest tile) rows, the filter's halo included.
const TILED_IN_W: u32 = {{ in_w }}u;
const TILED_IN_H: u32 = {{ in_h }}u;
// The most output channels per tile (`oc_warps` = 4).
const TILED_MAX_OC: u32 = {{ warps * quads * 4 }}u;

// The chunk's input: channel c's row r, column x at (c · TILED_IN_H + r) · TILED_IN_W + x.
var<workgroup> tile_input: array<f32, {{ chunk * in_h * in_w }}>;
// The chunk's weights: channel c's tap t for the tile's output channels 4·q..4·q+3 is the vec4
// (c · 9 + t) · (tile channels / 4) + q.
var<workgroup> tile_weights: array<vec4<f32>, {{ chunk * 9 * warps * quads }}>;

@compute @workgroup_size(TILED_WORKGROUP)
fn conv2d_tiled(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // Workgroup-uniform: (image, tile row, tile column, output-channel block), the block fastest,
    // so the blocks of one tile run together and share its input through the L2 cache.
    let workgroup = wid.y * groups.x + wid.x;
    let row_warps = TILED_WARPS / oc_warps;
    let tile_h = TILED_ROWS * row_warps;
    let tile_oc = TILED_THREAD_OC * oc_warps;
    let tile_quads = tile_oc / 4u;
    let oc_blocks = (params.oc + tile_oc - 1u) / tile_oc;
    let tiles_x = (params.ow + TILED_LANES - 1u) / TILED_LANES;
    let tiles_y = (params.oh + tile_h - 1u) / tile_h;
    let oc0 = workgroup % oc_blocks * tile_oc;
    let tile = workgroup / oc_blocks;
    let ox0 = tile % tiles_x * TILED_LANES;
    let oy0 = tile / tiles_x % tiles_y * tile_h;
    let image = tile / tiles_x / tiles_y;
    if (image >= params.n) {
        return;
    }
    let lane = local % TILED_LANES;
    let warp = local / TILED_LANES;
    // This thread's first row within the tile and first vec4 of the tile's output channels.
    let row0 = warp / oc_warps * TILED_ROWS;
    let quad0 = warp % oc_warps * {{ quads }}u;
    // The tile's input starts at this row and column (negative or past the end: padding).
    let iy_origin = i32(oy0) - i32(spec_pad_h);
    let ix_origin = i32(ox0) - i32(spec_pad_w);
    let in_rows = tile_h + 2u;
    let input_plane = params.ih * params.iw;
    let image_at = image * params.ic * input_plane;
    // Staging (`load_chunk`): this thread's input column.
    let ix_lane = ix_origin + i32(lane);
{% for s in range(slots) %}
    var next_in_{{ s }}_0: f32;
    var next_in_{{ s }}_1: f32;
{% endfor %}
{% for j in range(wslots) %}
    var next_w_{{ j }}: vec4<f32>;
{% endfor %}
{% for r in range(rows) %}
{% for q in range(quads) %}
    var acc_{{ r }}_{{ q }} = vec4<f32>(0.0);
{% endfor %}
{% endfor %}
{{ load_chunk("0u") }}
    for (var c0 = 0u; c0 < params.ic; c0 += TILED_CHUNK) {
        workgroupBarrier();
{{ store_chunk() }}
        workgroupBarrier();
        // The next chunk's loads, in flight during this chunk's multiply-adds.
        if (c0 + TILED_CHUNK < params.ic) {
{{ load_chunk("(c0 + TILED_CHUNK)") }}
        }
{% for c in range(chunk) %}
        {
            // Channel {{ c }} of the chunk: its {{ rows + 2 }} × 3 input values, then its 9 taps.
{% for i in range(rows + 2) %}
{% for kx in range(3) %}
            let x_{{ i }}_{{ kx }} = tile_input[({{ c }}u * TILED_IN_H + row0 + {{ i }}u) * TILED_IN_W + lane + {{ kx }}u];
{% endfor %}
{% endfor %}
{% for ky in range(3) %}
{% for kx in range(3) %}
            {
{% for q in range(quads) %}
                let w_{{ q }} = tile_weights[{{ c * 9 + ky * 3 + kx }}u * tile_quads + quad0 + {{ q }}u];
{% endfor %}
{% for r in range(rows) %}
{% for q in range(quads) %}
                acc_{{ r }}_{{ q }} = fma(vec4<f32>(x_{{ r + ky }}_{{ kx }}), w_{{ q }}, acc_{{ r }}_{{ q }});
{% endfor %}
{% endfor %}
            }
{% endfor %}
{% endfor %}
        }
{% endfor %}
    }
    // Each row's outputs: lane x writes column ox0 + x, so a warp's stores are consecutive.
    let ox = ox0 + lane;
    let plane = params.oh * params.ow;
    let image_out = image * params.oc * plane;
{% for q in range(quads) %}
    let oc_{{ q }} = oc0 + (quad0 + {{ q }}u) * 4u;
    var bias_{{ q }} = vec4<f32>(0.0);
    // Read only when bound: without a bias the binding is a 4-float placeholder.
    if (params.has_bias != 0u) {
        bias_{{ q }} = vec4<f32>(
{% for j in range(4) %}
            {{ to_f32 }}(bias[min(oc_{{ q }} + {{ j }}u, params.oc - 1u)]){{ "," if j < 3 }}
{% endfor %}
        );
    }
{% endfor %}
{% for r in range(rows) %}
    {
        let oy = oy0 + row0 + {{ r }}u;
        if (oy < params.oh && ox < params.ow) {
            let pixel_at = image_out + oy * params.ow + ox;
{% for q in range(quads) %}
            let v_{{ q }} = activate(acc_{{ r }}_{{ q }} + bias_{{ q }});
{% for j in range(4) %}
            if (oc_{{ q }} + {{ j }}u < params.oc) {
                output[pixel_at + (oc_{{ q }} + {{ j }}u) * plane] = {{ to_out }}(v_{{ q }}.{{ XYZW[j] }});
            }
{% endfor %}
{% endfor %}
        }
    }
{% endfor %}
}
