//! The translation driver (PyPy's `translator/driver.py`): a
//! [`Translation`] takes one entry function through the phases in order —
//! flow and annotate, rtype, the verifier of low-level graphs, the
//! backends' preparation passes, a backend — timing each phase, keeping
//! structured errors ([`DriverError`], naming the phase) and computing
//! each result once.  The CLI, the test harness and the Python extension
//! all translate through it.
//!
//! Both entry forms are supported: a function with argument annotations
//! (`interpret(f, args)`, case files: [`Translation::for_function`]) and
//! program mode (`entry_point(argv)` of a target file:
//! [`Translation::for_program`], run by [`program::run_program`]).

pub mod annotated;
pub mod c;
pub mod case_exe;
mod error;
pub mod llinterp;
pub mod load;
pub mod program;
mod translation;

pub use error::{DriverError, Phase};
pub use translation::{
    argv_annotation, type_annotation, AnnotationsFn, EntryArgs, Options, Transform, Translation,
};

/// A way of running a translated function or program other than CPython
/// itself.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The flow graphs run by the graph interpreter on real Python objects.
    Flow,
    /// Annotation of the whole program, then the flow backend checking that
    /// every value each variable takes lies inside its annotation.
    Annotate,
    /// Annotation, rtyping, and the low-level graphs run by the llinterp.
    Llinterp,
    /// The C backend: an executable compiled with the system `cc`.
    C,
    /// The C backend with a collector that collects at every allocation.
    CGcStress,
    /// The native backend: Cranelift code linked with the C runtime.
    Native,
    /// The native backend with a collector that collects at every
    /// allocation.
    NativeGcStress,
}

/// Backend names of the CLI that have no implementation yet.
pub const PLANNED_BACKENDS: &[&str] = &[];

impl Backend {
    /// Every implemented backend, in pipeline order (`all`; the
    /// `c-gcstress` build is chosen by name only).
    pub const ALL: &'static [Backend] = &[
        Backend::Flow,
        Backend::Annotate,
        Backend::Llinterp,
        Backend::C,
        Backend::Native,
    ];

    /// The name used on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Flow => "flow",
            Backend::Annotate => "annotate",
            Backend::Llinterp => "llinterp",
            Backend::C => "c",
            Backend::CGcStress => "c-gcstress",
            Backend::Native => "native",
            Backend::NativeGcStress => "native-gcstress",
        }
    }

    /// Whether this backend compiles an executable (C or native).
    pub fn is_compiled(self) -> bool {
        self.is_c() || self.is_native()
    }

    /// Whether this backend compiles with the native backend.
    pub fn is_native(self) -> bool {
        matches!(self, Backend::Native | Backend::NativeGcStress)
    }

    /// Whether this backend's collector collects at every allocation.
    pub fn is_gc_stress(self) -> bool {
        matches!(self, Backend::CGcStress | Backend::NativeGcStress)
    }

    /// Whether this backend compiles an executable with the C backend.
    pub fn is_c(self) -> bool {
        matches!(self, Backend::C | Backend::CGcStress)
    }

    /// The backend called `name`, if implemented.
    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL
            .iter()
            .copied()
            .chain([Backend::CGcStress, Backend::NativeGcStress])
            .find(|b| b.name() == name)
    }

    /// The backends selected by a `--backend` value (`all` is every
    /// implemented one), or a one-line error.
    pub fn parse_selection(name: &str) -> Result<Vec<Backend>, String> {
        if name == "all" {
            return Ok(Backend::ALL.to_vec());
        }
        if let Some(b) = Backend::from_name(name) {
            return Ok(vec![b]);
        }
        if PLANNED_BACKENDS.contains(&name) {
            return Err(format!("backend '{name}' is not implemented yet"));
        }
        let known: Vec<&str> = Backend::ALL
            .iter()
            .chain(&[Backend::CGcStress, Backend::NativeGcStress])
            .map(|b| b.name())
            .chain(PLANNED_BACKENDS.iter().copied())
            .collect();
        Err(format!(
            "unknown backend '{name}' (expected one of: {}, all)",
            known.join(", ")
        ))
    }
}
