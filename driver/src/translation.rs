//! `Translation`: one entry function taken through the phases in order
//! (PyPy's `TranslationDriver`): flow and annotate, rtype, verify, the
//! backends' preparation passes, a backend.  Each phase runs at most once
//! per translation; its result (or its error) is kept, and its time is
//! recorded.

use std::time::{Duration, Instant};

use pyo3::prelude::*;
use rpy3_annotator::itemdef::ItemKind;
use rpy3_annotator::model::StrKind;
use rpy3_annotator::{Annotator, AnnotatorError, GraphId, SomeValue};
use rpy3_model::llverify;
use rpy3_model::program::LlProgram;

use crate::error::{DriverError, Phase};
use crate::llinterp::LlinterpBackend;

/// How the entry function's arguments are annotated.
pub enum EntryArgs {
    /// Arguments like these values, by type only, as `interpret(f, args)`
    /// and case files call: an int may be any int, a str any str.
    TypesOf(Vec<Py<PyAny>>),
    /// Program mode: `entry_point(argv)`, `argv` a list of strs.
    Argv,
    /// Annotations made by the caller with the translation's annotator
    /// (`rpy3 show` annotates for the given values).
    Custom(Box<AnnotationsFn>),
}

/// Makes the entry's argument annotations with the annotator.
pub type AnnotationsFn =
    dyn FnOnce(Python<'_>, &mut Annotator) -> Result<Vec<SomeValue>, AnnotatorError> + Send;

/// A preparation pass of the backends (exception transform, GC
/// transform, ...): rewrites the low-level program in place.  The driver
/// verifies the program after each pass.
pub trait Transform: Send {
    /// The pass's name, for timings and errors.
    fn name(&self) -> &'static str;
    /// Runs the pass; a message on failure.
    fn run(&mut self, py: Python<'_>, program: &mut LlProgram) -> Result<(), String>;
}

/// What a translation does beyond the phases themselves.
#[derive(Clone, Debug)]
pub struct Options {
    /// Run the verifier of low-level graphs after rtyping and after every
    /// transform.  On by default in debug builds (and so in tests), and
    /// in any build when the environment sets `RPY3_VERIFY=1`.
    pub verify: bool,
}

impl Default for Options {
    fn default() -> Options {
        let asked = std::env::var("RPY3_VERIFY").ok();
        Options {
            verify: match asked.as_deref() {
                Some("0") => false,
                Some(_) => true,
                None => cfg!(debug_assertions),
            },
        }
    }
}

/// The annotation of `argv`: a list of non-None strs.
pub fn argv_annotation(ann: &mut Annotator) -> SomeValue {
    let item = SomeValue::Str {
        kind: StrKind::Str,
        is_char: false,
        can_be_none: false,
        konst: None,
    };
    SomeValue::List(ann.new_container(ItemKind::List, item, SomeValue::Impossible))
}

/// The annotation of an argument like `value`: its type only.
pub fn type_annotation(
    ann: &mut Annotator,
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
) -> Result<SomeValue, AnnotatorError> {
    Ok(match ann.immutablevalue(py, value)? {
        SomeValue::Integer { kind, .. } => SomeValue::Integer {
            kind,
            nonneg: false,
            konst: None,
            bool_too: false,
        },
        SomeValue::Str { kind, .. } => SomeValue::Str {
            kind,
            is_char: false,
            can_be_none: false,
            konst: None,
        },
        other => other.without_const(),
    })
}

/// One entry function and what its translation has produced so far.
pub struct Translation {
    entry: Py<PyAny>,
    args: Option<EntryArgs>,
    options: Options,
    transforms: Vec<Box<dyn Transform>>,
    // each phase's outcome once it ran (None: not yet); asking again gives
    // the same result, or the same error
    annotated: Option<Result<(), DriverError>>,
    annotator: Option<Annotator>,
    entry_graph: Option<GraphId>,
    rtyped: Option<Result<LlProgram, DriverError>>,
    prepared: Option<Result<LlProgram, DriverError>>,
    llinterp: Option<Result<LlinterpBackend, DriverError>>,
    timings: Vec<(Phase, Duration)>,
}

impl Translation {
    /// A translation of `entry` with arguments annotated as `args` asks.
    /// Nothing runs until a phase's result is asked for.
    pub fn new(entry: Py<PyAny>, args: EntryArgs, options: Options) -> Translation {
        Translation {
            entry,
            args: Some(args),
            options,
            transforms: Vec::new(),
            annotated: None,
            annotator: None,
            entry_graph: None,
            rtyped: None,
            prepared: None,
            llinterp: None,
            timings: Vec::new(),
        }
    }

    /// `interpret(f, args)`: `func` for arguments of the types of `args`.
    pub fn for_function(func: &Bound<'_, PyAny>, args: &[Bound<'_, PyAny>]) -> Translation {
        let args = args.iter().map(|a| a.clone().unbind()).collect();
        Translation::new(
            func.clone().unbind(),
            EntryArgs::TypesOf(args),
            Options::default(),
        )
    }

    /// Program mode: the entry point of the target file `file`
    /// (`entry_point(argv)`, or the one its `target()` returns).
    pub fn for_program(py: Python<'_>, file: &std::path::Path) -> Result<Translation, DriverError> {
        let t0 = Instant::now();
        let entry = crate::program::load_entry_point(py, file)?;
        let mut t = Translation::new(entry.unbind(), EntryArgs::Argv, Options::default());
        t.timings.push((Phase::Load, t0.elapsed()));
        Ok(t)
    }

    /// Adds a preparation pass, run (in the order added) by
    /// [`Translation::prepared`].
    pub fn add_transform(&mut self, pass: Box<dyn Transform>) {
        self.transforms.push(pass);
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes the options (before the phases they affect run).
    pub fn options_mut(&mut self) -> &mut Options {
        &mut self.options
    }

    /// The entry function.
    pub fn entry<'py>(&self, py: Python<'py>) -> &Bound<'py, PyAny> {
        self.entry.bind(py)
    }

    /// How long each phase that ran took, in the order they ran.
    pub fn timings(&self) -> &[(Phase, Duration)] {
        &self.timings
    }

    /// Records the duration of a phase run elsewhere (the C backend's).
    pub(crate) fn record_timing(&mut self, phase: Phase, d: Duration) {
        self.timings.push((phase, d));
    }

    /// Runs `f` as phase `phase`, timed.
    pub(crate) fn phase<R>(
        &mut self,
        phase: Phase,
        f: impl FnOnce(&mut Self) -> Result<R, DriverError>,
    ) -> Result<R, DriverError> {
        let t0 = Instant::now();
        let result = f(self);
        self.timings.push((phase, t0.elapsed()));
        result
    }

    /// Flows and annotates everything reachable from the entry.
    pub fn annotate(&mut self, py: Python<'_>) -> Result<(), DriverError> {
        if self.annotated.is_none() {
            let result = self.run_annotate(py);
            self.annotated = Some(result);
        }
        self.annotated.clone().expect("annotated above")
    }

    fn run_annotate(&mut self, py: Python<'_>) -> Result<(), DriverError> {
        self.phase(Phase::Annotate, |t| {
            let mut ann = Annotator::new();
            let sargs = match t.args.take() {
                Some(EntryArgs::TypesOf(values)) => values
                    .iter()
                    .map(|v| type_annotation(&mut ann, py, v.bind(py)))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(DriverError::Argument)?,
                Some(EntryArgs::Argv) => vec![argv_annotation(&mut ann)],
                Some(EntryArgs::Custom(make)) => {
                    make(py, &mut ann).map_err(DriverError::Argument)?
                }
                None => return Err(DriverError::Run("internal error: annotated twice".into())),
            };
            let entry = ann.annotate(py, t.entry.bind(py), sargs);
            // kept after a failure too: what the annotator reached (the
            // calls that led to the error) is the diagnostic's
            t.annotator = Some(ann);
            t.entry_graph = Some(entry.map_err(DriverError::Annotate)?);
            Ok(())
        })
    }

    /// The annotator, once [`Translation::annotate`] ran (after a failure,
    /// as it stopped: its graphs and call sites say how the error was
    /// reached).
    pub fn annotator(&self) -> Option<&Annotator> {
        self.annotator.as_ref()
    }

    /// The annotator, mutably (the annotate backend takes its flow graphs).
    pub fn annotator_mut(&mut self) -> Option<&mut Annotator> {
        self.annotator.as_mut()
    }

    /// The entry's graph, once annotated.
    pub fn entry_graph(&self) -> Option<GraphId> {
        self.entry_graph
    }

    /// Annotates if needed, then checks that every variable of every
    /// reached graph has an annotation.
    pub fn annotated_completely(&mut self, py: Python<'_>) -> Result<&mut Annotator, DriverError> {
        self.annotate(py)?;
        let ann = self
            .annotator
            .as_mut()
            .expect("annotate() succeeded, so the annotator is there");
        let missing = ann.unannotated();
        if let Some(&(g, v)) = missing.first() {
            let graph = &ann.graphs[g].graph;
            return Err(DriverError::Unannotated {
                count: missing.len(),
                var: v.to_string(),
                function: graph.source.qualname.clone(),
                filename: graph.source.filename.clone(),
            });
        }
        Ok(ann)
    }

    /// The low-level program: annotated, rtyped and (when the options ask)
    /// verified.
    pub fn rtyped(&mut self, py: Python<'_>) -> Result<&LlProgram, DriverError> {
        if self.rtyped.is_none() {
            let result = self.run_rtype(py);
            self.rtyped = Some(result);
        }
        kept(&self.rtyped)
    }

    fn run_rtype(&mut self, py: Python<'_>) -> Result<LlProgram, DriverError> {
        self.annotate(py)?;
        let program = self.phase(Phase::Rtype, |t| {
            let entry = t.entry_graph.expect("annotated");
            let ann = t.annotator.as_mut().expect("annotated");
            rpy3_rtyper::rtype(py, ann, entry).map_err(DriverError::Rtype)
        })?;
        self.verify(py, "rtype", &program)?;
        Ok(program)
    }

    /// Runs the verifier of low-level graphs on `program`, made by
    /// `after`, if the options ask.
    fn verify(
        &mut self,
        py: Python<'_>,
        after: &'static str,
        program: &LlProgram,
    ) -> Result<(), DriverError> {
        if !self.options.verify {
            return Ok(());
        }
        self.phase(Phase::Verify(after), |_| {
            llverify::verify_program(py, program)
                .map_err(|error| DriverError::IllTyped { after, error })
        })
    }

    /// The low-level program after the preparation passes (each followed
    /// by the verifier), ready for a compiling backend.
    pub fn prepared(&mut self, py: Python<'_>) -> Result<&LlProgram, DriverError> {
        if self.prepared.is_none() {
            let result = self.run_transforms(py);
            self.prepared = Some(result);
        }
        kept(&self.prepared)
    }

    fn run_transforms(&mut self, py: Python<'_>) -> Result<LlProgram, DriverError> {
        let mut program = self.rtyped(py)?.clone();
        let mut passes = std::mem::take(&mut self.transforms);
        let mut result = Ok(());
        for pass in passes.iter_mut() {
            let name = pass.name();
            result = self
                .phase(Phase::Transform(name), |_| {
                    pass.run(py, &mut program)
                        .map_err(|message| DriverError::Transform {
                            pass: name,
                            message,
                        })
                })
                .and_then(|()| self.verify(py, name, &program));
            if result.is_err() {
                break;
            }
        }
        self.transforms = passes;
        result.map(|()| program)
    }

    /// The rtyped program loaded into the llinterp, ready to call.
    pub fn llinterp(&mut self, py: Python<'_>) -> Result<&mut LlinterpBackend, DriverError> {
        if self.llinterp.is_none() {
            let result = match self.rtyped(py) {
                Ok(program) => {
                    let program = program.clone();
                    self.phase(Phase::LoadLlinterp, |_| LlinterpBackend::new(py, &program))
                }
                Err(e) => Err(e),
            };
            self.llinterp = Some(result);
        }
        match self.llinterp.as_mut().expect("loaded above") {
            Ok(backend) => Ok(backend),
            Err(e) => Err(e.clone()),
        }
    }
}

/// A phase's kept outcome.
fn kept<T>(outcome: &Option<Result<T, DriverError>>) -> Result<&T, DriverError> {
    match outcome.as_ref().expect("the phase ran") {
        Ok(v) => Ok(v),
        Err(e) => Err(e.clone()),
    }
}
