//! naga's own evaluation of a shader's overrides (what a pipeline compiled with those values
//! would use), which the generated override getters are checked against. Shared by test files
//! through `#[path]` (a file in this directory is not a test target of its own).

use naga::{
    Literal,
    back::{PipelineConstants, pipeline_constants::process_overrides},
    valid::{Capabilities, ValidationFlags, Validator},
};

/// The value of every named constant of `source` once its overrides take `values`, by name.
pub fn evaluated(source: &str, values: &[(&str, f64)]) -> Vec<(String, f64)> {
    let module = naga::front::wgsl::parse_str(source).expect("parses");
    let info = Validator::new(ValidationFlags::all(), Capabilities::all()).validate(&module).expect("validates");
    let constants: PipelineConstants = values.iter().map(|(name, v)| (name.to_string(), *v)).collect();
    let (module, _) = process_overrides(&module, &info, None, &constants).expect("evaluates");
    module
        .constants
        .iter()
        .filter_map(|(_, c)| {
            let value = match module.global_expressions[c.init] {
                naga::Expression::Literal(Literal::I32(v)) => f64::from(v),
                naga::Expression::Literal(Literal::U32(v)) => f64::from(v),
                naga::Expression::Literal(Literal::F32(v)) => f64::from(v),
                naga::Expression::Literal(Literal::F16(v)) => f64::from(v),
                naga::Expression::Literal(Literal::Bool(v)) => f64::from(u8::from(v)),
                ref other => panic!("{:?} evaluated to {other:?}", c.name),
            };
            Some((c.name.clone()?, value))
        })
        .collect()
}
