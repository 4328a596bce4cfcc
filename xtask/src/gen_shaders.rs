//! `cargo xtask gen-shaders [--check]`: every generated file of the repository, from one list.
//!
//! [`TARGETS`] is the only list of generated directories: [`gen_shaders`] writes them, and with
//! `check` compares them with what it would write, which is also what the freshness test runs
//! (the pattern of rust-analyzer's `generate(check)`), so no list is kept twice.

use std::path::{Path, PathBuf};

use wgconv_codegen::fs::GeneratedFile;

/// The command that regenerates every stale file.
pub const FIX: &str = "cargo xtask gen-shaders";

/// A directory of generated files and its sources, relative to the workspace root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// `out/NAME.wgsl` expanded from `templates/NAME.wgsl` (see [`crate::templates`]).
    Expand {
        /// The template directory (with its `prelude/`).
        templates: &'static str,
        /// Where the expanded shaders go.
        out: &'static str,
    },
    /// Typed Rust bindings (`out/NAME.rs`, `out/mod.rs`) of the shaders `shaders/*.wgsl`.
    Bindings {
        /// The shader directory.
        shaders: &'static str,
        /// Where the modules go.
        out: &'static str,
        /// The trait each module's `Shader` implements (`wgconv_codegen::Options::shader_trait`),
        /// if any: the runtime's lets one generic function record any of its shaders.
        shader_trait: Option<&'static str>,
    },
}

/// Every generated directory, in the order they are made: the runtime's shaders before their
/// bindings.
pub const TARGETS: &[Target] = &[
    Target::Expand { templates: "shaders/templates", out: "shaders" },
    Target::Bindings {
        shaders: "shaders",
        out: "crates/wgconv/src/shaders",
        shader_trait: Some("crate::pipelines::GeneratedShader"),
    },
    // The fixture shaders whose generated modules the integration tests compile and run.
    Target::Bindings { shaders: "tests/fixtures/shaders", out: "tests/src/generated", shader_trait: None },
];

/// Regenerates every [`TARGETS`] directory under `root`, or with `check` writes nothing and fails
/// when a file differs from what would be written: the error has a diff per stale file, names
/// every stale file, and the command that fixes them ([`FIX`]). Returns a line per target.
pub fn gen_shaders(root: &Path, check: bool) -> Result<Vec<String>, String> {
    let mut summary = Vec::new();
    let mut diffs = Vec::new();
    let mut stale = Vec::new();
    // Expanded shaders by output directory: in check mode the bindings are made from these, not
    // from the files on disk, so a template edit also shows the bindings it changes.
    let mut expanded: Vec<(&str, Vec<GeneratedFile>)> = Vec::new();
    for target in TARGETS {
        let (out, files) = match *target {
            Target::Expand { templates, out } => {
                let files = crate::templates::expand_dir(&root.join(templates), templates)?;
                if let Some(orphan) = orphan_shaders(&root.join(out), &files)?.first() {
                    return Err(format!(
                        "{out}/{orphan} has no template {templates}/{orphan}: every shader is expanded from a template, so move it there and run `{FIX}`"
                    ));
                }
                expanded.push((out, files.clone()));
                (out, files)
            }
            Target::Bindings { shaders, out, shader_trait } => {
                let from_memory = expanded.iter().find(|(dir, _)| *dir == shaders).filter(|_| check);
                let options = codegen_options(shader_trait);
                let files = match from_memory {
                    Some((_, wgsl)) => bindings_of(wgsl, shaders, &options)?,
                    None => generate_dir(&root.join(shaders), shaders, &options)?,
                };
                (out, files)
            }
        };
        let out_dir = root.join(out);
        if check {
            let found = stale_files(&out_dir, &files);
            if !found.is_empty() {
                diffs.extend(wgconv_codegen::fs::check_dir(&out_dir, &files).map_err(|e| e.to_string())?);
                stale.extend(found.iter().map(|name| format!("{out}/{name}")));
            }
            summary.push(format!("{out}: {} generated files checked", files.len()));
        } else {
            write(&out_dir, &files, target)?;
            summary.push(format!("{out}: wrote {} files", files.len()));
        }
    }
    if stale.is_empty() {
        Ok(summary)
    } else {
        Err(format!(
            "{}\nstale generated files:\n  {}\nrun `{FIX}` to regenerate them",
            diffs.join("\n"),
            stale.join("\n  ")
        ))
    }
}

fn codegen_options(shader_trait: Option<&str>) -> wgconv_codegen::Options {
    let options = wgconv_codegen::Options::default();
    match shader_trait {
        Some(path) => options.with_shader_trait(path),
        None => options,
    }
}

fn generate_dir(dir: &Path, display: &str, options: &wgconv_codegen::Options) -> Result<Vec<GeneratedFile>, String> {
    wgconv_codegen::fs::generate_dir_with(dir, display, options).map_err(|e| e.to_string())
}

/// The bindings of shaders held in memory: the codegen reads a directory, so they are staged in a
/// temporary one (removed again, also on error).
fn bindings_of(
    wgsl: &[GeneratedFile],
    display: &str,
    options: &wgconv_codegen::Options,
) -> Result<Vec<GeneratedFile>, String> {
    let staging = TempDir::new("xtask-gen-shaders")?;
    for f in wgsl {
        let path = staging.0.join(&f.name);
        std::fs::write(&path, &f.contents).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    generate_dir(&staging.0, display, options)
}

/// A directory removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(prefix: &str) -> Result<Self, String> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        // Unique per process and call: tests run checks in parallel threads.
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("{prefix}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Self(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Shaders in `out_dir` that no template produces.
fn orphan_shaders(out_dir: &Path, files: &[GeneratedFile]) -> Result<Vec<String>, String> {
    Ok(crate::templates::read_wgsl(out_dir)?
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| !files.iter().any(|f| &f.name == name))
        .collect())
}

/// Names of the files of `out_dir` that differ from `files`, are missing, or (bindings) are
/// generated modules no shader produces any more.
fn stale_files(out_dir: &Path, files: &[GeneratedFile]) -> Vec<String> {
    let mut stale: Vec<String> = files
        .iter()
        .filter(|f| std::fs::read_to_string(out_dir.join(&f.name)).ok().as_deref() != Some(f.contents.as_str()))
        .map(|f| f.name.clone())
        .collect();
    let extra = std::fs::read_dir(out_dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".rs") && !files.iter().any(|f| &f.name == n));
    stale.extend(extra);
    stale
}

fn write(out_dir: &Path, files: &[GeneratedFile], target: &Target) -> Result<(), String> {
    match target {
        // Also removes modules of deleted shaders.
        Target::Bindings { .. } => wgconv_codegen::fs::write_dir(out_dir, files).map_err(|e| e.to_string()),
        Target::Expand { .. } => files.iter().try_for_each(|f| {
            let path = out_dir.join(&f.name);
            std::fs::write(&path, &f.contents).map_err(|e| format!("{}: {e}", path.display()))
        }),
    }
}
