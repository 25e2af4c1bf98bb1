//! Executables that run test cases: `main` takes a case number, calls that
//! case's function on its arguments (prebuilt as static data), and prints
//! the outcome after the program's own output, behind a marker line: the
//! result as a Python expression (`R:...`), or the class of the exception
//! that escaped (`E:Name`).  One executable serves every case of a case
//! file.

use std::collections::HashMap;
use std::fmt::Write;

use pyo3::prelude::*;
use pyo3::types::PyString;
use rpy3_model::lltype::{
    Heap, LlType, LlValue, Primitive, TypeDef, BOOL, FLOAT, SIGNED, UNICHAR, UNSIGNED, VOID,
};
use rpy3_model::program::LlProgram;
use rpy3_prep::Database;

use crate::data::{value_expr, TypeIds};
use crate::funcs::func_name;
use crate::types::{field_name, is_value, Types};
use crate::GencError;

/// The line that comes before a case's outcome in its output.
pub const MARKER: &str = "@@rpy3-outcome@@ ";

/// One case: a function of the program and its arguments (pointers into
/// the program's prebuilt heap).
#[derive(Clone, Debug)]
pub struct CaseCall {
    /// The function's index.
    pub func: usize,
    /// Its arguments.
    pub args: Vec<LlValue>,
}

/// Lays the Python value `a` out in `heap` as a value of type `t`: ints,
/// floats, bools, strs, bytes, None, and lists and tuples of these.
pub fn py_to_ll(heap: &mut Heap, a: &Bound<'_, PyAny>, t: LlType) -> Result<LlValue, String> {
    let bad = || {
        format!(
            "cannot pass {} as {t}",
            a.repr().map(|r| r.to_string()).unwrap_or_default()
        )
    };
    if let Some(st) = t.target() {
        let TypeDef::Struct { name, fields, .. } = st.def() else {
            return Err(bad());
        };
        if a.is_none() {
            return Ok(LlValue::Ptr(None));
        }
        let e = |e: rpy3_model::lltype::HeapError| e.to_string();
        if name == "rpy_string" || name == "rpy_bytes" {
            let chars: Vec<u32> = if name == "rpy_bytes" {
                let b: Vec<u8> = a.extract().map_err(|_| bad())?;
                b.into_iter().map(u32::from).collect()
            } else {
                code_points(a).ok_or_else(bad)?
            };
            let p = heap.malloc(st, chars.len()).map_err(e)?;
            for (i, c) in chars.iter().enumerate() {
                heap.set_item(&p, i as i64, 0, LlValue::UniChar(*c))
                    .map_err(e)?;
            }
            return Ok(LlValue::Ptr(Some(p)));
        }
        let values: Vec<Bound<'_, PyAny>> = a
            .try_iter()
            .and_then(|it| it.collect())
            .map_err(|_| bad())?;
        if name == "list" {
            let items_t = st.field_type("items").ok_or_else(bad)?;
            let arr_t = items_t.target().ok_or_else(bad)?;
            let item_t = arr_t.varsize_item().ok_or_else(bad)?;
            let arr = heap.malloc(arr_t, values.len()).map_err(e)?;
            for (i, v) in values.iter().enumerate() {
                let x = py_to_ll(heap, v, item_t)?;
                heap.set_item(&arr, i as i64, 0, x).map_err(e)?;
            }
            let p = heap.malloc(st, 0).map_err(e)?;
            let off = st.field_offset("length").ok_or_else(bad)?;
            heap.set_slot(&p, off, LlValue::Int(values.len() as i64));
            let off = st.field_offset("items").ok_or_else(bad)?;
            heap.set_slot(&p, off, LlValue::Ptr(Some(arr)));
            return Ok(LlValue::Ptr(Some(p)));
        }
        if name.starts_with("tuple") && values.len() == fields.len() {
            let p = heap.malloc(st, 0).map_err(e)?;
            for ((fname, fty), v) in fields.iter().zip(&values) {
                let x = py_to_ll(heap, v, *fty)?;
                let off = st.field_offset(fname).ok_or_else(bad)?;
                heap.set_slot(&p, off, x);
            }
            return Ok(LlValue::Ptr(Some(p)));
        }
        return Err(bad());
    }
    Ok(match t {
        t if t == SIGNED => LlValue::Int(a.extract::<i64>().map_err(|_| bad())?),
        t if t == UNSIGNED => LlValue::UInt(a.extract::<u64>().map_err(|_| bad())?),
        t if t == FLOAT => LlValue::Float(a.extract::<f64>().map_err(|_| bad())?),
        t if t == BOOL => LlValue::Bool(a.extract::<bool>().map_err(|_| bad())?),
        t if t == VOID => LlValue::Void,
        t if t == UNICHAR => match code_points(a).as_deref() {
            Some([c]) => LlValue::UniChar(*c),
            _ => return Err(bad()),
        },
        _ => return Err(bad()),
    })
}

/// The code points of a Python `str`, lone surrogates included.
fn code_points(a: &Bound<'_, PyAny>) -> Option<Vec<u32>> {
    if !a.is_instance_of::<PyString>() {
        return None;
    }
    let raw = a
        .call_method1("encode", ("utf-32-le", "surrogatepass"))
        .ok()?;
    let bytes: Vec<u8> = raw.extract().ok()?;
    Some(
        bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
    )
}

/// Generates the printers of results and `main`.
pub struct CaseGlue<'a> {
    pub program: &'a LlProgram,
    pub db: &'a Database,
    printers: HashMap<LlType, String>,
    out: String,
}

impl<'a> CaseGlue<'a> {
    pub fn new(program: &'a LlProgram, db: &'a Database) -> Self {
        CaseGlue {
            program,
            db,
            printers: HashMap::new(),
            out: String::new(),
        }
    }

    /// The name of the C function printing a value of type `t` as a
    /// Python expression.
    fn printer(&mut self, types: &mut Types, t: LlType) -> Result<String, GencError> {
        if let Some(p) = self.printers.get(&t) {
            return Ok(p.clone());
        }
        let name = format!("rpy_print_{}", t.index());
        self.printers.insert(t, name.clone());
        let unsupported = || GencError::new(format!("cannot print a result of type {t}"));
        let (ct, body) = match t.def() {
            TypeDef::Primitive(p) => {
                let body = match p {
                    Primitive::Signed | Primitive::SignedLongLong => {
                        "printf(\"%lld\", (long long)v);".to_string()
                    }
                    Primitive::Unsigned | Primitive::UnsignedLongLong => {
                        "printf(\"%llu\", (unsigned long long)v);".to_string()
                    }
                    Primitive::Bool => "fputs(v ? \"True\" : \"False\", stdout);".to_string(),
                    Primitive::Float => "if (isnan(v)) fputs(\"float('nan')\", stdout); \
                         else if (isinf(v)) fputs(v > 0 ? \"float('inf')\" : \"float('-inf')\", stdout); \
                         else printf(\"float.fromhex('%a')\", v);"
                        .to_string(),
                    Primitive::Char => "printf(\"bytes([%u])\", (unsigned)v);".to_string(),
                    Primitive::UniChar => "printf(\"chr(%u)\", (unsigned)v);".to_string(),
                    Primitive::Void => {
                        // (one printer for every None; remembered as such)
                        self.printers.insert(t, "rpy_print_none".into());
                        return Ok("rpy_print_none".into());
                    }
                };
                (types.ctype(t)?, body)
            }
            TypeDef::Ptr(st) => {
                let TypeDef::Struct {
                    name: sname,
                    fields,
                    ..
                } = st.def()
                else {
                    return Err(unsupported());
                };
                let ct = types.ctype(t)?;
                let mut body =
                    String::from("if (v == NULL) { fputs(\"None\", stdout); return; }\n");
                if sname == "rpy_string" {
                    body.push_str(
                        "    fputs(\"'\", stdout);\n    for (rpy_Signed i = 0; i < v->f_chars_length; i++) {\n        rpy_UniChar c = v->f_chars_items[i];\n        if (c >= 32 && c < 127 && c != '\\\\' && c != '\\'') putchar((int)c); else printf(\"\\\\U%08x\", (unsigned)c);\n    }\n    fputs(\"'\", stdout);",
                    );
                } else if sname == "rpy_bytes" {
                    body.push_str(
                        "    fputs(\"b'\", stdout);\n    for (rpy_Signed i = 0; i < v->f_chars_length; i++) printf(\"\\\\x%02x\", (unsigned)v->f_chars_items[i]);\n    fputs(\"'\", stdout);",
                    );
                } else if sname == "number" {
                    // a number of either kind: a bool, an int or a float by
                    // its tags
                    let pb = self.printer(types, rpy3_model::lltype::BOOL)?;
                    let pi = self.printer(types, rpy3_model::lltype::SIGNED)?;
                    let pf = self.printer(types, rpy3_model::lltype::FLOAT)?;
                    let _ = write!(
                        body,
                        "    if (v->{b}) {pb}(v->{i} != 0); else if (v->{}) {pi}(v->{i}); else {pf}(v->{});",
                        field_name("isint"),
                        field_name("f"),
                        b = field_name("isbool"),
                        i = field_name("i"),
                    );
                } else if sname == "optional" {
                    // an int, float or bool that may be None: its value
                    let (_, vt) = fields.first().ok_or_else(unsupported)?;
                    let p = self.printer(types, *vt)?;
                    let _ = write!(body, "    {p}(v->{});", field_name("value"));
                } else if sname == "list" || sname == "vartuple" {
                    // a variable-length tuple prints as a tuple: each item
                    // followed by ", " (so one item is still a tuple)
                    let (open, sep, after, close) = if sname == "list" {
                        ("[", "if (i) fputs(\", \", stdout);", "", "]")
                    } else {
                        ("(", "", "fputs(\", \", stdout);", ")")
                    };
                    let items_t = st.field_type("items").ok_or_else(unsupported)?;
                    let item_t = items_t
                        .target()
                        .and_then(|a| a.varsize_item())
                        .ok_or_else(unsupported)?;
                    let item_p = self.printer(types, item_t)?;
                    let access = if is_value(item_t) {
                        "v->f_items->items[i]"
                    } else {
                        "0"
                    };
                    let _ = write!(
                        body,
                        "    fputs(\"{open}\", stdout);\n    for (rpy_Signed i = 0; i < v->f_length; i++) {{\n        {sep}\n        {item_p}({access}); {after}\n    }}\n    fputs(\"{close}\", stdout);"
                    );
                } else if sname.starts_with("tuple") {
                    body.push_str("    fputs(\"(\", stdout);\n");
                    for (fname, fty) in &fields {
                        let p = self.printer(types, *fty)?;
                        let access = if is_value(*fty) {
                            format!("v->{}", field_name(fname))
                        } else {
                            "0".into()
                        };
                        let _ = writeln!(body, "    {p}({access}); fputs(\", \", stdout);");
                    }
                    body.push_str("    fputs(\")\", stdout);");
                } else {
                    return Err(unsupported());
                }
                (ct, body)
            }
            _ => return Err(unsupported()),
        };
        let _ = writeln!(self.out, "static void {name}({ct} v)\n{{\n    {body}\n}}\n");
        Ok(name)
    }

    /// The glue: one function per case, and `main`.
    pub fn emit(
        mut self,
        types: &mut Types,
        _tids: &mut TypeIds,
        calls: &[CaseCall],
    ) -> Result<String, GencError> {
        let mut protos = String::from(
            "static void rpy_print_none(int v) { (void)v; fputs(\"None\", stdout); }\n",
        );
        let mut cases = String::new();
        for (k, call) in calls.iter().enumerate() {
            let f = self
                .program
                .functions
                .get(call.func)
                .ok_or_else(|| GencError::new("a case of a function that does not exist"))?;
            let TypeDef::Func { args, result } = f.ty.def() else {
                return Err(GencError::new("a case function of no function type"));
            };
            if args.len() != call.args.len() {
                return Err(GencError::new(format!(
                    "{} takes {} arguments, the case gives {}",
                    f.name,
                    args.len(),
                    call.args.len()
                )));
            }
            let mut exprs = Vec::new();
            for (&t, &v) in args.iter().zip(&call.args) {
                if is_value(t) {
                    exprs.push(value_expr(
                        self.db,
                        &self.program.heap,
                        types,
                        &|i| func_name(i),
                        v,
                        t,
                    )?);
                }
            }
            let callf = format!("{}({})", func_name(call.func as u32), exprs.join(", "));
            let (call_line, print) = if is_value(result) {
                let p = self.printer(types, result)?;
                (
                    format!("{} r = {callf};", types.ctype(result)?),
                    format!("{p}(r);"),
                )
            } else {
                (format!("{callf};"), "fputs(\"None\", stdout);".to_string())
            };
            let _ = writeln!(
                cases,
                "static void rpy_case_{k}(void)\n{{\n    {call_line}\n    rpy_outcome_start();\n    if (rpy_exc_type != NULL) {{ rpy_print_exc(); return; }}\n    fputs(\"R:\", stdout);\n    {print}\n}}\n"
            );
        }
        let vt = self.program.objmodel.vtable;
        types.aggregate(vt)?;
        let name_field = field_name("name");
        let mut dispatch = String::new();
        for k in 0..calls.len() {
            let _ = writeln!(dispatch, "    case {k}: rpy_case_{k}(); break;");
        }
        let mut text = protos.clone();
        protos.clear();
        text.push_str(&self.out);
        let _ = write!(
            text,
            r#"static void rpy_outcome_start(void)
{{
    rpy_streams_flush_all();
    fputs("\n{MARKER}", stdout);
}}

static void rpy_print_exc(void)
{{
    struct t{vti} *vt = rpy_exc_type;
    fputs("E:", stdout);
    if (vt->{name_field} != NULL)
        fwrite(vt->{name_field}->items, 1, (size_t)vt->{name_field}->length, stdout);
}}

{cases}
static int rpy_main_body(void *p)
{{
    int argc = ((struct rpy_main_args *)p)->argc;
    char **argv = ((struct rpy_main_args *)p)->argv;
    char base;
    rpy_gc_init(&base);
    if (argc != 2) rpy_fatal("usage: CASE-NUMBER");
    switch (atoi(argv[1])) {{
{dispatch}    default: rpy_fatal("no such case");
    }}
    fputs("\n", stdout);
    fflush(stdout);
    rpy_exit(0);
}}
"#,
            vti = vt.index()
        );
        Ok(text)
    }
}
