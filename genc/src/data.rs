//! Static data: the prebuilt objects of the database as initialised C
//! variables (`oK`, K their position in the database), the type ids of
//! GC types and the collector's table of their layouts.

use std::collections::HashMap;
use std::fmt::Write;

use rpy3_model::lltype::{Heap, HeapObj, LlType, LlValue, Primitive, TypeDef};
use rpy3_model::program::LlProgram;
use rpy3_prep::Database;

use crate::types::{field_name, has_header, is_value, slot_path, Types};
use crate::GencError;

/// The GC types of a program, numbered (a GC object's header holds its
/// number).
#[derive(Default)]
pub struct TypeIds {
    /// Types by id.
    pub types: Vec<LlType>,
    ids: HashMap<LlType, usize>,
}

impl TypeIds {
    /// The id of GC type `t` (given on first use).
    pub fn id(&mut self, t: LlType) -> usize {
        if let Some(&i) = self.ids.get(&t) {
            return i;
        }
        self.types.push(t);
        self.ids.insert(t, self.types.len() - 1);
        self.types.len() - 1
    }
}

/// A C literal of a float.
pub fn float_literal(x: f64) -> String {
    if x.is_nan() {
        "(__builtin_nan(\"\"))".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "(__builtin_inf())".into()
        } else {
            "(-__builtin_inf())".into()
        }
    } else {
        format!("{x:e}")
    }
}

/// A C literal of a signed word.
pub fn int_literal(i: i64) -> String {
    if i == i64::MIN {
        "(-9223372036854775807LL-1)".into()
    } else if i < 0 {
        format!("({i}LL)")
    } else {
        format!("{i}LL")
    }
}

/// The prebuilt objects, laid out.
pub struct Data<'a> {
    heap: &'a Heap,
    db: &'a Database,
    /// Varsize objects get a type of their own with a fixed length.
    out_types: String,
    out_decls: String,
    out_defs: String,
    /// The objects have external linkage (for another object file).
    pub external: bool,
}

impl<'a> Data<'a> {
    /// Data for the objects of `db`.
    pub fn new(program: &'a LlProgram, db: &'a Database) -> Data<'a> {
        Data {
            heap: &program.heap,
            db,
            out_types: String::new(),
            out_decls: String::new(),
            out_defs: String::new(),
            external: false,
        }
    }

    /// The C expression of the prebuilt pointer `p` (of pointer type
    /// `pty`).
    pub fn ptr_expr(
        db: &Database,
        heap: &Heap,
        types: &mut Types,
        p: &rpy3_model::lltype::Ptr,
    ) -> Result<String, GencError> {
        let k = db
            .index
            .get(&p.obj)
            .ok_or_else(|| GencError::new(format!("object #{} is not in the database", p.obj)))?;
        let o = heap
            .object_at(p.obj)
            .ok_or_else(|| GencError::new(format!("object #{} does not exist", p.obj)))?;
        types.aggregate(p.ty)?;
        let base = if p.item == 0 {
            slot_path(o.ty, p.offset as usize, p.ty).ok_or_else(|| {
                GencError::new(format!(
                    "no member of {} at slot {} is a {}",
                    o.ty, p.offset, p.ty
                ))
            })?
        } else {
            let item =
                o.ty.varsize_item()
                    .ok_or_else(|| GencError::new(format!("{} has no items", o.ty)))?;
            let (_, items) = types
                .varsize_paths
                .get(&o.ty)
                .cloned()
                .ok_or_else(|| GencError::new(format!("{} is not varsize", o.ty)))?;
            let inner = slot_path(item, p.offset as usize, p.ty).ok_or_else(|| {
                GencError::new(format!(
                    "no member of {item} at slot {} is a {}",
                    p.offset, p.ty
                ))
            })?;
            format!(".{items}[{}]{inner}", p.item - 1)
        };
        if base.is_empty() {
            Ok(format!("((struct t{} *)&o{k})", p.ty.index()))
        } else {
            Ok(format!("((struct t{} *)&o{k}{base})", p.ty.index()))
        }
    }

    /// Every object: type declarations, tentative definitions, then
    /// initialised definitions.
    pub fn emit(
        &mut self,
        types: &mut Types,
        tids: &mut TypeIds,
        func_name: &dyn Fn(u32) -> String,
    ) -> Result<(), GencError> {
        for (k, &obj) in self.db.objects.iter().enumerate() {
            let o = self
                .heap
                .object_at(obj)
                .ok_or_else(|| GencError::new(format!("object #{obj} does not exist")))?;
            types.aggregate(o.ty)?;
            let ctype = if o.ty.is_varsize() {
                let per = (o.item_slots as usize).max(1);
                let n = o.items.len() / per;
                let members = types.members(o.ty, Some(n))?;
                let _ = writeln!(self.out_types, "struct o{k}_t {{\n{members}}};");
                format!("struct o{k}_t")
            } else {
                format!("struct t{}", o.ty.index())
            };
            let storage = if self.external { "extern" } else { "static" };
            let _ = writeln!(
                self.out_decls,
                "{storage} {ctype} o{k} __attribute__((unused));"
            );
            let init = self.init(types, tids, func_name, o)?;
            let storage = if self.external { "" } else { "static " };
            let _ = writeln!(self.out_defs, "{storage}{ctype} o{k} = {init};");
        }
        Ok(())
    }

    fn init(
        &self,
        types: &mut Types,
        tids: &mut TypeIds,
        func_name: &dyn Fn(u32) -> String,
        o: &HeapObj,
    ) -> Result<String, GencError> {
        let mut pos = 0;
        let per = o.item_slots as usize;
        let mut out = String::new();
        let _ = per;
        let hdr = o.ty.is_gc().then(|| tids.id(o.ty));
        self.init_value(
            types,
            tids,
            func_name,
            o.ty,
            &o.slots,
            &mut pos,
            Some(o),
            hdr,
            &mut out,
        )?;
        Ok(out)
    }

    /// The initializer of a value of type `t` whose flat slots start at
    /// `slots[*pos]`; `whole` is the object when `t` is its whole type (its
    /// items then follow).
    #[allow(clippy::too_many_arguments)]
    fn init_value(
        &self,
        types: &mut Types,
        tids: &mut TypeIds,
        func_name: &dyn Fn(u32) -> String,
        t: LlType,
        slots: &[LlValue],
        pos: &mut usize,
        whole: Option<&HeapObj>,
        hdr: Option<usize>,
        out: &mut String,
    ) -> Result<(), GencError> {
        match t.def() {
            TypeDef::Struct { fields, .. } => {
                out.push('{');
                if has_header(t) {
                    let _ = write!(out, "{{{}, RPY_GC_STATIC}}, ", hdr.unwrap_or(0));
                }
                let mut any = false;
                for (fi, (_, ft)) in fields.iter().enumerate() {
                    match ft.def() {
                        TypeDef::Array { item, .. } => {
                            let o = whole.ok_or_else(|| {
                                GencError::new(format!("an inlined {t} ends with an array"))
                            })?;
                            self.items(types, tids, func_name, item, o, out)?;
                            any = true;
                        }
                        TypeDef::Struct { .. } => {
                            let h = if fi == 0 { hdr } else { None };
                            self.init_value(types, tids, func_name, *ft, slots, pos, None, h, out)?;
                            out.push_str(", ");
                            any = true;
                        }
                        TypeDef::Opaque { .. } => {
                            out.push_str("{0}, ");
                            *pos += ft.nslots();
                            any = true;
                        }
                        _ => {
                            let v = slots.get(*pos).copied().ok_or_else(|| {
                                GencError::new(format!("a prebuilt {t} lacks slots"))
                            })?;
                            *pos += 1;
                            if is_value(*ft) {
                                out.push_str(&self.value(types, func_name, v, *ft)?);
                                out.push_str(", ");
                                any = true;
                            }
                        }
                    }
                }
                if !any && !has_header(t) {
                    out.push('0');
                }
                out.push('}');
            }
            TypeDef::Array { item, .. } => {
                let o = whole.ok_or_else(|| GencError::new(format!("an inlined array {t}")))?;
                out.push('{');
                if has_header(t) {
                    let _ = write!(out, "{{{}, RPY_GC_STATIC}}, ", hdr.unwrap_or(0));
                }
                self.items(types, tids, func_name, item, o, out)?;
                out.push('}');
            }
            _ => return Err(GencError::new(format!("cannot lay out a prebuilt {t}"))),
        }
        Ok(())
    }

    /// `length, {items}` of the array of `o`.
    fn items(
        &self,
        types: &mut Types,
        tids: &mut TypeIds,
        func_name: &dyn Fn(u32) -> String,
        item: LlType,
        o: &HeapObj,
        out: &mut String,
    ) -> Result<(), GencError> {
        let per = o.item_slots as usize;
        let n = o.items.len().checked_div(per).unwrap_or(0);
        let _ = write!(out, "{n}LL, ");
        if !is_value(item) {
            return Ok(());
        }
        out.push('{');
        for i in 0..n {
            let chunk = &o.items[i * per..(i + 1) * per];
            match item.def() {
                TypeDef::Struct { .. } => {
                    let mut p = 0;
                    self.init_value(types, tids, func_name, item, chunk, &mut p, None, None, out)?;
                }
                _ => out.push_str(&self.value(types, func_name, chunk[0], item)?),
            }
            out.push_str(", ");
        }
        if n == 0 {
            out.push('0');
        }
        out.push_str("}, ");
        Ok(())
    }

    /// The C expression of a prebuilt value of type `t`.
    fn value(
        &self,
        types: &mut Types,
        func_name: &dyn Fn(u32) -> String,
        v: LlValue,
        t: LlType,
    ) -> Result<String, GencError> {
        value_expr(self.db, self.heap, types, func_name, v, t)
    }

    /// The text: types, declarations, definitions.
    pub fn into_text(self) -> (String, String, String) {
        (self.out_types, self.out_decls, self.out_defs)
    }
}

/// The C expression of a low-level value of type `t`.
pub fn value_expr(
    db: &Database,
    heap: &Heap,
    types: &mut Types,
    func_name: &dyn Fn(u32) -> String,
    v: LlValue,
    t: LlType,
) -> Result<String, GencError> {
    Ok(match v {
        LlValue::Void => "0".into(),
        LlValue::Bool(b) => (b as u8).to_string(),
        LlValue::Int(i) => int_literal(i),
        LlValue::UInt(u) => format!("{u}ULL"),
        LlValue::Float(f) => float_literal(f),
        LlValue::Char(c) => c.to_string(),
        LlValue::UniChar(c) => format!("{c}u"),
        LlValue::Ptr(None) => "NULL".into(),
        LlValue::Ptr(Some(p)) => {
            let e = Data::ptr_expr(db, heap, types, &p)?;
            let ct = types.ctype(t)?;
            format!("(({ct}){e})")
        }
        LlValue::Func(f) => {
            let ct = types.ctype(t)?;
            format!("(({ct}){})", func_name(f.index))
        }
    })
}

/// The member paths of the GC pointers inside a value of type `t` (the
/// final array excluded).
pub fn gc_pointer_paths(t: LlType, prefix: &str, out: &mut Vec<String>) {
    if let TypeDef::Struct { fields, .. } = t.def() {
        for (name, ft) in &fields {
            let path = if prefix.is_empty() {
                field_name(name)
            } else {
                format!("{prefix}.{}", field_name(name))
            };
            match ft.def() {
                TypeDef::Ptr(target) if target.is_gc() => out.push(path),
                TypeDef::Struct { .. } => gc_pointer_paths(*ft, &path, out),
                _ => {}
            }
        }
    }
}

/// The collector's table: `rpy_typeinfo[]` for every GC type of `tids`.
pub fn typeinfo_table(types: &mut Types, tids: &TypeIds) -> Result<String, GencError> {
    let mut out = String::new();
    let mut rows = Vec::new();
    for (i, &t) in tids.types.iter().enumerate() {
        types.aggregate(t)?;
        let st = format!("struct t{}", t.index());
        let mut ptrs = Vec::new();
        gc_pointer_paths(t, "", &mut ptrs);
        let (size, itemsize, lofs, iofs, itemptrs) = if t.is_varsize() {
            let (len, items) = types
                .varsize_paths
                .get(&t)
                .cloned()
                .ok_or_else(|| GencError::new(format!("{t} is not varsize")))?;
            let item = t
                .varsize_item()
                .ok_or_else(|| GencError::new(format!("{t} has no items")))?;
            let mut iptrs = Vec::new();
            let (isize_, ict) = if is_value(item) {
                let ict = types.item_ctype(item)?;
                (format!("sizeof({ict})"), ict)
            } else {
                ("0".to_string(), String::new())
            };
            match item.def() {
                TypeDef::Ptr(target) if target.is_gc() => iptrs.push("0".to_string()),
                TypeDef::Struct { .. } => {
                    let mut paths = Vec::new();
                    gc_pointer_paths(item, "", &mut paths);
                    iptrs.extend(paths.iter().map(|p| format!("offsetof({ict}, {p})")));
                }
                _ => {}
            }
            let iofs = if is_value(item) {
                format!("offsetof({st}, {items})")
            } else {
                format!("sizeof({st})")
            };
            (
                iofs.clone(),
                isize_,
                format!("offsetof({st}, {len})"),
                iofs,
                iptrs,
            )
        } else {
            (
                format!("sizeof({st})"),
                "0".into(),
                "0".into(),
                "0".into(),
                vec![],
            )
        };
        let ptr_offsets: Vec<String> = ptrs
            .iter()
            .map(|p| format!("offsetof({st}, {p})"))
            .collect();
        let pname = if ptr_offsets.is_empty() {
            "NULL".to_string()
        } else {
            let _ = writeln!(
                out,
                "static const uint32_t rpy_ptrs_{i}[] = {{{}}};",
                ptr_offsets.join(", ")
            );
            format!("rpy_ptrs_{i}")
        };
        let iname = if itemptrs.is_empty() {
            "NULL".to_string()
        } else {
            let _ = writeln!(
                out,
                "static const uint32_t rpy_itemptrs_{i}[] = {{{}}};",
                itemptrs.join(", ")
            );
            format!("rpy_itemptrs_{i}")
        };
        rows.push(format!(
            "    {{{size}, {itemsize}, {lofs}, {iofs}, {pname}, {}, {iname}, {}}}, /* {t} */",
            ptr_offsets.len(),
            itemptrs.len()
        ));
    }
    if rows.is_empty() {
        rows.push("    {0, 0, 0, 0, NULL, 0, NULL, 0}".into());
    }
    let _ = writeln!(
        out,
        "const struct rpy_typeinfo rpy_typeinfo[] = {{\n{}\n}};",
        rows.join("\n")
    );
    Ok(out)
}

/// Whether `t` is a primitive of kind `p`.
pub fn is_prim(t: LlType, p: Primitive) -> bool {
    t.primitive() == Some(p)
}
