//! The ll dialect: low-level helpers written in Python against
//! `rpy3.lltype` (`malloc`, `Ptr`, `GcStruct`, ...).  Their type objects
//! become the model's low-level types, their pointers `SomeValue::Ptr`.

use pyo3::prelude::*;
use rpy3_model::lltype::{self, LlType, TypeDef};
use rpy3_model::PyObj;

use crate::error::AnnotatorError;
use crate::model::{IntKind, SomeValue, StrKind};
use crate::Annotator;

/// Whether `obj` belongs to the `rpy3.lltype` module (a type or a pointer).
pub fn is_lltype_object(obj: &Bound<'_, PyAny>) -> bool {
    obj.get_type()
        .module()
        .map(|m| m == "rpy3.lltype")
        .unwrap_or(false)
}

impl Annotator {
    /// The low-level type a `rpy3.lltype` type object stands for (the same
    /// Python struct always gives the same type).
    pub fn lltype_from_py(
        &mut self,
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
    ) -> Result<LlType, AnnotatorError> {
        // a struct and the forward reference that became it share their
        // identity token
        let key = match obj.getattr("_ident") {
            Ok(ident) => PyObj::new(&ident),
            Err(_) => PyObj::new(obj),
        };
        if let Some(t) = self.ll_types.get(&key) {
            return Ok(*t);
        }
        let _ = py;
        let bad = |a: &Annotator, why: &str| {
            a.error(format!(
                "{} is not a low-level type: {why}",
                obj.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        };
        let kind = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        let get = |name: &str| obj.getattr(name);
        let t = match kind.as_str() {
            "Primitive" => {
                let name: String = get("_name")
                    .and_then(|n| n.extract())
                    .map_err(|_| bad(self, "no _name"))?;
                match name.as_str() {
                    "Signed" => lltype::SIGNED,
                    "Unsigned" => lltype::UNSIGNED,
                    "SignedLongLong" => lltype::SIGNED_LONGLONG,
                    "UnsignedLongLong" => lltype::UNSIGNED_LONGLONG,
                    "Float" => lltype::FLOAT,
                    "Char" => lltype::CHAR,
                    "UniChar" => lltype::UNICHAR,
                    "Bool" => lltype::BOOL,
                    "Void" => lltype::VOID,
                    other => return Err(bad(self, &format!("unknown primitive {other}"))),
                }
            }
            "Ptr" => {
                let to = get("TO").map_err(|_| bad(self, "no TO"))?;
                let target = self.lltype_from_py(py, &to)?;
                LlType::ptr(target).map_err(|e| bad(self, &e.to_string()))?
            }
            "Array" | "GcArray" => {
                let of = get("OF").map_err(|_| bad(self, "no OF"))?;
                let item = self.lltype_from_py(py, &of)?;
                LlType::array(item, kind == "GcArray").map_err(|e| bad(self, &e.to_string()))?
            }
            "FuncType" => {
                let args: Vec<Bound<'_, PyAny>> = get("ARGS")
                    .and_then(|a| a.try_iter()?.collect())
                    .map_err(|_| bad(self, "no ARGS"))?;
                let mut lls = Vec::new();
                for a in &args {
                    lls.push(self.lltype_from_py(py, a)?);
                }
                let res = get("RESULT").map_err(|_| bad(self, "no RESULT"))?;
                LlType::func(lls, self.lltype_from_py(py, &res)?)
            }
            "Struct" | "GcStruct" | "ForwardReference" | "GcForwardReference" => {
                let gc = get("_gckind")
                    .and_then(|g| g.extract::<String>())
                    .map(|g| g == "gc")
                    .unwrap_or(kind.starts_with("Gc"));
                // a forward reference first, so recursive fields find it
                let fwd = LlType::forward(gc);
                self.ll_types.insert(key.clone(), fwd);
                let name: String = get("_name")
                    .and_then(|n| n.extract())
                    .map_err(|_| bad(self, "an unresolved forward reference"))?;
                let names: Vec<String> = get("_names")
                    .and_then(|n| n.extract())
                    .map_err(|_| bad(self, "no _names"))?;
                let flds = get("_flds").map_err(|_| bad(self, "no _flds"))?;
                let mut fields = Vec::new();
                for n in names {
                    let ft = flds
                        .get_item(n.as_str())
                        .map_err(|_| bad(self, "a field without a type"))?;
                    fields.push((n, self.lltype_from_py(py, &ft)?));
                }
                fwd.become_(&name, fields)
                    .map_err(|e| bad(self, &e.to_string()))?;
                fwd
            }
            other => return Err(bad(self, &format!("a {other}"))),
        };
        self.ll_types.insert(key, t);
        Ok(t)
    }

    /// The annotation of values of low-level type `t` (a field, an item).
    pub fn ll_annotation(&self, t: LlType) -> Result<SomeValue, AnnotatorError> {
        Ok(match t.def() {
            TypeDef::Primitive(p) => match p {
                lltype::Primitive::Signed | lltype::Primitive::SignedLongLong => SomeValue::int(),
                lltype::Primitive::Unsigned | lltype::Primitive::UnsignedLongLong => {
                    SomeValue::Integer {
                        kind: IntKind::Unsigned,
                        nonneg: true,
                        konst: None,
                        bool_too: false,
                    }
                }
                lltype::Primitive::Float => SomeValue::float(),
                lltype::Primitive::Bool => SomeValue::bool(),
                lltype::Primitive::UniChar => SomeValue::Str {
                    kind: StrKind::Str,
                    is_char: true,
                    can_be_none: false,
                    konst: None,
                },
                lltype::Primitive::Void => SomeValue::None_,
                lltype::Primitive::Char => {
                    return Err(self.error(
                        "Char fields in low-level helpers are not supported yet (use UniChar)",
                    ))
                }
            },
            TypeDef::Ptr(_) => SomeValue::Ptr(t),
            other => return Err(self.error(format!("a value of low-level type {other:?}"))),
        })
    }
}

/// Finds field `name` in struct `t` or in its inlined parents (first
/// fields); returns the parents to go through and the field type.
pub fn find_field(t: LlType, name: &str) -> Option<(Vec<LlType>, LlType)> {
    let TypeDef::Struct { fields, .. } = t.def() else {
        return None;
    };
    if let Some((_, ft)) = fields.iter().find(|(n, _)| n == name) {
        return Some((Vec::new(), *ft));
    }
    let parent = t.parent()?;
    let (mut path, ft) = find_field(parent, name)?;
    path.insert(0, parent);
    Some((path, ft))
}
