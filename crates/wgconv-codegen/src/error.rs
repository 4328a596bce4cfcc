//! Errors of the generator. Every variant names the shader and the construct at fault; those
//! about one place in the source say where (`path:line:column` and the line itself, as naga's
//! own diagnostics do), and a shader with several problems reports them all ([`CodegenError::Several`]).

/// Where in the WGSL source a construct is: 1-based line and column, and the line's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column (in UTF-8 characters).
    pub column: u32,
    /// The text of that line.
    pub source_line: String,
}

impl Location {
    /// The location of naga `span` in `source`, if the span is known.
    pub(crate) fn of(span: naga::Span, source: &str) -> Option<Self> {
        if span == naga::Span::default() {
            return None;
        }
        let at = span.location(source);
        let source_line = source.lines().nth(at.line_number.saturating_sub(1) as usize)?.to_string();
        // naga's position is a byte offset into the line; the column counts characters.
        let bytes = (at.line_position.saturating_sub(1) as usize).min(source_line.len());
        let column = source_line.get(..bytes).map_or(at.line_position, |before| before.chars().count() as u32 + 1);
        Some(Self { line: at.line_number, column, source_line })
    }
}

/// `path:line:column`, or `path` alone.
fn place(path: &str, at: &Option<Box<Location>>) -> String {
    match at {
        Some(l) => format!("{path}:{}:{}", l.line, l.column),
        None => path.to_string(),
    }
}

/// The source line under a message, with a caret at the column (empty without a location).
fn excerpt(at: &Option<Box<Location>>) -> String {
    match at {
        Some(l) => {
            let number = l.line.to_string();
            let pad = " ".repeat(number.len());
            // Tabs before the column stay tabs, so the caret lines up under them.
            let caret: String = l
                .source_line
                .chars()
                .take(l.column.saturating_sub(1) as usize)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            format!("\n{pad} |\n{number} | {}\n{pad} | {caret}^", l.source_line)
        }
        None => String::new(),
    }
}

/// Every error of [`CodegenError::Several`], one after another.
fn all(errors: &[CodegenError]) -> String {
    errors.iter().map(|e| format!("\n{e}")).collect()
}

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
    #[error(
        "{}: unsupported type `{wgsl_type}` for field `{field}` of struct `{structure}`: {reason}{}",
        place(path, at),
        excerpt(at)
    )]
    UnsupportedMemberType {
        /// Shader path.
        path: String,
        /// Where the struct is declared, when known.
        at: Option<Box<Location>>,
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
    #[error("{}: unsupported {construct}: {reason}{}", place(path, at), excerpt(at))]
    Unsupported {
        /// Shader path.
        path: String,
        /// Where the construct is, when known.
        at: Option<Box<Location>>,
        /// The construct, e.g. "binding `tex` (group 0, binding 1)".
        construct: String,
        /// Why it is unsupported.
        reason: String,
    },
    /// Several problems in one shader, each with its place: everything the generator found, not
    /// just the first.
    #[error("{path}: {} problems{}", errors.len(), all(errors))]
    Several {
        /// Shader path.
        path: String,
        /// The problems, in source order.
        errors: Vec<CodegenError>,
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
    /// A shader's file name cannot name the Rust module generated from it ([`crate::fs`] writes
    /// `STEM.rs` and `pub mod STEM;`).
    #[error("{path}: cannot name a Rust module `{module}`: {reason}; rename the shader")]
    ModuleName {
        /// The shader file.
        path: String,
        /// The module name the file would give (its name without `.wgsl`).
        module: String,
        /// What Rust requires of a module name that this one lacks.
        reason: String,
    },
    /// A bug in the generator: what it generated is not valid Rust. Please report it with the shader.
    #[error("{path}: internal error of wgconv-codegen (please report it with the shader): {message}")]
    Internal {
        /// Shader path.
        path: String,
        /// What went wrong.
        message: String,
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

impl CodegenError {
    /// An unsupported construct of shader `path`, not (yet) located.
    pub(crate) fn unsupported(path: &str, construct: impl Into<String>, reason: impl Into<String>) -> Self {
        CodegenError::Unsupported {
            path: path.to_string(),
            at: None,
            construct: construct.into(),
            reason: reason.into(),
        }
    }

    /// The error with `at` as its location, where it has none yet and can carry one.
    pub(crate) fn located(mut self, location: Option<Location>) -> Self {
        if let CodegenError::Unsupported { at, .. } | CodegenError::UnsupportedMemberType { at, .. } = &mut self
            && at.is_none()
        {
            *at = location.map(Box::new);
        }
        self
    }

    /// The line of the error's location (sorting problems in source order; unlocated last).
    fn line(&self) -> u32 {
        match self {
            CodegenError::Unsupported { at: Some(l), .. } | CodegenError::UnsupportedMemberType { at: Some(l), .. } => {
                l.line
            }
            _ => u32::MAX,
        }
    }

    /// No error, one, or [`CodegenError::Several`] for `path`, in source order. A problem found
    /// more than once (a struct reached from two bindings) is reported once.
    pub(crate) fn collect(path: &str, mut errors: Vec<CodegenError>) -> Result<(), Self> {
        let mut seen = std::collections::HashSet::new();
        errors.retain(|e| seen.insert(e.to_string()));
        errors.sort_by_key(CodegenError::line);
        match errors.len() {
            0 => Ok(()),
            1 => Err(errors.remove(0)),
            _ => Err(CodegenError::Several { path: path.to_string(), errors }),
        }
    }
}
