//! Errors of the generator. Every variant names the shader and the construct at fault.

/// Why a shader could not be turned into Rust.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodegenError {
    /// The WGSL did not parse. `diagnostic` is naga's report (path, line, column, source line).
    #[error("failed to parse {path}:\n{diagnostic}")]
    Parse {
        /// Shader path as given to the generator.
        path: String,
        /// naga's rendered diagnostic.
        diagnostic: String,
    },
    /// The WGSL parsed but naga's validator (all flags, incl. struct layouts) rejected it.
    #[error("{path} failed validation:\n{diagnostic}")]
    Validation {
        /// Shader path as given to the generator.
        path: String,
        /// naga's rendered diagnostic.
        diagnostic: String,
    },
    /// A struct member's type has no host representation the generator supports.
    #[error("{path}: unsupported type `{wgsl_type}` for field `{field}` of struct `{structure}`: {reason}")]
    UnsupportedMemberType {
        /// Shader path.
        path: String,
        /// WGSL struct name.
        structure: String,
        /// Member name.
        field: String,
        /// The WGSL type as written by the generator.
        wgsl_type: String,
        /// What rule is violated.
        reason: String,
    },
    /// Two items of the shader would generate the same Rust name (`fooBar` and `foo_bar` are
    /// both `FOO_BAR_ENTRY`; a WGSL struct `Overrides` is the generated `Overrides`).
    #[error("{path}: {first} and {second} would both generate the {namespace} `{name}`; rename one of them")]
    NameCollision {
        /// Shader path.
        path: String,
        /// The Rust name both would take.
        name: String,
        /// Which Rust namespace: a type, a constant or function, a variant, a field or method.
        namespace: &'static str,
        /// The item that took it first (e.g. "the generated struct `Overrides`").
        first: String,
        /// The item that wants it too (e.g. "WGSL struct `Overrides`").
        second: String,
    },
    /// Any other construct the generator does not support (a binding kind, an override expression …).
    #[error("{path}: unsupported {construct}: {reason}")]
    Unsupported {
        /// Shader path.
        path: String,
        /// The construct, e.g. "binding `tex` (group 0, binding 1)".
        construct: String,
        /// Why it is unsupported.
        reason: String,
    },
    /// A struct asked for by name (e.g. by `#[wgsl_layout]`) is not in the shader.
    #[error("{path}: no struct named `{name}` (structs in the shader: {available})")]
    NoSuchStruct {
        /// Shader path.
        path: String,
        /// The requested name.
        name: String,
        /// Comma-separated names that do exist.
        available: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
}
