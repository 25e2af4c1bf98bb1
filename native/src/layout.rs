//! Byte layout of low-level types, as the C compiler lays out genc's
//! `struct tN` declarations (`genc/src/types.rs`) on the System V x86-64
//! and AArch64 ABIs: the native code and the C glue and runtime share the
//! objects, so every offset here is the C one.  The glue asserts each
//! offset the native code uses (`_Static_assert`), so a mismatch is a
//! build error, never a wrong access.

use std::collections::HashMap;

use cranelift_codegen::ir::{types, Type};
use rpy3_genc::types::{field_name, has_header, is_value};
use rpy3_model::lltype::{LlType, Primitive, TypeDef};

use crate::NativeError;

/// Size and alignment of a value or an inlined aggregate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SizeAlign {
    pub size: u64,
    pub align: u64,
}

/// The layout of one struct or array type.
#[derive(Clone, Debug)]
pub struct Layout {
    pub size: u64,
    pub align: u64,
    /// Byte offset of each field (inlined arrays: of their length word).
    pub fields: HashMap<String, u64>,
    /// For a varsize type: offsets of the length and of the first item,
    /// and the size of one item.
    pub varsize: Option<(u64, u64, u64)>,
}

/// The Cranelift type of a value of low-level type `t` (None for Void).
pub fn clif_type(t: LlType) -> Option<Type> {
    match t.def() {
        TypeDef::Primitive(p) => match p {
            Primitive::Signed
            | Primitive::Unsigned
            | Primitive::SignedLongLong
            | Primitive::UnsignedLongLong => Some(types::I64),
            Primitive::Float => Some(types::F64),
            Primitive::Char | Primitive::Bool => Some(types::I8),
            Primitive::UniChar => Some(types::I32),
            Primitive::Void => None,
        },
        _ => Some(types::I64),
    }
}

fn align_to(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

/// Layouts of the types a program uses, computed on demand.
#[derive(Default)]
pub struct Layouts {
    cache: HashMap<LlType, Layout>,
}

impl Layouts {
    /// The layout of struct or array type `t`.
    pub fn of(&mut self, t: LlType) -> Result<&Layout, NativeError> {
        if !self.cache.contains_key(&t) {
            let l = self.compute(t)?;
            self.cache.insert(t, l);
        }
        // inserted just above
        Ok(&self.cache[&t])
    }

    /// Every layout computed so far.
    pub fn all(&self) -> impl Iterator<Item = (&LlType, &Layout)> {
        self.cache.iter()
    }

    /// Size and alignment of a member of type `t` (a value or an inlined
    /// struct).
    fn member(&mut self, t: LlType) -> Result<SizeAlign, NativeError> {
        match t.def() {
            TypeDef::Struct { .. } => {
                let l = self.of(t)?;
                Ok(SizeAlign {
                    size: l.size,
                    align: l.align,
                })
            }
            TypeDef::Opaque { .. } => Ok(SizeAlign { size: 1, align: 1 }),
            _ => {
                let ty = clif_type(t)
                    .ok_or_else(|| NativeError::new(format!("a member of type {t} has no size")))?;
                let b = u64::from(ty.bytes());
                Ok(SizeAlign { size: b, align: b })
            }
        }
    }

    fn compute(&mut self, t: LlType) -> Result<Layout, NativeError> {
        let mut off = 0u64;
        let mut align = 1u64;
        let mut fields = HashMap::new();
        let mut varsize = None;
        let mut any = false;
        if has_header(t) {
            // struct rpy_gchdr: two uint32_t
            off = 8;
            align = 4;
            any = true;
        }
        let place = |sa: SizeAlign, off: &mut u64, align: &mut u64| {
            *off = align_to(*off, sa.align);
            *align = (*align).max(sa.align);
            let at = *off;
            *off += sa.size;
            at
        };
        match t.def() {
            TypeDef::Struct { fields: fs, .. } => {
                for (name, ft) in &fs {
                    match ft.def() {
                        TypeDef::Array { item, .. } => {
                            let len = place(SizeAlign { size: 8, align: 8 }, &mut off, &mut align);
                            fields.insert(name.clone(), len);
                            any = true;
                            let (items, isize) = if is_value(item) {
                                let sa = self.member(item)?;
                                (
                                    place(SizeAlign { size: 0, ..sa }, &mut off, &mut align),
                                    sa.size,
                                )
                            } else {
                                (off, 0)
                            };
                            varsize = Some((len, items, isize));
                        }
                        _ if !is_value(*ft) => {}
                        _ => {
                            let sa = self.member(*ft)?;
                            fields.insert(name.clone(), place(sa, &mut off, &mut align));
                            any = true;
                        }
                    }
                }
            }
            TypeDef::Array { item, .. } => {
                let len = place(SizeAlign { size: 8, align: 8 }, &mut off, &mut align);
                any = true;
                let (items, isize) = if is_value(item) {
                    let sa = self.member(item)?;
                    (
                        place(SizeAlign { size: 0, ..sa }, &mut off, &mut align),
                        sa.size,
                    )
                } else {
                    (off, 0)
                };
                varsize = Some((len, items, isize));
            }
            TypeDef::Opaque { .. } => {
                off = 1;
                any = true;
            }
            _ => return Err(NativeError::new(format!("{t} is not a struct or array"))),
        }
        if !any {
            // `char empty;`
            off = 1;
        }
        Ok(Layout {
            size: align_to(off, align),
            align,
            fields,
            varsize,
        })
    }

    /// The byte offset, from the start of a value of type `t`, of the
    /// (sub)structure at flat slot `offset` whose type is `target`
    /// (mirrors genc's `slot_path`).
    pub fn slot_offset(&mut self, t: LlType, offset: usize, target: LlType) -> Option<u64> {
        if offset == 0 && t.starts_with(target) {
            return Some(0);
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
            if matches!(ft.def(), TypeDef::Struct { .. })
                && offset >= off
                && offset < off + n.max(1)
            {
                if let Some(rest) = self.slot_offset(*ft, offset - off, target) {
                    let base = *self.of(t).ok()?.fields.get(name)?;
                    return Some(base + rest);
                }
            }
            off += n;
        }
        None
    }

    /// `_Static_assert`s of every offset computed, for the C glue.
    pub fn assertions(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let mut all: Vec<_> = self.cache.iter().collect();
        all.sort_by_key(|(t, _)| t.index());
        for (t, l) in all {
            let st = format!("struct t{}", t.index());
            if !matches!(t.def(), TypeDef::Opaque { .. }) {
                let _ = writeln!(
                    out,
                    "_Static_assert(_Alignof({st}) == {}, \"native layout of {st}\");",
                    l.align
                );
            }
            if l.varsize.is_none() {
                let _ = writeln!(
                    out,
                    "_Static_assert(sizeof({st}) == {}, \"native layout of {st}\");",
                    l.size
                );
            }
            let mut fs: Vec<_> = l.fields.iter().collect();
            fs.sort();
            for (name, off) in fs {
                let member = match t.field_type(name).map(|ft| ft.def()) {
                    Some(TypeDef::Array { .. }) => format!("{}_length", field_name(name)),
                    _ => field_name(name),
                };
                let _ = writeln!(
                    out,
                    "_Static_assert(offsetof({st}, {member}) == {off}, \"native layout of {st}\");"
                );
            }
            if let (TypeDef::Array { item, .. }, Some((len, items, _))) = (t.def(), l.varsize) {
                let _ = writeln!(
                    out,
                    "_Static_assert(offsetof({st}, length) == {len}, \"native layout of {st}\");"
                );
                if is_value(item) {
                    let _ = writeln!(
                        out,
                        "_Static_assert(offsetof({st}, items) == {items}, \"native layout of {st}\");"
                    );
                }
            }
        }
        out
    }
}
