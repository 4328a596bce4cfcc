//! Test support: the tensor-core shaders cannot run on lavapipe, so their tests lower each entry
//! point to SPIR-V with naga and count its cooperative multiply-adds (a shader error would
//! otherwise only show on a device that has cooperative matrices).

/// Lowers `entry` of the WGSL `source` to SPIR-V at the pipeline `constants` (naga validates it
/// with cooperative matrices and f16 on) and returns how many `OpCooperativeMatrixMulAddKHR`
/// instructions it has.
pub(crate) fn coop_multiply_adds(source: &str, entry: &str, constants: &[(&'static str, f64)]) -> usize {
    use naga::valid::{Capabilities, ValidationFlags, Validator};
    let module = naga::front::wgsl::parse_str(source).expect("parses");
    // (f16 in f32, for unpack2x16float, is what wgpu's SHADER_F16 grants too.)
    let caps =
        Capabilities::COOPERATIVE_MATRIX | Capabilities::SHADER_FLOAT16 | Capabilities::SHADER_FLOAT16_IN_FLOAT32;
    let info = Validator::new(ValidationFlags::all(), caps).validate(&module).expect("validates");
    let constants: naga::back::PipelineConstants = constants.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    // `process_overrides` keeps only the selected entry point and what it calls.
    let (module, info) = naga::back::pipeline_constants::process_overrides(
        &module,
        &info,
        Some((naga::ShaderStage::Compute, entry)),
        &constants,
    )
    .expect("overrides");
    let options = naga::back::spv::Options { lang_version: (1, 6), capabilities: None, ..Default::default() };
    let words = naga::back::spv::write_vec(&module, &info, &options, None).expect("SPIR-V");
    // OpCooperativeMatrixMulAddKHR is opcode 4459. Walk the instructions after the 5-word header
    // (each starts with word count << 16 | opcode).
    let (mut at, mut mul_adds) = (5, 0);
    while at < words.len() {
        mul_adds += usize::from(words[at] & 0xffff == 4459);
        at += (words[at] >> 16).max(1) as usize;
    }
    mul_adds
}
