//! The native backend: each prepared low-level graph lowered to Cranelift
//! IR (`lower.rs`), verified, compiled into one object file with
//! `cranelift-object`, and linked by the system `cc` with the runtime genc
//! uses (`genc/runtime/`, the same cached objects).
//!
//! The static data of the database (prebuilt objects, the collector's
//! type table) and the per-program glue the runtime calls (`main`,
//! `rpy_raise_builtin`, new strings, static roots, case dispatch) are, as
//! a first step, genc's C for them, compiled at `-O0` into a second object
//! file: the native code reaches the prebuilt objects `oK` by symbol, the
//! glue reaches the native functions `fN` the same way.  The byte layout
//! the native code assumes (`layout.rs`) is asserted in that C file
//! (`_Static_assert` of every offset it uses), so the two never disagree
//! silently.

pub mod layout;
pub mod lower;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use cranelift_codegen::ir::Signature;
use cranelift_codegen::isa::{CallConv, OwnedTargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::FunctionBuilderContext;
use cranelift_module::{DataDescription, DataId, FuncId, Linkage, Module};
use cranelift_object::{ObjectBuilder, ObjectModule};
use pyo3::prelude::*;
use rpy3_genc::data::TypeIds;
use rpy3_genc::funcs::{counts_recursion, FuncGen, Uses};
use rpy3_genc::types::Types;
use rpy3_genc::{CSource, Entry, Glue};
use rpy3_model::lltype::{LlType, Ptr};
use rpy3_model::program::LlProgram;
use rpy3_prep::Prepared;

use crate::layout::{Layout, Layouts};

/// Why a program cannot be compiled natively.
#[derive(Debug, Clone, thiserror::Error)]
#[error("native: {msg}")]
pub struct NativeError {
    /// What is wrong.
    pub msg: String,
}

impl NativeError {
    pub(crate) fn new(msg: impl Into<String>) -> NativeError {
        NativeError { msg: msg.into() }
    }
}

impl From<rpy3_genc::GencError> for NativeError {
    fn from(e: rpy3_genc::GencError) -> Self {
        NativeError::new(e.msg)
    }
}

/// Options of a native build.
#[derive(Clone, Debug, Default)]
pub struct NativeOptions {
    /// Cranelift's `speed` optimisation level (false: `none`).
    pub optimize: bool,
    /// Collect at every allocation (the runtime built with
    /// `RPY_GC_STRESS`).
    pub gc_stress: bool,
    /// Count the program's own frames and raise `RecursionError` past
    /// this depth, as CPython does (the case runner sets it).
    pub recursion_limit: Option<usize>,
    /// Write the IR of every function (`fN.clif`) into this directory.
    pub emit_clif: Option<PathBuf>,
    /// Keep the object file and the C glue in this directory.
    pub keep_dir: Option<PathBuf>,
}

/// The state shared by the lowering of every function: the module being
/// built, the symbols declared, the layouts and the glue's type tables.
pub struct Codegen<'p> {
    pub module: ObjectModule,
    pub call_conv: CallConv,
    /// The program's functions, by index.
    pub func_ids: Vec<FuncId>,
    program: &'p LlProgram,
    db: &'p rpy3_prep::Database,
    layouts: Layouts,
    /// The C types the glue must declare.
    pub types: Types,
    /// The GC type ids.
    pub tids: TypeIds,
    pub uses_unicodedb: bool,
    /// The runtime collects at every allocation: no inline fast path.
    pub gc_stress: bool,
    imports: HashMap<String, FuncId>,
    globals: HashMap<String, DataId>,
    objects: HashMap<usize, DataId>,
    strings: HashMap<String, DataId>,
}

impl<'p> Codegen<'p> {
    /// The program (alive for the whole code generation).
    pub fn program(&self) -> &'p LlProgram {
        self.program
    }

    fn db(&self) -> &'p rpy3_prep::Database {
        self.db
    }

    /// The layout of struct or array `t` (declared for the glue too).
    pub fn layout(&mut self, t: LlType) -> Result<Layout, NativeError> {
        self.types.aggregate(t)?;
        self.layouts.of(t).cloned()
    }

    /// A function of the runtime (declared on first use).
    pub fn import(&mut self, name: &str, sig: Signature) -> Result<FuncId, NativeError> {
        if let Some(&id) = self.imports.get(name) {
            return Ok(id);
        }
        let id = self
            .module
            .declare_function(name, Linkage::Import, &sig)
            .map_err(|e| NativeError::new(format!("declaring {name}: {e}")))?;
        self.imports.insert(name.to_string(), id);
        Ok(id)
    }

    /// A global variable of the runtime.
    pub fn global(&mut self, name: &str) -> Result<DataId, NativeError> {
        if let Some(&id) = self.globals.get(name) {
            return Ok(id);
        }
        let id = self
            .module
            .declare_data(name, Linkage::Import, true, false)
            .map_err(|e| NativeError::new(format!("declaring {name}: {e}")))?;
        self.globals.insert(name.to_string(), id);
        Ok(id)
    }

    /// A NUL-terminated string in the object's read-only data.
    pub fn c_string(&mut self, s: &str) -> Result<DataId, NativeError> {
        if let Some(&id) = self.strings.get(s) {
            return Ok(id);
        }
        let id = self
            .module
            .declare_anonymous_data(false, false)
            .map_err(|e| NativeError::new(e.to_string()))?;
        let mut d = DataDescription::new();
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        d.define(bytes.into_boxed_slice());
        self.module
            .define_data(id, &d)
            .map_err(|e| NativeError::new(e.to_string()))?;
        self.strings.insert(s.to_string(), id);
        Ok(id)
    }

    /// The symbol of the prebuilt object `p` points into, and the byte
    /// offset of what it points to (genc's `Data::ptr_expr`).
    pub fn prebuilt(&mut self, p: &Ptr) -> Result<(DataId, u64), NativeError> {
        let k =
            *self.db().index.get(&p.obj).ok_or_else(|| {
                NativeError::new(format!("object #{} is not in the database", p.obj))
            })?;
        let oty = self
            .program()
            .heap
            .object_at(p.obj)
            .ok_or_else(|| NativeError::new(format!("object #{} does not exist", p.obj)))?
            .ty;
        self.layout(oty)?;
        self.types.aggregate(p.ty)?;
        let off = if p.item == 0 {
            self.layouts
                .slot_offset(oty, p.offset as usize, p.ty)
                .ok_or_else(|| {
                    NativeError::new(format!(
                        "no member of {oty} at slot {} is a {}",
                        p.offset, p.ty
                    ))
                })?
        } else {
            let item = oty
                .varsize_item()
                .ok_or_else(|| NativeError::new(format!("{oty} has no items")))?;
            let (_, iofs, isize) = self
                .layout(oty)?
                .varsize
                .ok_or_else(|| NativeError::new(format!("{oty} is not varsize")))?;
            let inner = self
                .layouts
                .slot_offset(item, p.offset as usize, p.ty)
                .ok_or_else(|| {
                    NativeError::new(format!(
                        "no member of {item} at slot {} is a {}",
                        p.offset, p.ty
                    ))
                })?;
            iofs + u64::from(p.item - 1) * isize + inner
        };
        let id = match self.objects.get(&k) {
            Some(&id) => id,
            None => {
                let id = self
                    .module
                    .declare_data(&format!("o{k}"), Linkage::Import, true, false)
                    .map_err(|e| NativeError::new(format!("declaring o{k}: {e}")))?;
                self.objects.insert(k, id);
                id
            }
        };
        Ok((id, off))
    }
}

/// The target machine, with the optimisation level of `opts`.
fn isa(opts: &NativeOptions) -> Result<OwnedTargetIsa, NativeError> {
    let mut flags = settings::builder();
    let set = |f: &mut settings::Builder, k: &str, v: &str| {
        f.set(k, v)
            .map_err(|e| NativeError::new(format!("setting {k}: {e}")))
    };
    set(
        &mut flags,
        "opt_level",
        if opts.optimize { "speed" } else { "none" },
    )?;
    set(&mut flags, "is_pic", "true")?;
    set(&mut flags, "enable_verifier", "true")?;
    let builder = cranelift_native::builder()
        .map_err(|e| NativeError::new(format!("this machine is not supported: {e}")))?;
    builder
        .finish(settings::Flags::new(flags))
        .map_err(|e| NativeError::new(format!("the target: {e}")))
}

/// A program compiled to an object file, with its C glue.
pub struct NativeOutput {
    /// The object file of the code.
    pub object: Vec<u8>,
    /// The C glue and data.
    pub glue: CSource,
    /// The IR of every function (name, text), when asked for.
    pub clif: Vec<(String, String)>,
}

/// Lowers every function of `prepared` and emits the object file and the
/// glue.
pub fn generate(
    py: Python<'_>,
    prepared: &Prepared,
    entry: &Entry,
    opts: &NativeOptions,
) -> Result<NativeOutput, NativeError> {
    let program = &prepared.program;
    let isa = isa(opts)?;
    let call_conv = isa.default_call_conv();
    let builder = ObjectBuilder::new(isa, "rpy3", cranelift_module::default_libcall_names())
        .map_err(|e| NativeError::new(e.to_string()))?;
    let mut cg = Codegen {
        module: ObjectModule::new(builder),
        call_conv,
        func_ids: Vec::new(),
        program,
        db: &prepared.db,
        layouts: Layouts::default(),
        types: Types::default(),
        tids: TypeIds::default(),
        uses_unicodedb: false,
        gc_stress: opts.gc_stress,
        imports: HashMap::new(),
        globals: HashMap::new(),
        objects: HashMap::new(),
        strings: HashMap::new(),
    };
    let mut sigs = Vec::new();
    for (i, f) in program.functions.iter().enumerate() {
        let sig = lower::graph_signature(&cg, &f.graph)?;
        let id = lower::declare(&mut cg, i, &sig)?;
        cg.func_ids.push(id);
        sigs.push(sig);
    }
    let mut clif = Vec::new();
    let mut ctx = cg.module.make_context();
    let mut fbc = FunctionBuilderContext::new();
    let mut bodies = Vec::new();
    for (i, f) in program.functions.iter().enumerate() {
        ctx.func.signature = sigs[i].clone();
        ctx.func.name = cranelift_codegen::ir::UserFuncName::user(0, i as u32);
        let counted = match opts.recursion_limit {
            Some(n) if counts_recursion(py, &f.graph) => Some(n as i64),
            _ => None,
        };
        {
            let b = cranelift_frontend::FunctionBuilder::new(&mut ctx.func, &mut fbc);
            lower::FnLower::new(py, &mut cg, b, &f.graph, i, counted).lower()?;
        }
        if let Err(errors) = cranelift_codegen::verify_function(&ctx.func, cg.module.isa()) {
            let text =
                cranelift_codegen::print_errors::pretty_verifier_error(&ctx.func, None, errors);
            return Err(NativeError::new(format!(
                "{}: the Cranelift verifier refused the IR:\n{text}",
                f.name
            )));
        }
        if opts.emit_clif.is_some() {
            clif.push((
                format!("f{i}"),
                format!("; {}\n{}", f.name, ctx.func.display()),
            ));
        }
        bodies.push(std::mem::replace(
            &mut ctx.func,
            cranelift_codegen::ir::Function::new(),
        ));
    }
    // small functions off the call graph's cycles are inlined, as genc
    // has the C compiler do
    let inlinable: Vec<bool> = program
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let g = &f.graph;
            let size: usize = g
                .iterblocks()
                .iter()
                .map(|&b| g.blocks[b].operations.len())
                .sum();
            !prepared.calls.recursive.get(i).copied().unwrap_or(true)
                && size <= rpy3_genc::funcs::INLINE_OPS
        })
        .collect();
    let by_id: HashMap<u32, usize> = cg
        .func_ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_u32(), i))
        .collect();
    for (i, body) in bodies.iter().enumerate() {
        ctx.func = body.clone();
        if opts.optimize {
            let inliner = Inliner {
                bodies: &bodies,
                inlinable: &inlinable,
                by_id: &by_id,
            };
            ctx.inline(inliner).map_err(|e| {
                NativeError::new(format!("{}: inlining: {e:?}", program.functions[i].name))
            })?;
        }
        cg.module
            .define_function(cg.func_ids[i], &mut ctx)
            .map_err(|e| {
                NativeError::new(format!("{}: compiling: {e:?}", program.functions[i].name))
            })?;
        cg.module.clear_context(&mut ctx);
    }
    // the glue: genc's declarations of the functions, its data and main
    let mut types = std::mem::take(&mut cg.types);
    let mut tids = std::mem::take(&mut cg.tids);
    let mut uses = Uses {
        unicodedb: cg.uses_unicodedb,
    };
    let mut protos = String::new();
    for i in 0..program.functions.len() {
        let mut fg = FuncGen::new(
            py,
            program,
            &prepared.db,
            &mut types,
            &mut tids,
            &mut uses,
            i,
        );
        fg.external = true;
        protos.push_str(&fg.prototype()?);
        protos.push_str(";\n");
    }
    let extra = cg.layouts.assertions();
    let glue = rpy3_genc::assemble(
        program,
        &prepared.db,
        entry,
        Glue {
            types,
            tids,
            uses,
            protos,
            bodies: String::new(),
            external: true,
            extra,
        },
    )?;
    let product = cg.module.finish();
    let object = product
        .emit()
        .map_err(|e| NativeError::new(format!("writing the object file: {e}")))?;
    if let Some(dir) = &opts.emit_clif {
        std::fs::create_dir_all(dir)
            .map_err(|e| NativeError::new(format!("creating {}: {e}", dir.display())))?;
        for (name, text) in &clif {
            std::fs::write(dir.join(format!("{name}.clif")), text)
                .map_err(|e| NativeError::new(format!("writing {name}.clif: {e}")))?;
        }
    }
    Ok(NativeOutput { object, glue, clif })
}

/// Chooses the calls Cranelift inlines: direct calls of the program's
/// small non-recursive functions.
struct Inliner<'a> {
    bodies: &'a [cranelift_codegen::ir::Function],
    inlinable: &'a [bool],
    /// Program function index of each declared function id.
    by_id: &'a HashMap<u32, usize>,
}

impl cranelift_codegen::inline::Inline for Inliner<'_> {
    fn inline(
        &mut self,
        caller: &cranelift_codegen::ir::Function,
        _inst: cranelift_codegen::ir::Inst,
        _opcode: cranelift_codegen::ir::Opcode,
        callee: cranelift_codegen::ir::FuncRef,
        _args: &[cranelift_codegen::ir::Value],
    ) -> cranelift_codegen::inline::InlineCommand<'_> {
        use cranelift_codegen::inline::InlineCommand;
        use cranelift_codegen::ir::ExternalName;
        let ExternalName::User(r) = caller.dfg.ext_funcs[callee].name else {
            return InlineCommand::KeepCall;
        };
        let name = &caller.params.user_named_funcs()[r];
        if name.namespace != 0 {
            return InlineCommand::KeepCall;
        }
        match self.by_id.get(&name.index) {
            Some(&i) if self.inlinable[i] => InlineCommand::Inline {
                callee: std::borrow::Cow::Owned(symbols_renamed_for(caller, &self.bodies[i])),
                visit_callee: true,
            },
            _ => InlineCommand::KeepCall,
        }
    }
}

/// A copy of `callee` whose symbol global values name the caller's
/// references to the same names.  Cranelift's inliner (0.135) copies
/// `symbol` global values as they are, their name references still
/// indexing the callee's table of names, while it adds the callee's names
/// to the caller's table (each name once, new ones at the end, in the
/// callee's order); the caller's references are therefore known here.
fn symbols_renamed_for(
    caller: &cranelift_codegen::ir::Function,
    callee: &cranelift_codegen::ir::Function,
) -> cranelift_codegen::ir::Function {
    use cranelift_codegen::ir::{ExternalName, GlobalValueData, UserExternalNameRef};
    let existing: HashMap<_, _> = caller
        .params
        .user_named_funcs()
        .iter()
        .map(|(r, n)| (n.clone(), r))
        .collect();
    let mut next = caller.params.user_named_funcs().len() as u32;
    let mut map = HashMap::new();
    for (r, name) in callee.params.user_named_funcs().iter() {
        let to = match existing.get(name) {
            Some(&c) => c,
            None => {
                next += 1;
                UserExternalNameRef::from_u32(next - 1)
            }
        };
        map.insert(r, to);
    }
    let mut copy = callee.clone();
    for gv in copy.global_values.values_mut() {
        if let GlobalValueData::Symbol {
            name: ExternalName::User(r),
            ..
        } = gv
        {
            if let Some(&to) = map.get(r) {
                *r = to;
            }
        }
    }
    copy
}

/// Links `output` with the runtime into the executable `out`.
pub fn link(output: &NativeOutput, out: &Path, opts: &NativeOptions) -> Result<(), NativeError> {
    let tmp;
    let dir = match &opts.keep_dir {
        Some(d) => {
            std::fs::create_dir_all(d)
                .map_err(|e| NativeError::new(format!("creating {}: {e}", d.display())))?;
            d.clone()
        }
        None => {
            tmp = tempfile::tempdir().map_err(|e| NativeError::new(e.to_string()))?;
            tmp.path().to_path_buf()
        }
    };
    let io = |e: std::io::Error| NativeError::new(format!("writing the objects: {e}"));
    let obj = dir.join("program-native.o");
    std::fs::write(&obj, &output.object).map_err(io)?;
    let glue = rpy3_genc::write_sources(&dir, &output.glue)?;
    // the runtime as genc builds it (-O2, shared cache); the glue at -O0
    let runtime_opts = rpy3_genc::BuildOptions {
        optimize: true,
        gc_stress: opts.gc_stress,
        ..Default::default()
    };
    let objects = rpy3_genc::runtime_objects(
        &rpy3_genc::cflags(&runtime_opts),
        output.glue.uses.unicodedb,
    )?;
    let glue_opts = rpy3_genc::BuildOptions {
        optimize: false,
        gc_stress: opts.gc_stress,
        // the glue defines the limit the counting functions read
        cflags: opts
            .recursion_limit
            .map(|n| format!("-DRPY_RECURSION_LIMIT={n}"))
            .into_iter()
            .collect(),
        ..Default::default()
    };
    rpy3_genc::run_cc(
        Command::new(rpy3_genc::cc())
            .args(rpy3_genc::cflags(&glue_opts))
            .arg("-I")
            .arg(&dir)
            .arg(&glue)
            .arg(&obj)
            .args(&objects)
            .arg("-o")
            .arg(out)
            .args(rpy3_genc::runtime::LINK_LIBS),
    )?;
    Ok(())
}

/// Generates and links in one step.
pub fn build(
    py: Python<'_>,
    prepared: &Prepared,
    entry: &Entry,
    out: &Path,
    opts: &NativeOptions,
) -> Result<(), NativeError> {
    let output = generate(py, prepared, entry, opts)?;
    link(&output, out, opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_codegen::ir::{
        ExternalName, Function, GlobalValueData, UserExternalName, UserExternalNameRef,
    };

    fn symbol(f: &mut Function, namespace: u32, index: u32) -> cranelift_codegen::ir::GlobalValue {
        let r = f.declare_imported_user_function(UserExternalName { namespace, index });
        f.create_global_value(GlobalValueData::Symbol {
            name: ExternalName::user(r),
            offset: 0.into(),
            colocated: false,
            tls: false,
        })
    }

    #[test]
    fn inlined_symbols_name_the_callers_references() {
        let mut caller = Function::new();
        symbol(&mut caller, 0, 5);
        let mut callee = Function::new();
        let b = symbol(&mut callee, 1, 7);
        let a = symbol(&mut callee, 0, 5);
        let copy = symbols_renamed_for(&caller, &callee);
        let name = |gv| match copy.global_values[gv] {
            GlobalValueData::Symbol {
                name: ExternalName::User(r),
                ..
            } => r,
            _ => panic!("not a symbol"),
        };
        // (1, 7) is new to the caller: the inliner appends it after (0, 5)
        assert_eq!(name(b), UserExternalNameRef::from_u32(1));
        // (0, 5) is the caller's first name
        assert_eq!(name(a), UserExternalNameRef::from_u32(0));
        // the callee's own table is left as it was, for the inliner
        assert_eq!(copy.params.user_named_funcs().len(), 2);
    }
}
