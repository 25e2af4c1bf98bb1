//! The llinterp backend: the rtyped program loaded into the llinterp,
//! its entry called with Python values, which cross the boundary by their
//! low-level types (ints, floats, bools, strs, bytes, tuples and lists of
//! those).

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString, PyTuple, PyType};
use rpy3_llinterp::{LlInterp, LlOutcome};
use rpy3_model::lltype::{self, LlType, LlValue, Ptr, TypeDef};
use rpy3_model::program::LlProgram;

use crate::DriverError;

/// How a call of the entry function ended, in Python terms.
#[derive(Debug)]
pub enum Outcome {
    /// It returned this value.
    Value(Py<PyAny>),
    /// It raised an exception of this class.
    Raised(Py<PyType>),
}

/// The program loaded into the llinterp, with its entry function.
pub struct LlinterpBackend {
    interp: LlInterp,
    entry: usize,
    arg_types: Vec<LlType>,
    result_type: LlType,
}

impl LlinterpBackend {
    /// Loads `program` into the llinterp.  Nested calls are limited as
    /// CPython limits the reference run (and the flow backend), so the
    /// same programs raise `RecursionError`.
    pub fn new(py: Python<'_>, program: &LlProgram) -> Result<LlinterpBackend, DriverError> {
        let mut interp = LlInterp::new(py, program).map_err(DriverError::LlinterpLoad)?;
        if let Ok(limit) = py.import("sys").and_then(|sys| {
            sys.getattr("getrecursionlimit")?
                .call0()?
                .extract::<usize>()
        }) {
            interp.set_user_recursion_limit(Some(limit));
        }
        let graph = &program.functions[program.entry].graph;
        let arg_types = graph.blocks[graph.startblock]
            .inputargs
            .iter()
            .map(|&v| graph.vars[v].concretetype.unwrap_or(lltype::VOID))
            .collect();
        let rv = graph.blocks[graph.returnblock].inputargs[0];
        let result_type = graph.vars[rv].concretetype.unwrap_or(lltype::VOID);
        Ok(LlinterpBackend {
            interp,
            entry: program.entry,
            arg_types,
            result_type,
        })
    }

    /// Runs the entry function on `args` in a fresh heap; an exception
    /// it raises is found by name among the classes of `func`'s module,
    /// else the built-ins.
    pub fn call(
        &mut self,
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
        args: &[Bound<'_, PyAny>],
    ) -> Result<Outcome, DriverError> {
        match self.run(py, args)? {
            Ok(v) => Ok(Outcome::Value(
                self.to_py(py, v, self.result_type)
                    .map_err(DriverError::Run)?,
            )),
            Err(LlOutcome::Raised { class_name, .. }) => find_class(py, func, &class_name)
                .map(Outcome::Raised)
                .ok_or_else(|| {
                    DriverError::Run(format!("raised {class_name}, a class not found by name"))
                }),
            Err(LlOutcome::Exit(status)) => Err(DriverError::Run(format!(
                "the function called sys.exit({status})"
            ))),
            Err(LlOutcome::Error(e)) => Err(DriverError::Llinterp(e)),
        }
    }

    fn to_py(&self, py: Python<'_>, v: LlValue, t: LlType) -> Result<Py<PyAny>, String> {
        Ok(match v {
            LlValue::Void => py.None(),
            LlValue::Bool(b) => PyBool::new(py, b).to_owned().into_any().unbind(),
            LlValue::Int(i) => PyInt::new(py, i).into_any().unbind(),
            LlValue::UInt(u) => u
                .into_pyobject(py)
                .map_err(|e| e.to_string())?
                .into_any()
                .unbind(),
            LlValue::Float(f) => PyFloat::new(py, f).into_any().unbind(),
            LlValue::Char(c) => pyo3::types::PyBytes::new(py, &[c]).into_any().unbind(),
            LlValue::UniChar(c) => code_points_to_py(py, &[c])?,
            LlValue::Ptr(None) => py.None(),
            LlValue::Ptr(Some(p)) => self.struct_to_py(py, &p, t)?,
            LlValue::Func(_) => return Err("a function pointer as a result".into()),
        })
    }

    fn struct_to_py(&self, py: Python<'_>, p: &Ptr, t: LlType) -> Result<Py<PyAny>, String> {
        let target = t.target().ok_or("a pointer of a non-pointer type")?;
        match target.def() {
            TypeDef::Struct { name, .. } if name == "rpy_string" || name == "rpy_bytes" => {
                let obj = self
                    .interp
                    .object(p.obj)
                    .ok_or("dangling pointer in a result")?;
                let mut out = Vec::with_capacity(obj.items.len());
                for v in &obj.items {
                    match v {
                        LlValue::UniChar(c) => out.push(*c),
                        other => return Err(format!("a string holding {other:?}")),
                    }
                }
                if name == "rpy_bytes" {
                    let bytes: Vec<u8> = out
                        .iter()
                        .map(|&c| u8::try_from(c).map_err(|_| format!("a byte of value {c}")))
                        .collect::<Result<_, _>>()?;
                    return Ok(pyo3::types::PyBytes::new(py, &bytes).into_any().unbind());
                }
                code_points_to_py(py, &out)
            }
            TypeDef::Struct { name, fields, .. } if name.starts_with("tuple") => {
                let obj = self
                    .interp
                    .object(p.obj)
                    .ok_or("dangling pointer in a result")?;
                let mut values = Vec::new();
                for (fname, fty) in &fields {
                    let off = target.field_offset(fname).ok_or("tuple field")?;
                    let v = *obj.slots.get(p.offset as usize + off).ok_or("tuple slot")?;
                    values.push((v, *fty));
                }
                let mut items = Vec::new();
                for (v, fty) in values {
                    items.push(self.to_py(py, v, fty)?);
                }
                Ok(PyTuple::new(py, items)
                    .map_err(|e| e.to_string())?
                    .into_any()
                    .unbind())
            }
            TypeDef::Struct { name, .. } if name == "number" => {
                // a number of either kind: an int or a float by its tag
                let slot = |f: &str| -> Result<LlValue, String> {
                    let off = target.field_offset(f).ok_or("number field")?;
                    self.interp
                        .read_slot(p, off)
                        .ok_or_else(|| "number slot".to_string())
                };
                match (slot("isint")?, slot("isbool")?, slot("i")?, slot("f")?) {
                    (LlValue::Bool(true), LlValue::Bool(true), LlValue::Int(i), _) => {
                        self.to_py(py, LlValue::Bool(i != 0), rpy3_model::lltype::BOOL)
                    }
                    (LlValue::Bool(true), _, i, _) => self.to_py(py, i, rpy3_model::lltype::SIGNED),
                    (LlValue::Bool(false), _, _, f) => {
                        self.to_py(py, f, rpy3_model::lltype::FLOAT)
                    }
                    _ => Err("a number box without its tag".into()),
                }
            }
            TypeDef::Struct { name, .. } if name == "optional" => {
                let off = target.field_offset("value").ok_or("optional field")?;
                let v = self
                    .interp
                    .read_slot(p, off)
                    .ok_or_else(|| "optional slot".to_string())?;
                let vt = target.field_type("value").ok_or("optional field")?;
                self.to_py(py, v, vt)
            }
            TypeDef::Struct { name, .. } if name == "list" || name == "vartuple" => {
                let slot = |f: &str| -> Result<LlValue, String> {
                    let off = target.field_offset(f).ok_or("list field")?;
                    self.interp
                        .read_slot(p, off)
                        .ok_or_else(|| "list slot".to_string())
                };
                let LlValue::Int(n) = slot("length")? else {
                    return Err("a list length that is not an int".into());
                };
                let items_t = target.field_type("items").ok_or("list items")?;
                let item_t = items_t
                    .target()
                    .and_then(|a| a.varsize_item())
                    .ok_or("list items array")?;
                let LlValue::Ptr(Some(arr)) = slot("items")? else {
                    return Err("a list without items".into());
                };
                let obj = self
                    .interp
                    .object(arr.obj)
                    .ok_or("dangling pointer in a result")?;
                let per = obj.item_slots.max(1) as usize;
                let values: Vec<LlValue> = (0..n as usize)
                    .map(|i| obj.items.get(i * per).copied().unwrap_or(LlValue::Void))
                    .collect();
                let mut items = Vec::new();
                for v in values {
                    items.push(self.to_py(py, v, item_t)?);
                }
                if name == "vartuple" {
                    return Ok(PyTuple::new(py, items)
                        .map_err(|e| e.to_string())?
                        .into_any()
                        .unbind());
                }
                Ok(pyo3::types::PyList::new(py, items)
                    .map_err(|e| e.to_string())?
                    .into_any()
                    .unbind())
            }
            other => Err(format!("cannot return a {other:?} to Python yet")),
        }
    }
}

/// The offset and type of field `name` of struct `t`, looked up in its
/// parent structs too.
fn nested_field(t: LlType, name: &str) -> Option<(usize, LlType)> {
    let TypeDef::Struct { fields, .. } = t.def() else {
        return None;
    };
    let mut off = 0;
    for (n, ft) in &fields {
        if n == name {
            return Some((off, *ft));
        }
        if matches!(ft.def(), TypeDef::Struct { .. }) {
            if let Some((o, ty)) = nested_field(*ft, name) {
                return Some((off + o, ty));
            }
        }
        if !matches!(ft.def(), TypeDef::Array { .. }) {
            off += ft.nslots();
        }
    }
    None
}

impl LlinterpBackend {
    /// The text of the arguments of the exception instance `evalue` (what
    /// `str(e)` gives), when the program keeps it and it is not empty.
    pub fn exception_message(&mut self, py: Python<'_>, evalue: &Ptr) -> Option<String> {
        let ty = self.interp.object(evalue.obj)?.ty;
        let field = format!("inst_{}", rpy3_model::program::EXC_MESSAGE_ATTR);
        let (off, fty) = nested_field(ty, &field)?;
        let v = self.interp.read_slot(evalue, off)?;
        let text = self.to_py(py, v, fty).ok()?;
        let text: String = text.bind(py).extract().ok()?;
        (!text.is_empty()).then_some(text)
    }

    /// Runs the entry function on `args` in a fresh heap, the program's
    /// output streams flushed at the end; the low-level outcome.
    pub fn run(
        &mut self,
        _py: Python<'_>,
        args: &[Bound<'_, PyAny>],
    ) -> Result<Result<LlValue, LlOutcome>, DriverError> {
        let mut llargs = Vec::new();
        // a fresh heap first: string arguments are allocated in it
        self.interp.reset_heap();
        let types = self.arg_types.clone();
        for (a, &t) in args.iter().zip(&types) {
            llargs.push(self.arg_to_ll(a, t).map_err(DriverError::Run)?);
        }
        let outcome = self.interp.call(self.entry, llargs);
        self.interp.flush_streams();
        Ok(outcome)
    }

    /// The interpreter (to replace its world in tests, to call the entry
    /// with low-level values).
    pub fn interp_mut(&mut self) -> &mut LlInterp {
        &mut self.interp
    }

    /// The entry function's index in the program.
    pub fn entry(&self) -> usize {
        self.entry
    }

    /// An argument in the low-level type `t` (strings are allocated in
    /// the interpreter's heap).
    fn arg_to_ll(&mut self, a: &Bound<'_, PyAny>, t: LlType) -> Result<LlValue, String> {
        if let Some(TypeDef::Struct { name, fields, .. }) = t.target().map(|x| x.def()) {
            let st = t.target().expect("pointer");
            if name == "list" {
                if a.is_none() {
                    return Ok(LlValue::Ptr(None));
                }
                let values: Vec<Bound<'_, PyAny>> = a
                    .try_iter()
                    .and_then(|it| it.collect())
                    .map_err(|e| e.to_string())?;
                let items_t = st.field_type("items").ok_or("list items")?;
                let item_t = items_t
                    .target()
                    .and_then(|x| x.varsize_item())
                    .ok_or("list items array")?;
                let arr = self
                    .interp
                    .alloc(items_t.target().expect("pointer"), values.len())
                    .map_err(|e| e.to_string())?;
                for (i, v) in values.iter().enumerate() {
                    let llv = self.arg_to_ll(v, item_t)?;
                    self.interp
                        .write_item(&arr, i, 0, llv)
                        .map_err(|e| e.to_string())?;
                }
                let p = self.interp.alloc(st, 0).map_err(|e| e.to_string())?;
                let off = st.field_offset("length").ok_or("list length")?;
                self.interp
                    .write_slot(&p, off, LlValue::Int(values.len() as i64))
                    .map_err(|e| e.to_string())?;
                let off = st.field_offset("items").ok_or("list items")?;
                self.interp
                    .write_slot(&p, off, LlValue::Ptr(Some(arr)))
                    .map_err(|e| e.to_string())?;
                return Ok(LlValue::Ptr(Some(p)));
            }
            if name.starts_with("tuple") {
                let values: Vec<Bound<'_, PyAny>> = a
                    .try_iter()
                    .and_then(|it| it.collect())
                    .map_err(|e| e.to_string())?;
                if values.len() != fields.len() {
                    return Err(format!("cannot pass {a} as {t}"));
                }
                let p = self.interp.alloc(st, 0).map_err(|e| e.to_string())?;
                for ((fname, fty), v) in fields.iter().zip(&values) {
                    let llv = self.arg_to_ll(v, *fty)?;
                    let off = st.field_offset(fname).ok_or("tuple field")?;
                    self.interp
                        .write_slot(&p, off, llv)
                        .map_err(|e| e.to_string())?;
                }
                return Ok(LlValue::Ptr(Some(p)));
            }
            if name == "rpy_string" || name == "rpy_bytes" {
                if a.is_none() {
                    return Ok(LlValue::Ptr(None));
                }
                let chars: Vec<u32> = if name == "rpy_bytes" {
                    let b: Vec<u8> = a
                        .extract()
                        .map_err(|_| format!("cannot pass {a} as bytes"))?;
                    b.into_iter().map(u32::from).collect()
                } else {
                    py_to_code_points(a)?
                };
                let st = t.target().expect("pointer");
                let p = self
                    .interp
                    .alloc(st, chars.len())
                    .map_err(|e| e.to_string())?;
                for (i, c) in chars.iter().enumerate() {
                    self.interp
                        .write_item(&p, i, 0, LlValue::UniChar(*c))
                        .map_err(|e| e.to_string())?;
                }
                return Ok(LlValue::Ptr(Some(p)));
            }
        }
        to_ll(a, t)
    }
}

fn to_ll(a: &Bound<'_, PyAny>, t: LlType) -> Result<LlValue, String> {
    let bad = || {
        format!(
            "cannot pass {} as {t}",
            a.repr().map(|r| r.to_string()).unwrap_or_default()
        )
    };
    Ok(match t {
        t if t == lltype::SIGNED => LlValue::Int(a.extract::<i64>().map_err(|_| bad())?),
        t if t == lltype::UNSIGNED => LlValue::UInt(a.extract::<u64>().map_err(|_| bad())?),
        t if t == lltype::FLOAT => LlValue::Float(a.extract::<f64>().map_err(|_| bad())?),
        t if t == lltype::BOOL => LlValue::Bool(a.extract::<bool>().map_err(|_| bad())?),
        t if t == lltype::VOID => LlValue::Void,
        t if t == lltype::UNICHAR => {
            let s: String = a.extract().map_err(|_| bad())?;
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => LlValue::UniChar(c as u32),
                _ => return Err(bad()),
            }
        }
        _ => return Err(bad()),
    })
}

/// The exception class called `name`: the case module's, else a built-in.
pub fn find_class(py: Python<'_>, func: &Bound<'_, PyAny>, name: &str) -> Option<Py<PyType>> {
    if let Ok(globals) = func.getattr("__globals__") {
        if let Ok(Some(c)) = globals.get_item(name).map(Some) {
            if let Ok(t) = c.cast_into::<PyType>() {
                return Some(t.unbind());
            }
        }
    }
    py.import("builtins")
        .ok()?
        .getattr(name)
        .ok()?
        .cast_into::<PyType>()
        .ok()
        .map(|t| t.unbind())
}

/// The code points of a Python `str`, lone surrogates included.
fn py_to_code_points(a: &Bound<'_, PyAny>) -> Result<Vec<u32>, String> {
    let cannot = || {
        format!(
            "cannot pass {} as a string",
            a.repr().map(|r| r.to_string()).unwrap_or_default()
        )
    };
    if !a.is_instance_of::<PyString>() {
        return Err(cannot());
    }
    let raw = a
        .call_method1("encode", ("utf-32-le", "surrogatepass"))
        .map_err(|_| cannot())?;
    let bytes: Vec<u8> = raw.extract().map_err(|_| cannot())?;
    Ok(bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}

/// The Python `str` of code points `cps` (lone surrogates included).
fn code_points_to_py(py: Python<'_>, cps: &[u32]) -> Result<Py<PyAny>, String> {
    let bytes: Vec<u8> = cps.iter().flat_map(|c| c.to_le_bytes()).collect();
    let raw = pyo3::types::PyBytes::new(py, &bytes);
    raw.call_method1("decode", ("utf-32-le", "surrogatepass"))
        .map(|s| s.unbind())
        .map_err(|e| format!("a string of invalid code points: {e}"))
}
