//! Low-level types as C declarations.
//!
//! Every struct and array type is `struct tN` (N its type index).  A GC
//! struct starts with `struct rpy_gchdr` unless its first field inlines a
//! GC parent, which holds it; an array, or the array ending a varsize
//! struct, is a `length` word then the items (`f_NAME_length`,
//! `f_NAME_items[]` when inlined as field NAME).  Function pointer types
//! are `fpN` typedefs.  `Void` values, fields and arguments do not exist in
//! C.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use rpy3_model::lltype::{LlType, Primitive, TypeDef};

use crate::GencError;

/// The C name of a field.
pub fn field_name(name: &str) -> String {
    let mut s = String::from("f_");
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            s.push(c);
        } else {
            let _ = write!(s, "_{:x}_", c as u32);
        }
    }
    s
}

/// The C type of a primitive.
pub fn prim_ctype(p: Primitive) -> &'static str {
    match p {
        Primitive::Signed => "rpy_Signed",
        Primitive::Unsigned => "rpy_Unsigned",
        Primitive::SignedLongLong => "rpy_SignedLongLong",
        Primitive::UnsignedLongLong => "rpy_UnsignedLongLong",
        Primitive::Float => "rpy_Float",
        Primitive::Char => "rpy_Char",
        Primitive::UniChar => "rpy_UniChar",
        Primitive::Bool => "rpy_Bool",
        Primitive::Void => "void",
    }
}

/// Whether values of `t` exist in C (everything but `Void`).
pub fn is_value(t: LlType) -> bool {
    t.primitive() != Some(Primitive::Void)
}

/// Whether a struct has its own GC header.
pub fn has_header(t: LlType) -> bool {
    match t.def() {
        TypeDef::Struct {
            gc: true, fields, ..
        } => {
            !matches!(fields.first(), Some((_, f)) if matches!(f.def(), TypeDef::Struct { .. }) && f.is_gc())
        }
        TypeDef::Array { gc: true, .. } => true,
        _ => false,
    }
}

/// The C declarations of the types a program uses.
#[derive(Default)]
pub struct Types {
    /// Struct, array and opaque types seen, in first-seen order.
    aggregates: Vec<LlType>,
    seen: HashSet<LlType>,
    /// Function types with a typedef, in dependency order.
    funcs: Vec<LlType>,
    func_seen: HashSet<LlType>,
    /// Definitions in dependency order (inlined types first).
    defined: Vec<LlType>,
    defined_set: HashSet<LlType>,
    /// The path from a struct to the inlined array ending it (for varsize
    /// structs): the C member path of its length and items.
    pub varsize_paths: HashMap<LlType, (String, String)>,
}

impl Types {
    /// A struct type of this name among the types seen.
    pub fn find_struct(&self, wanted: &str) -> Option<LlType> {
        self.aggregates
            .iter()
            .copied()
            .find(|t| matches!(t.def(), TypeDef::Struct { name, .. } if name == wanted))
    }

    /// The C type of a value of `t`.
    pub fn ctype(&mut self, t: LlType) -> Result<String, GencError> {
        Ok(match t.def() {
            TypeDef::Primitive(p) => prim_ctype(p).to_string(),
            TypeDef::Ptr(target) => match target.def() {
                TypeDef::Func { .. } => {
                    self.func(target)?;
                    format!("fp{}", target.index())
                }
                _ => {
                    self.aggregate(target)?;
                    format!("struct t{} *", target.index())
                }
            },
            other => {
                return Err(GencError::new(format!(
                    "a value of type {t} ({other:?}) is not a primitive or a pointer"
                )))
            }
        })
    }

    fn func(&mut self, f: LlType) -> Result<(), GencError> {
        if self.func_seen.contains(&f) {
            return Ok(());
        }
        let TypeDef::Func { args, result } = f.def() else {
            return Err(GencError::new(format!("{f} is not a function type")));
        };
        for a in &args {
            self.ctype(*a)?;
        }
        self.ctype(result)?;
        self.func_seen.insert(f);
        self.funcs.push(f);
        Ok(())
    }

    /// Registers a struct, array or opaque type (and what it inlines or
    /// points to).
    pub fn aggregate(&mut self, t: LlType) -> Result<(), GencError> {
        if !self.seen.insert(t) {
            return Ok(());
        }
        self.aggregates.push(t);
        match t.def() {
            TypeDef::Struct { fields, .. } => {
                for (_, ft) in &fields {
                    self.member(*ft)?;
                }
                if t.is_varsize() {
                    let path = varsize_path(t)?;
                    self.varsize_paths.insert(t, path);
                }
            }
            TypeDef::Array { item, .. } => {
                self.member(item)?;
                self.varsize_paths
                    .insert(t, ("length".into(), "items".into()));
            }
            TypeDef::Opaque { .. } => {}
            TypeDef::Forward { .. } => {
                return Err(GencError::new(format!(
                    "{t} is a forward reference never resolved"
                )))
            }
            _ => return Err(GencError::new(format!("{t} is not a struct or array"))),
        }
        self.define(t);
        Ok(())
    }

    fn member(&mut self, ft: LlType) -> Result<(), GencError> {
        match ft.def() {
            TypeDef::Struct { .. } | TypeDef::Array { .. } | TypeDef::Opaque { .. } => {
                self.aggregate(ft)
            }
            _ => self.ctype(ft).map(|_| ()),
        }
    }

    /// Orders definitions: a type after the types it inlines.
    fn define(&mut self, t: LlType) {
        if self.defined_set.contains(&t) {
            return;
        }
        if let TypeDef::Struct { fields, .. } = t.def() {
            for (_, ft) in &fields {
                if matches!(ft.def(), TypeDef::Struct { .. }) {
                    self.define(*ft);
                }
                if let TypeDef::Array { item, .. } = ft.def() {
                    if matches!(item.def(), TypeDef::Struct { .. }) {
                        self.define(item);
                    }
                }
            }
        }
        if let TypeDef::Array { item, .. } = t.def() {
            if matches!(item.def(), TypeDef::Struct { .. }) {
                self.define(item);
            }
        }
        if self.seen.contains(&t) {
            self.defined_set.insert(t);
            self.defined.push(t);
        }
    }

    /// The members of struct or array `t`, one per line; `items` gives
    /// the length of the final array (None: flexible).
    pub fn members(&mut self, t: LlType, items: Option<usize>) -> Result<String, GencError> {
        let mut out = String::new();
        if has_header(t) {
            out.push_str("    struct rpy_gchdr hdr;\n");
        }
        let dim = items.map_or(String::new(), |n| n.max(1).to_string());
        match t.def() {
            TypeDef::Struct { fields, .. } => {
                for (name, ft) in &fields {
                    let f = field_name(name);
                    match ft.def() {
                        TypeDef::Array { item, .. } => {
                            let _ = writeln!(out, "    rpy_Signed {f}_length;");
                            if is_value(item) {
                                let it = self.item_ctype(item)?;
                                let _ = writeln!(out, "    {it} {f}_items[{dim}];");
                            }
                        }
                        TypeDef::Struct { .. } => {
                            if ft.is_varsize() {
                                // a varsize struct inlined last: its members
                                // are spelled out so the final array stays
                                // last (C allows no flexible member inside)
                                return Err(GencError::new(format!(
                                    "{t} inlines the varsize struct {ft}"
                                )));
                            }
                            let _ = writeln!(out, "    struct t{} {f};", ft.index());
                        }
                        TypeDef::Opaque { .. } => {
                            let _ = writeln!(out, "    struct t{} {f};", ft.index());
                        }
                        _ if !is_value(*ft) => {}
                        _ => {
                            let c = self.ctype(*ft)?;
                            let _ = writeln!(out, "    {c} {f};");
                        }
                    }
                }
            }
            TypeDef::Array { item, .. } => {
                out.push_str("    rpy_Signed length;\n");
                if is_value(item) {
                    let it = self.item_ctype(item)?;
                    let _ = writeln!(out, "    {it} items[{dim}];");
                }
            }
            TypeDef::Opaque { .. } => out.push_str("    char opaque;\n"),
            _ => return Err(GencError::new(format!("{t} has no members"))),
        }
        if out.is_empty() {
            out.push_str("    char empty;\n");
        }
        Ok(out)
    }

    /// The C type of an array item (a value or an inlined struct).
    pub fn item_ctype(&mut self, item: LlType) -> Result<String, GencError> {
        match item.def() {
            TypeDef::Struct { .. } => Ok(format!("struct t{}", item.index())),
            _ => self.ctype(item),
        }
    }

    /// Every declaration: forward declarations, function pointer typedefs,
    /// then definitions.
    pub fn declarations(&mut self) -> Result<String, GencError> {
        let mut out = String::new();
        for t in &self.aggregates {
            let _ = writeln!(out, "struct t{};", t.index());
        }
        // function types may mention each other: typedef in dependency order
        let funcs = self.funcs.clone();
        for f in funcs {
            let TypeDef::Func { args, result } = f.def() else {
                continue;
            };
            let r = self.ctype(result)?;
            let mut params = Vec::new();
            for a in args.iter().filter(|a| is_value(**a)) {
                params.push(self.ctype(*a)?);
            }
            if params.is_empty() {
                params.push("void".into());
            }
            let _ = writeln!(
                out,
                "typedef {r} (*fp{})({});",
                f.index(),
                params.join(", ")
            );
        }
        let defined = self.defined.clone();
        for t in defined {
            let members = self.members(t, None)?;
            let _ = writeln!(out, "struct t{} {{ /* {t} */\n{members}}};", t.index());
        }
        Ok(out)
    }
}

/// The member paths of the length and items of the array ending the
/// varsize struct `t`.
fn varsize_path(t: LlType) -> Result<(String, String), GencError> {
    match t.def() {
        TypeDef::Struct { fields, .. } => {
            let Some((name, ft)) = fields.last() else {
                return Err(GencError::new(format!("{t} is not varsize")));
            };
            let f = field_name(name);
            match ft.def() {
                TypeDef::Array { .. } => Ok((format!("{f}_length"), format!("{f}_items"))),
                _ => Err(GencError::new(format!("{t} ends with {ft}, not an array"))),
            }
        }
        TypeDef::Array { .. } => Ok(("length".into(), "items".into())),
        _ => Err(GencError::new(format!("{t} is not varsize"))),
    }
}

/// The C member path (`.f_a.f_b`) from the start of a value of type `t`
/// to the (sub)structure at flat slot `offset` whose type is `target`, or
/// to a field holding slot `offset` when `target` is None.
pub fn slot_path(t: LlType, offset: usize, target: LlType) -> Option<String> {
    if offset == 0 && t.starts_with(target) {
        return Some(String::new());
    }
    let TypeDef::Struct { fields, .. } = t.def() else {
        return None;
    };
    let mut off = 0;
    for (name, ft) in &fields {
        let n = if matches!(ft.def(), TypeDef::Array { .. }) {
            0
        } else {
            ft.nslots()
        };
        if matches!(ft.def(), TypeDef::Struct { .. }) && offset >= off && offset < off + n.max(1) {
            if let Some(rest) = slot_path(*ft, offset - off, target) {
                return Some(format!(".{}{rest}", field_name(name)));
            }
        }
        off += n;
    }
    None
}

/// The C member path of field `name` of struct `t` or of the parents it
/// inlines first (`f_super.f_typeptr`).
pub fn parent_field_path(t: LlType, name: &str) -> Option<String> {
    let TypeDef::Struct { fields, .. } = t.def() else {
        return None;
    };
    if fields.iter().any(|(n, _)| n == name) {
        return Some(field_name(name));
    }
    let (first, ft) = fields.first()?;
    if matches!(ft.def(), TypeDef::Struct { .. }) {
        return parent_field_path(*ft, name).map(|p| format!("{}.{p}", field_name(first)));
    }
    None
}
