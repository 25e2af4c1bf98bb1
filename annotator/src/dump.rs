//! A canonical text form of annotations, independent of the order in which
//! ids were allocated (container definitions are expanded, classes and
//! constants named), for comparing whole-program results.

use std::collections::BTreeMap;

use pyo3::prelude::*;

use crate::description::Desc;
use crate::model::{IntKind, SomeValue, StrKind};
use crate::Annotator;

impl Annotator {
    /// An annotation as canonical text.
    pub fn canonical(&self, s: &SomeValue) -> String {
        self.canonical_depth(s, 0)
    }

    fn canonical_depth(&self, s: &SomeValue, depth: usize) -> String {
        use SomeValue::*;
        if depth > 6 {
            return "...".into();
        }
        let c = |x: &SomeValue| self.canonical_depth(x, depth + 1);
        let konst = |k: &Option<rpy3_model::PyObj>| match k {
            Some(k) => pyo3::Python::attach(|py| {
                format!(
                    "={}",
                    k.bind(py).repr().map(|r| r.to_string()).unwrap_or_default()
                )
            }),
            None => String::new(),
        };
        match s {
            Impossible => "impossible".into(),
            Integer {
                kind,
                nonneg,
                konst: k,
                bool_too,
            } => format!(
                "{}{}{}{}",
                if *bool_too { "bool|" } else { "" },
                match kind {
                    IntKind::Signed => "int",
                    IntKind::Unsigned => "uint",
                    IntKind::SignedLongLong => "longlong",
                    IntKind::UnsignedLongLong => "ulonglong",
                },
                if *nonneg { "+" } else { "" },
                konst(k)
            ),
            Bool { konst: k, .. } => {
                format!("bool{}", k.map(|b| format!("={b}")).unwrap_or_default())
            }
            Float {
                konst: k,
                int_too,
            } => format!("{}{}", if *int_too { "number" } else { "float" }, konst(k)),
            Str {
                kind,
                is_char,
                can_be_none,
                konst: k,
            } => format!(
                "{}{}{}{}",
                if *kind == StrKind::Str {
                    "str"
                } else {
                    "bytes"
                },
                if *is_char { "1" } else { "" },
                if *can_be_none { "?" } else { "" },
                konst(k)
            ),
            None_ => "None".into(),
            Tuple(items) => format!("({})", items.iter().map(c).collect::<Vec<_>>().join(", ")),
            TupleOrNone(items) => {
                format!("({})?", items.iter().map(c).collect::<Vec<_>>().join(", "))
            }
            Optional(inner) => format!("{}?", c(inner)),
            List(id) | Set(id) | Generator(id) => {
                let d = self.itemdefs.get(*id);
                let tag = match s {
                    List(_) => "list",
                    Set(_) => "set",
                    _ => "generator",
                };
                format!("{tag}[{}]", c(&d.item))
            }
            Dict(id) => {
                let d = self.itemdefs.get(*id);
                format!("dict[{}: {}]", c(&d.item), c(&d.value))
            }
            Instance {
                classdef,
                can_be_none,
            } => {
                format!(
                    "inst({}){}",
                    self.classdefs[*classdef].name,
                    if *can_be_none { "?" } else { "" }
                )
            }
            Pbc { descs, can_be_none } => {
                let mut names: Vec<String> = descs.iter().map(|d| self.desc_name(*d)).collect();
                names.sort();
                format!(
                    "pbc{{{}}}{}",
                    names.join(", "),
                    if *can_be_none { "?" } else { "" }
                )
            }
            Iterator { over, variant } => format!("iter[{:?}]({})", variant, c(over)),
            Builtin { name, s_self } => match s_self {
                Some(x) => format!("method {name} of {}", c(x)),
                None => format!("builtin {name}"),
            },
            Slice(parts) => format!(
                "slice({})",
                parts.iter().map(c).collect::<Vec<_>>().join(", ")
            ),
            LowLevelType(t) => format!("lltype {t}"),
            Ptr(t) => format!("{t}"),
            InteriorPtr { parent, field } => format!("interior {field} of {parent}"),
            Type { classdef, konst: k } => format!(
                "type({}){}",
                classdef
                    .map(|c| self.classdefs[c].name.clone())
                    .unwrap_or_default(),
                konst(k)
            ),
        }
    }

    /// A readable name of a description.
    pub fn desc_name(&self, d: crate::ids::DescId) -> String {
        match &self.descs[d] {
            Desc::Function(f) => f.name.clone(),
            Desc::Class { name, .. } => format!("class {name}"),
            Desc::Method {
                func, selfclassdef, ..
            } => {
                format!(
                    "{} bound to {}",
                    self.desc_name(*func),
                    self.classdefs[*selfclassdef].name
                )
            }
            Desc::Frozen { name, .. } => format!("frozen {name}"),
            Desc::MethodOfFrozen { func, frozen } => format!(
                "{} bound to {}",
                self.desc_name(*func),
                self.desc_name(*frozen)
            ),
        }
    }

    /// Every binding of every graph in canonical text, keyed by function;
    /// the specialised copies of a function are listed sorted.
    pub fn canonical_dump(&self) -> BTreeMap<String, Vec<String>> {
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (_, ag) in self.graphs.iter() {
            let mut lines = Vec::new();
            for (v, s) in ag.bindings.iter() {
                if let Some(s) = s {
                    lines.push(format!("{v}: {}", self.canonical(s)));
                }
            }
            out.entry(ag.graph.source.qualname.clone())
                .or_default()
                .push(lines.join("\n"));
        }
        for copies in out.values_mut() {
            copies.sort();
        }
        out
    }
}
