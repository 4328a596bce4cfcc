//! CLI failures and their exit codes: 2 for bad usage or input, 1 for runtime failures.

/// A CLI failure.
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments or input files (exit 2).
    Usage(String),
    /// The operation failed while running, or `--check` found an error above tolerance (exit 1).
    Runtime(String),
}

impl CliError {
    /// The process exit code.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Runtime(_) => 1,
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        match self {
            CliError::Usage(m) | CliError::Runtime(m) => m,
        }
    }
}

impl From<wgconv::Error> for CliError {
    fn from(e: wgconv::Error) -> Self {
        use wgconv::Error as E;
        match e {
            E::NoAdapter { .. }
            | E::RequestDevice { .. }
            | E::Gpu { .. }
            | E::Timeout { .. }
            | E::DispatchTooLarge { .. } => CliError::Runtime(e.to_string()),
            // What the user gave: shapes, options, a kernel or tuning file they named, tensors
            // too large for this device.
            E::InvalidShape { .. }
            | E::InvalidOption { .. }
            | E::KernelUnavailable { .. }
            | E::TuningFile { .. }
            | E::Rank { .. }
            | E::DType { .. }
            | E::ByteSize { .. }
            | E::OutputShape { .. }
            | E::TooManyElements { .. }
            | E::BufferTooLarge { .. }
            | E::BindingTooLarge { .. }
            | E::BufferUsage { .. }
            | E::NothingRecorded => CliError::Usage(e.to_string()),
            // `wgconv::Error` is non-exhaustive: a variant added later is a usage error until it
            // is sorted here (as before the variants were listed).
            _ => CliError::Usage(e.to_string()),
        }
    }
}

/// Result alias for the CLI.
pub type CliResult<T> = Result<T, CliError>;
