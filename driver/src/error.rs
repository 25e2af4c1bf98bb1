//! The phases of a translation and the errors of each: data, not strings,
//! so that a CLI, the test harness and the Python extension each render
//! them their own way.

use std::fmt;

use rpy3_annotator::AnnotatorError;
use rpy3_llinterp::LlError;
use rpy3_model::llverify::LlVerifyError;
use rpy3_model::SourceLocation;
use rpy3_rtyper::RTypeError;

/// A phase of a translation, in pipeline order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Importing the target and finding its entry point.
    Load,
    /// Flowing and annotating: the flow space builds each graph when the
    /// annotator first reaches its function.
    Annotate,
    /// Rtyping: low-level graphs.
    Rtype,
    /// The verifier of low-level graphs, after the named pass (`rtype`
    /// or a transform).
    Verify(&'static str),
    /// A preparation pass of the backends, by name.
    Transform(&'static str),
    /// Loading the program into the llinterp.
    LoadLlinterp,
    /// The preparation passes of the compiled backends (`rpy3-prep`).
    Prepare,
    /// Generating C.
    Genc,
    /// Compiling and linking the C.
    Cc,
    /// Generating Cranelift IR and machine code (the native backend).
    Native,
    /// Linking the native backend's object with its glue and the runtime.
    Link,
    /// Running the translated program (errors of rpy3 while running, not
    /// the program's own exceptions).
    Run,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Phase::Load => f.write_str("load"),
            Phase::Annotate => f.write_str("annotate"),
            Phase::Rtype => f.write_str("rtype"),
            Phase::Verify(after) => write!(f, "verify after {after}"),
            Phase::Transform(name) => write!(f, "transform {name}"),
            Phase::LoadLlinterp => f.write_str("load into the llinterp"),
            Phase::Prepare => f.write_str("prepare"),
            Phase::Genc => f.write_str("genc"),
            Phase::Cc => f.write_str("cc"),
            Phase::Native => f.write_str("native"),
            Phase::Link => f.write_str("link"),
            Phase::Run => f.write_str("run"),
        }
    }
}

/// Why a translation (or a run of its result) failed.  The `Display`
/// form is the one-line message the CLI and the harness print.
#[derive(Clone, Debug, thiserror::Error)]
pub enum DriverError {
    /// The target file defines no entry point (a usage error).
    #[error("{0}")]
    NoEntryPoint(String),
    /// The target file does not import, or its `target()` failed.
    #[error("{0}")]
    Load(String),
    /// An argument has no annotation (its value is not RPython).
    #[error("{0}")]
    Argument(AnnotatorError),
    /// The program is not RPython, or flowing it failed.
    #[error("annotation error: {0}")]
    Annotate(AnnotatorError),
    /// Annotation finished with variables no annotation reached.
    #[error("{count} variable(s) left unannotated, first {var} in {function} ({filename})")]
    Unannotated {
        /// How many variables.
        count: usize,
        /// The first one.
        var: String,
        /// Its function.
        function: String,
        /// That function's file.
        filename: String,
    },
    /// The rtyper refused the program.
    #[error("rtyping error: {0}")]
    Rtype(RTypeError),
    /// A pass produced an ill-typed low-level graph (a bug of that pass).
    #[error("ill-typed low-level graph after {after}: {error}")]
    IllTyped {
        /// The pass that produced it.
        after: &'static str,
        /// The broken rule.
        error: LlVerifyError,
    },
    /// A preparation pass failed.
    #[error("transform {pass}: {message}")]
    Transform {
        /// The pass.
        pass: &'static str,
        /// Why.
        message: String,
    },
    /// A preparation pass of the compiled backends failed.
    #[error("preparation error: {0}")]
    Prepare(rpy3_prep::PrepError),
    /// The C backend failed (generating the C, or compiling it).
    #[error("{0}")]
    Genc(rpy3_genc::GencError),
    /// The native backend failed (lowering to Cranelift, or linking).
    #[error("{0}")]
    Native(rpy3_native::NativeError),
    /// The llinterp refused to load the program.
    #[error("llinterp load error: {0}")]
    LlinterpLoad(LlError),
    /// The llinterp met undefined behaviour while running.
    #[error("llinterp error: {0}")]
    Llinterp(LlError),
    /// A value the annotations did not allow, seen while running on the
    /// annotate backend.
    #[error("unsound annotation: {0}")]
    Unsound(String),
    /// Another failure of rpy3 while running (a value that cannot cross
    /// between Python and the low-level program, an internal error of the
    /// graph interpreter).
    #[error("{0}")]
    Run(String),
}

impl DriverError {
    /// The phase that failed.
    pub fn phase(&self) -> Phase {
        match self {
            DriverError::NoEntryPoint(_) | DriverError::Load(_) => Phase::Load,
            DriverError::Argument(_)
            | DriverError::Annotate(_)
            | DriverError::Unannotated { .. } => Phase::Annotate,
            DriverError::Rtype(_) => Phase::Rtype,
            DriverError::IllTyped { after, .. } => Phase::Verify(after),
            DriverError::Transform { pass, .. } => Phase::Transform(pass),
            DriverError::LlinterpLoad(_) => Phase::LoadLlinterp,
            DriverError::Prepare(_) => Phase::Prepare,
            DriverError::Genc(e) if e.msg.starts_with("the C compiler") => Phase::Cc,
            DriverError::Genc(_) => Phase::Genc,
            DriverError::Native(e) if e.msg.starts_with("the C compiler") => Phase::Link,
            DriverError::Native(_) => Phase::Native,
            DriverError::Llinterp(_) | DriverError::Unsound(_) | DriverError::Run(_) => Phase::Run,
        }
    }

    /// What went wrong, without the phase and the location.
    pub fn message(&self) -> String {
        match self {
            DriverError::Argument(e) | DriverError::Annotate(e) => e.message.clone(),
            DriverError::Rtype(e) => e.message.clone(),
            DriverError::IllTyped { error, .. } => {
                format!(
                    "function `{}`, {}: {}",
                    error.function, error.site, error.message
                )
            }
            DriverError::Transform { message, .. } => message.clone(),
            DriverError::LlinterpLoad(e) | DriverError::Llinterp(e) => e.to_string(),
            other => other.to_string(),
        }
    }

    /// Where in the program's source, when the stage that failed says.
    pub fn location(&self) -> Option<SourceLocation> {
        match self {
            DriverError::Argument(e) | DriverError::Annotate(e) => Some(SourceLocation {
                filename: e.filename.clone(),
                lineno: e.lineno,
                function: e.function.clone(),
            }),
            DriverError::Rtype(e) => e.location.clone(),
            DriverError::IllTyped { error, .. } => error.location.as_deref().cloned(),
            _ => None,
        }
    }

    /// Whether this is the user's mistake in calling rpy3 (exit status 2
    /// in the CLI) rather than a failure of the program or of rpy3.
    pub fn is_usage(&self) -> bool {
        matches!(self, DriverError::NoEntryPoint(_))
    }
}
