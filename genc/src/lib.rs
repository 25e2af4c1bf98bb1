//! The C backend (PyPy's `translator/c/`): a program prepared by
//! `rpy3-prep` becomes one C file — type declarations, the prebuilt
//! objects as initialised static data, one C function per graph, the glue
//! the runtime calls (raising built-in exceptions, allocating strings, the
//! collector's type table) and `main` — compiled with the system `cc`
//! together with the runtime (`genc/runtime/`) into a standalone
//! executable.
//!
//! The C is free of undefined behaviour: signed arithmetic is compiled
//! with `-fwrapv`, every division, shift and conversion goes through a
//! runtime function defined for every input, and every array access is
//! checked (`IndexError`).

pub mod cases;
pub mod data;
pub mod funcs;
pub mod runtime;
pub mod types;
pub mod unicode;

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use pyo3::prelude::*;
use rpy3_model::lltype::{LlType, TypeDef};
use rpy3_model::program::LlProgram;
use rpy3_prep::Prepared;

use crate::data::{Data, TypeIds};
use crate::funcs::{c_string, func_name, FuncGen, Uses};
use crate::types::{field_name, parent_field_path, Types};

/// Why a program cannot be compiled.
#[derive(Debug, Clone, thiserror::Error)]
#[error("genc: {msg}")]
pub struct GencError {
    /// What is wrong.
    pub msg: String,
}

impl GencError {
    pub(crate) fn new(msg: impl Into<String>) -> GencError {
        GencError { msg: msg.into() }
    }
}

/// The collector and the core (shadow stack, stack check), compiled with
/// every program besides [`runtime::RUNTIME_SOURCES`].
pub const CORE_SOURCES: &[(&str, &str)] = &[("gc.c", include_str!("../runtime/gc.c"))];

/// The command line, as `main` hands it to `rpy_main_body` (the entry's
/// glue defines that body).
const MAIN_ARGS: &str = "struct rpy_main_args {\n    int argc;\n    char **argv;\n};\n\n";

/// `main`: the runtime set up, then `rpy_main_body` on a thread with a
/// large stack.
const MAIN: &str = "\n/* the depth of the program's own calls past which RecursionError (set by\n * sys.setrecursionlimit); not counted without RPY_RECURSION_LIMIT */\n#ifdef RPY_RECURSION_LIMIT\nlong rpy_recursion_limit = RPY_RECURSION_LIMIT;\n#else\nlong rpy_recursion_limit = -1;\n#endif\n\nint main(int argc, char **argv)\n{\n    struct rpy_main_args args = {argc, argv};\n    rpy_runtime_init();\n    return rpy_run_on_big_stack(rpy_main_body, &args);\n}\n";

/// How the executable starts.
#[derive(Clone, Debug)]
pub enum Entry {
    /// `entry_point(argv)`: `main` passes the command line as a list of
    /// str and exits with the result.
    Program,
    /// Test cases: `main` runs the case its argument numbers.
    Cases(Vec<cases::CaseCall>),
}

/// The C source of a prepared program.
pub struct CSource {
    /// The program's C file (it includes the runtime's files).
    pub text: String,
    /// What it uses of the optional parts of the runtime.
    pub uses: Uses,
}

/// Generates the C source of `prepared`.
pub fn generate(py: Python<'_>, prepared: &Prepared, entry: &Entry) -> Result<CSource, GencError> {
    let program = &prepared.program;
    let db = &prepared.db;
    let mut types = Types::default();
    let mut tids = TypeIds::default();
    let mut uses = Uses::default();
    let mut protos = String::new();
    let mut bodies = String::new();
    for i in 0..program.functions.len() {
        let mut fg = FuncGen::new(py, program, db, &mut types, &mut tids, &mut uses, i);
        fg.recursive = prepared.calls.recursive.get(i).copied().unwrap_or(true);
        let p = fg.prototype()?;
        let _ = writeln!(protos, "{p};");
        bodies.push_str(&fg.definition()?);
        bodies.push('\n');
    }
    let glue = Glue {
        types,
        tids,
        uses,
        protos,
        bodies,
        external: false,
        extra: String::new(),
    };
    assemble(program, db, entry, glue)
}

/// What a backend hands to [`assemble`]: the types and type ids its code
/// uses, the function prototypes and bodies (C), and whether the data and
/// functions are shared with another object file.
pub struct Glue {
    /// The C types seen so far.
    pub types: Types,
    /// The GC type ids given so far.
    pub tids: TypeIds,
    /// The optional parts of the runtime the code uses.
    pub uses: Uses,
    /// Declarations of the program's functions.
    pub protos: String,
    /// Definitions of the program's functions (empty when they live in
    /// another object file).
    pub bodies: String,
    /// The prebuilt objects have external linkage (`oK`), for code in
    /// another object file (the native backend) to reach them.
    pub external: bool,
    /// Text appended at the end (the native backend's layout checks).
    pub extra: String,
}

/// The C file of a program: declarations, static data, the functions of
/// `glue`, and the glue the runtime calls (`rpy_raise_builtin`, strings,
/// roots, `main`, the collector's type table).
pub fn assemble(
    program: &LlProgram,
    db: &rpy3_prep::Database,
    entry: &Entry,
    glue_in: Glue,
) -> Result<CSource, GencError> {
    let Glue {
        mut types,
        mut tids,
        uses,
        protos,
        bodies,
        external,
        extra,
    } = glue_in;
    let mut data = Data::new(program, db);
    data.external = external;
    data.emit(&mut types, &mut tids, &|i| func_name(i))?;
    let (data_types, data_decls, data_defs) = data.into_text();
    let mut glue = String::new();
    raise_builtin(program, db, &mut types, &mut tids, &mut glue)?;
    new_strings(&mut types, &mut tids, &mut glue)?;
    static_roots(program, db, &mut glue)?;
    glue.push_str(MAIN_ARGS);
    match entry {
        Entry::Program => program_main(program, &mut types, &mut tids, &mut glue)?,
        Entry::Cases(calls) => {
            let g = cases::CaseGlue::new(program, db).emit(&mut types, &mut tids, calls)?;
            glue.push_str(&g);
        }
    }
    glue.push_str(MAIN);
    let typeinfo = data::typeinfo_table(&mut types, &tids)?;
    let decls = types.declarations()?;
    let mut text = String::new();
    text.push_str("/* generated by rpy3 genc */\n");
    text.push_str("#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n");
    text.push_str("#include \"rpy3.h\"\n\n");
    text.push_str(&decls);
    text.push('\n');
    text.push_str(&data_types);
    text.push_str(&data_decls);
    text.push('\n');
    text.push_str(&protos);
    text.push('\n');
    text.push_str(&data_defs);
    text.push('\n');
    text.push_str(&bodies);
    text.push_str(&glue);
    text.push_str(&typeinfo);
    text.push_str(&extra);
    Ok(CSource { text, uses })
}

/// `rpy_raise_builtin`: a new instance of the program's class of each
/// built-in exception, made without collecting.
fn raise_builtin(
    program: &LlProgram,
    db: &rpy3_prep::Database,
    types: &mut Types,
    tids: &mut TypeIds,
    out: &mut String,
) -> Result<(), GencError> {
    const NAMES: [&str; 7] = [
        "ZeroDivisionError",
        "OverflowError",
        "ValueError",
        "IndexError",
        "MemoryError",
        "OSError",
        "RecursionError",
    ];
    out.push_str("void rpy_raise_builtin(enum rpy_builtin_exc which)\n{\n    switch (which) {\n");
    for (i, name) in NAMES.iter().enumerate() {
        let Some(cls) = program.exceptions.get(*name) else {
            continue;
        };
        let vt = Data::ptr_expr(db, &program.heap, types, &cls.vtable)?;
        types.aggregate(cls.instance)?;
        let tid = tids.id(cls.instance);
        let path = parent_field_path(cls.instance, "typeptr")
            .ok_or_else(|| GencError::new(format!("{name} instances do not start with object")))?;
        let vtp = types.ctype(program.objmodel.vtable_ptr)?;
        let _ = writeln!(
            out,
            "    case {i}: {{\n        struct t{} *e = rpy_gc_malloc_nocollect({tid});\n        if (e == NULL) rpy_fatal(\"out of memory raising {name}\");\n        e->{} = ({vtp}){vt};\n        rpy_exc_type = {vt};\n        rpy_exc_value = e;\n        return;\n    }}",
            cls.instance.index(),
            path,
        );
    }
    out.push_str("    default: break;\n    }\n    rpy_fatal(\"a built-in exception the program does not know was raised\");\n}\n\n");
    Ok(())
}

/// `rpy_new_string` and `rpy_new_bytes` for the runtime.
fn new_strings(types: &mut Types, tids: &mut TypeIds, out: &mut String) -> Result<(), GencError> {
    for (func, name) in [
        ("rpy_new_string", "rpy_string"),
        ("rpy_new_bytes", "rpy_bytes"),
    ] {
        match types.find_struct(name) {
            Some(t) => {
                let tid = tids.id(t);
                let _ = writeln!(
                    out,
                    "_Static_assert(offsetof(struct t{0}, f_chars_items) == offsetof(struct rpy_string, chars), \"{name} layout\");\n\
                     struct rpy_string *{func}(rpy_Signed length)\n{{\n    return rpy_gc_malloc_varsize({tid}, length);\n}}\n",
                    t.index()
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "struct rpy_string *{func}(rpy_Signed length)\n{{\n    (void)length;\n    rpy_fatal(\"the program has no {name} type\");\n}}\n"
                );
            }
        }
    }
    Ok(())
}

/// The prebuilt GC objects, for the collector.
fn static_roots(
    program: &LlProgram,
    db: &rpy3_prep::Database,
    out: &mut String,
) -> Result<(), GencError> {
    let mut roots = Vec::new();
    for (k, &obj) in db.objects.iter().enumerate() {
        let o = program
            .heap
            .object_at(obj)
            .ok_or_else(|| GencError::new(format!("object #{obj} does not exist")))?;
        if o.ty.is_gc() {
            roots.push(format!("(void *)&o{k}"));
        }
    }
    let n = roots.len();
    if roots.is_empty() {
        roots.push("NULL".into());
    }
    let _ = writeln!(
        out,
        "void *const rpy_static_gc[] = {{{}}};\nconst size_t rpy_static_gc_count = {n};\n",
        roots.join(", ")
    );
    Ok(())
}

/// `main` for `entry_point(argv)`.
fn program_main(
    program: &LlProgram,
    types: &mut Types,
    tids: &mut TypeIds,
    out: &mut String,
) -> Result<(), GencError> {
    let f = &program.functions[program.entry];
    let TypeDef::Func { args, result } = f.ty.def() else {
        return Err(GencError::new("the entry is not a function"));
    };
    let bad = || {
        GencError::new(format!(
            "entry_point must take a list of str, not {:?}",
            args
        ))
    };
    let [list_ptr] = args.as_slice() else {
        return Err(bad());
    };
    let list = list_ptr.target().ok_or_else(bad)?;
    let items_ptr = list.field_type("items").ok_or_else(bad)?;
    let items = items_ptr.target().ok_or_else(bad)?;
    let str_ptr = items.varsize_item().ok_or_else(bad)?;
    let string = str_ptr.target().ok_or_else(bad)?;
    if !matches!(string.def(), TypeDef::Struct { ref name, .. } if name == "rpy_string") {
        return Err(bad());
    }
    types.aggregate(list)?;
    types.aggregate(string)?;
    let (lt, it) = (tids.id(list), tids.id(items));
    tids.id(string);
    let status = if result.primitive().is_some() && crate::types::is_value(result) {
        "(int)status"
    } else {
        "0"
    };
    let call = if crate::types::is_value(result) {
        format!(
            "{} status = {}(l);",
            types.ctype(result)?,
            func_name(program.entry as u32)
        )
    } else {
        format!("{}(l);", func_name(program.entry as u32))
    };
    let vt = program.objmodel.vtable;
    types.aggregate(vt)?;
    let name_field = field_name("name");
    // the text of the exception's arguments, when the program keeps it
    // (`rpy3_rtyper`'s exception messages)
    let message_field = format!("inst_{}", rpy3_model::program::EXC_MESSAGE_ATTR);
    let mut message = String::new();
    if let Some(base) = program.exceptions.get("BaseException") {
        if let Some(path) = crate::types::parent_field_path(base.instance, &message_field) {
            types.aggregate(base.instance)?;
            let bt = base.instance.index();
            let _ = write!(
                message,
                "struct rpy_string *msg = (struct rpy_string *)((struct t{bt} *)rpy_exc_value)->{path};\n        \
                 if (msg != NULL && msg->length > 0) {{ fputs(\": \", stderr); rpy_ext_stream_write(2, msg); rpy_ext_stream_flush(2); }}"
            );
        }
    }
    let _ = writeln!(
        out,
        r#"/* a str of the bytes of a command-line argument: UTF-8, other bytes as
   lone surrogates (Python's surrogateescape) */
static struct rpy_string *rpy_arg_string(const char *s)
{{
    size_t n = strlen(s);
    rpy_UniChar *buf = malloc((n + 1) * sizeof(rpy_UniChar));
    if (buf == NULL) rpy_fatal("out of memory");
    size_t k = 0;
    for (size_t i = 0; i < n;) {{
        unsigned char c = (unsigned char)s[i];
        uint32_t cp = 0;
        size_t len = 0;
        if (c < 0x80) {{ cp = c; len = 1; }}
        else if ((c & 0xe0) == 0xc0) {{ cp = c & 0x1f; len = 2; }}
        else if ((c & 0xf0) == 0xe0) {{ cp = c & 0x0f; len = 3; }}
        else if ((c & 0xf8) == 0xf0) {{ cp = c & 0x07; len = 4; }}
        int ok = len > 0 && i + len <= n;
        for (size_t j = 1; ok && j < len; j++) {{
            unsigned char d = (unsigned char)s[i + j];
            if ((d & 0xc0) != 0x80) ok = 0; else cp = (cp << 6) | (d & 0x3f);
        }}
        if (ok && ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp < 0xe000)))
            ok = 0;
        if (ok) {{ buf[k++] = cp; i += len; }}
        else {{ buf[k++] = 0xdc00 + c; i += 1; }}
    }}
    struct rpy_string *r = rpy_new_string((rpy_Signed)k);
    if (r == NULL) rpy_fatal("out of memory");
    memcpy(r->chars, buf, k * sizeof(rpy_UniChar));
    free(buf);
    return r;
}}

static int rpy_main_body(void *p)
{{
    int argc = ((struct rpy_main_args *)p)->argc;
    char **argv = ((struct rpy_main_args *)p)->argv;
    char base;
    rpy_gc_init(&base);
    struct t{li} *l = rpy_gc_malloc({lt});
    if (l == NULL) rpy_fatal("out of memory");
    rpy_ss_top[0] = l; rpy_ss_top++;
    struct t{ii} *items = rpy_gc_malloc_varsize({it}, argc);
    if (items == NULL) rpy_fatal("out of memory");
    l->f_length = argc;
    l->f_items = items;
    for (int i = 0; i < argc; i++) {{
        struct rpy_string *s = rpy_arg_string(argv[i]);
        items->items[i] = (struct t{si} *)s;
    }}
    {call}
    rpy_ss_top--;
    if (rpy_exc_type != NULL) {{
        struct t{vti} *vt = rpy_exc_type;
        /* on stderr at once, before stdout's buffered text, as CPython */
        rpy_ext_stream_flush(2);
        fputs("Fatal error: ", stderr);
        if (vt->{name_field} != NULL)
            fwrite(vt->{name_field}->items, 1, (size_t)vt->{name_field}->length, stderr);
        {message}
        fputs("\n", stderr);
        rpy_exit(1);
    }}
    rpy_exit({status});
}}
"#,
        li = list.index(),
        ii = items.index(),
        si = string.index(),
        vti = vt.index(),
    );
    Ok(())
}

/// Options of a build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// `-O2` (false: `-O0`, for quick test builds).
    pub optimize: bool,
    /// Collect at every allocation.
    pub gc_stress: bool,
    /// Extra flags for `cc` (sanitizers...).
    pub cflags: Vec<String>,
    /// Compile with `-Wall -Wextra -Werror` (tests: the C must be
    /// warning-free); otherwise warnings are not shown.
    pub strict_warnings: bool,
    /// Keep the C sources in this directory (else a temporary one).
    pub keep_dir: Option<PathBuf>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            optimize: true,
            gc_stress: false,
            cflags: Vec::new(),
            strict_warnings: false,
            keep_dir: None,
        }
    }
}

/// The flags every C file of a build is compiled with.
pub fn cflags(opts: &BuildOptions) -> Vec<String> {
    let mut f: Vec<String> = [
        "-std=gnu11",
        if opts.optimize { "-O2" } else { "-O0" },
        "-fwrapv",
        "-fno-strict-aliasing",
        // a recursion turned into a loop would never reach its stack check
        "-fno-optimize-sibling-calls",
        if opts.strict_warnings { "-Wall" } else { "-w" },
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if opts.strict_warnings {
        f.extend(["-Wextra".into(), "-Werror".into()]);
    }
    if opts.gc_stress {
        f.push("-DRPY_GC_STRESS".into());
    }
    f.extend(opts.cflags.iter().cloned());
    f
}

/// The directory where compiled runtimes are kept between builds:
/// `$RPY3_CACHE_DIR`, else `$XDG_CACHE_HOME/rpy3`, else `~/.cache/rpy3`.
fn cache_root() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("RPY3_CACHE_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("rpy3"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache").join("rpy3"))
}

/// The runtime's object files for these flags, compiled once and kept in
/// the cache (keyed by the sources, the compiler and the flags).
pub fn runtime_objects(flags: &[String], unicodedb: bool) -> Result<Vec<PathBuf>, GencError> {
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    // (name, the text's cache key, the text when it is at hand)
    let mut sources: Vec<(String, String, Option<String>)> = CORE_SOURCES
        .iter()
        .chain(runtime::RUNTIME_SOURCES)
        .map(|(n, t)| (n.to_string(), t.to_string(), Some(t.to_string())))
        .collect();
    if unicodedb {
        // generating the tables takes a while: the generator and the
        // model's database (of this build) key them
        let key = format!(
            "{}{}",
            include_str!("unicode.rs"),
            include_str!("../../model/src/unicodedb.rs").len()
        );
        sources.push(("unicodedb.c".into(), key, None));
    }
    let mut h = DefaultHasher::new();
    runtime::HEADER.1.hash(&mut h);
    cc().hash(&mut h);
    flags.hash(&mut h);
    let key = h.finish();
    let root =
        cache_root().ok_or_else(|| GencError::new("no cache directory (set RPY3_CACHE_DIR)"))?;
    let dir = root.join(format!("runtime-{key:016x}"));
    let io =
        |e: std::io::Error| GencError::new(format!("the runtime cache {}: {e}", dir.display()));
    std::fs::create_dir_all(&dir).map_err(io)?;
    std::fs::write(dir.join(runtime::HEADER.0), runtime::HEADER.1).map_err(io)?;
    let mut objects = Vec::new();
    for (name, key, text) in sources {
        let mut hs = DefaultHasher::new();
        key.hash(&mut hs);
        let obj = dir.join(format!(
            "{}-{:016x}.o",
            name.trim_end_matches(".c"),
            hs.finish()
        ));
        if !obj.exists() {
            // compile in a private directory, then rename: builds running
            // in parallel never see a half-written object
            let work = tempfile::tempdir_in(&dir).map_err(io)?;
            let src = work.path().join(&name);
            let text = text.unwrap_or_else(unicode::unicodedb_c_source);
            std::fs::write(&src, &text).map_err(io)?;
            std::fs::write(work.path().join(runtime::HEADER.0), runtime::HEADER.1).map_err(io)?;
            let tmp_obj = work.path().join("out.o");
            run_cc(
                Command::new(cc())
                    .args(flags)
                    .arg("-c")
                    .arg(&src)
                    .arg("-o")
                    .arg(&tmp_obj),
            )?;
            std::fs::rename(&tmp_obj, &obj).map_err(io)?;
        }
        objects.push(obj);
    }
    Ok(objects)
}

/// Runs the C compiler (or linker); its errors, shortened.
pub fn run_cc(cmd: &mut Command) -> Result<(), GencError> {
    let output = cmd
        .output()
        .map_err(|e| GencError::new(format!("running {}: {e}", cc())))?;
    if !output.status.success() {
        let err = String::from_utf8_lossy(&output.stderr);
        let head: String = err.lines().take(30).collect::<Vec<_>>().join("\n");
        return Err(GencError::new(format!("the C compiler failed:\n{head}")));
    }
    Ok(())
}

/// Writes `source`, the runtime and its header into `dir` (the Unicode
/// tables are compiled from the cache); returns the program's C file.
pub fn write_sources(dir: &Path, source: &CSource) -> Result<PathBuf, GencError> {
    let io = |e: std::io::Error| GencError::new(format!("writing the C sources: {e}"));
    let (hname, htext) = runtime::HEADER;
    std::fs::write(dir.join(hname), htext).map_err(io)?;
    for (name, body) in CORE_SOURCES.iter().chain(runtime::RUNTIME_SOURCES) {
        std::fs::write(dir.join(name), body).map_err(io)?;
    }
    let main = dir.join("program.c");
    std::fs::write(&main, &source.text).map_err(io)?;
    Ok(main)
}

/// The C compiler: `$CC`, else `cc`.
pub fn cc() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".into())
}

/// Compiles `source` into the executable `out` (the runtime's objects
/// come from the cache).
pub fn build(source: &CSource, out: &Path, opts: &BuildOptions) -> Result<(), GencError> {
    let tmp;
    let dir = match &opts.keep_dir {
        Some(d) => {
            std::fs::create_dir_all(d)
                .map_err(|e| GencError::new(format!("creating {}: {e}", d.display())))?;
            d.clone()
        }
        None => {
            tmp = tempfile::tempdir().map_err(|e| GencError::new(e.to_string()))?;
            tmp.path().to_path_buf()
        }
    };
    let main = write_sources(&dir, source)?;
    let flags = cflags(opts);
    let objects = runtime_objects(&flags, source.uses.unicodedb)?;
    run_cc(
        Command::new(cc())
            .args(&flags)
            .arg("-I")
            .arg(&dir)
            .arg(&main)
            .args(&objects)
            .arg("-o")
            .arg(out)
            .args(runtime::LINK_LIBS),
    )
}

/// The low-level type of the result of the entry function.
pub fn entry_result(program: &LlProgram) -> Option<LlType> {
    match program.functions.get(program.entry)?.ty.def() {
        TypeDef::Func { result, .. } => Some(result),
        _ => None,
    }
}

/// A C string literal (for tests and glue).
pub fn c_literal(s: &str) -> String {
    c_string(s)
}
