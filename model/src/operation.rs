//! The table of high-level operations that appear in flow graphs.
//!
//! Each operation is listed once with its name (PyPy's vocabulary), its
//! arity, whether it is pure (constant-foldable when every argument is an
//! immutable constant), the exceptions it can raise (these become exception
//! links when the operation sits inside a `try`), and the Python callable
//! that gives its semantics on real objects, used both for constant folding
//! and by the graph interpreter.  Operations without a `pyfunc` are
//! structural (calls, container construction, slicing, `yield_`) and every
//! executor implements them explicitly.

use std::fmt;

macro_rules! hl_operations {
    ($( $variant:ident = $name:literal, $arity:expr, $pure:literal, [$($exc:literal),*], $pyfunc:expr; )*) => {
        /// A high-level operation name.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        #[allow(non_camel_case_types)]
        pub enum OpName {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
            /// A low-level operation (after rtyping).
            Ll(crate::lloperation::LlOp),
        }

        /// Every high-level operation, in table order.
        pub const ALL_OPS: &[OpName] = &[$(OpName::$variant,)*];

        impl OpName {
            /// The operation's description.
            pub fn desc(self) -> &'static OpDesc {
                match self {
                    $(OpName::$variant => {
                        const D: OpDesc = OpDesc {
                            name: $name,
                            arity: $arity,
                            pure: $pure,
                            canraise: &[$($exc),*],
                            pyfunc: $pyfunc,
                        };
                        &D
                    })*
                    OpName::Ll(op) => ll_desc(op),
                }
            }

            /// Index of a high-level operation in table order (`None` for
            /// low-level operations), for executors' dispatch tables.
            pub fn hl_index(self) -> Option<usize> {
                let mut i = 0usize;
                $(
                    if let OpName::$variant = self {
                        return Some(i);
                    }
                    i += 1;
                )*
                let _ = i;
                None
            }
        }
    };
}

/// The high-level view of a low-level operation's description.
fn ll_desc(op: crate::lloperation::LlOp) -> &'static OpDesc {
    use crate::lloperation::{TyPat, ALL_LL_OPS};
    static DESCS: std::sync::OnceLock<Vec<OpDesc>> = std::sync::OnceLock::new();
    let descs = DESCS.get_or_init(|| {
        ALL_LL_OPS
            .iter()
            .map(|op| {
                let d = op.desc();
                OpDesc {
                    name: d.name,
                    arity: if d.args.contains(&TyPat::Rest) {
                        None
                    } else {
                        Some(d.args.len())
                    },
                    pure: d.canfold,
                    canraise: d.canraise,
                    pyfunc: None,
                }
            })
            .collect()
    });
    &descs[op.index()]
}

/// The description of one operation.
#[derive(Debug)]
pub struct OpDesc {
    /// Name as printed.
    pub name: &'static str,
    /// Number of arguments, or `None` when variadic.
    pub arity: Option<usize>,
    /// Whether constant arguments make the result a constant.
    pub pure: bool,
    /// Names of the built-in exception classes the operation can raise.
    pub canraise: &'static [&'static str],
    /// `module.attribute` of the Python callable implementing it, if any.
    pub pyfunc: Option<&'static str>,
}

const V: Option<usize> = None;
const fn n(k: usize) -> Option<usize> {
    Some(k)
}

hl_operations! {
    // truth and identity
    Bool = "bool", n(1), true, [], Some("builtins.bool");
    Is_ = "is_", n(2), true, [], Some("operator.is_");
    Issubtype = "issubtype", n(2), true, [], Some("builtins.issubclass");
    Type = "type", n(1), true, [], Some("builtins.type");
    // unary arithmetic
    Neg = "neg", n(1), true, [], Some("operator.neg");
    Pos = "pos", n(1), true, [], Some("operator.pos");
    Invert = "invert", n(1), true, [], Some("operator.invert");
    Abs = "abs", n(1), true, [], Some("builtins.abs");
    // binary arithmetic
    Add = "add", n(2), true, [], Some("operator.add");
    Sub = "sub", n(2), true, [], Some("operator.sub");
    Mul = "mul", n(2), true, [], Some("operator.mul");
    Truediv = "truediv", n(2), true, ["ZeroDivisionError"], Some("operator.truediv");
    Floordiv = "floordiv", n(2), true, ["ZeroDivisionError"], Some("operator.floordiv");
    Mod = "mod", n(2), true, ["ZeroDivisionError", "TypeError", "ValueError"], Some("operator.mod");
    Divmod = "divmod", n(2), true, ["ZeroDivisionError"], Some("builtins.divmod");
    Pow = "pow", n(2), true, ["ZeroDivisionError", "ValueError", "OverflowError"], Some("operator.pow");
    Matmul = "matmul", n(2), true, [], Some("operator.matmul");
    Lshift = "lshift", n(2), true, ["ValueError"], Some("operator.lshift");
    Rshift = "rshift", n(2), true, ["ValueError"], Some("operator.rshift");
    And_ = "and_", n(2), true, [], Some("operator.and_");
    Or_ = "or_", n(2), true, [], Some("operator.or_");
    Xor = "xor", n(2), true, [], Some("operator.xor");
    InplaceAdd = "inplace_add", n(2), false, [], Some("operator.iadd");
    InplaceSub = "inplace_sub", n(2), false, [], Some("operator.isub");
    InplaceMul = "inplace_mul", n(2), false, [], Some("operator.imul");
    InplaceTruediv = "inplace_truediv", n(2), false, ["ZeroDivisionError"], Some("operator.itruediv");
    InplaceFloordiv = "inplace_floordiv", n(2), false, ["ZeroDivisionError"], Some("operator.ifloordiv");
    InplaceMod = "inplace_mod", n(2), false, ["ZeroDivisionError", "TypeError", "ValueError"], Some("operator.imod");
    InplacePow = "inplace_pow", n(2), false, ["ZeroDivisionError", "ValueError", "OverflowError"], Some("operator.ipow");
    InplaceMatmul = "inplace_matmul", n(2), false, [], Some("operator.imatmul");
    InplaceLshift = "inplace_lshift", n(2), false, ["ValueError"], Some("operator.ilshift");
    InplaceRshift = "inplace_rshift", n(2), false, ["ValueError"], Some("operator.irshift");
    InplaceAnd = "inplace_and", n(2), false, [], Some("operator.iand");
    InplaceOr = "inplace_or", n(2), false, [], Some("operator.ior");
    InplaceXor = "inplace_xor", n(2), false, [], Some("operator.ixor");
    // checked arithmetic: `ovfcheck(x + y)` and friends
    AddOvf = "add_ovf", n(2), true, ["OverflowError"], Some("rpy3.rlib.rarithmetic._add_ovf");
    SubOvf = "sub_ovf", n(2), true, ["OverflowError"], Some("rpy3.rlib.rarithmetic._sub_ovf");
    MulOvf = "mul_ovf", n(2), true, ["OverflowError"], Some("rpy3.rlib.rarithmetic._mul_ovf");
    FloordivOvf = "floordiv_ovf", n(2), true, ["ZeroDivisionError", "OverflowError"], Some("rpy3.rlib.rarithmetic._floordiv_ovf");
    ModOvf = "mod_ovf", n(2), true, ["ZeroDivisionError", "OverflowError"], Some("rpy3.rlib.rarithmetic._mod_ovf");
    LshiftOvf = "lshift_ovf", n(2), true, ["ValueError", "OverflowError"], Some("rpy3.rlib.rarithmetic._lshift_ovf");
    NegOvf = "neg_ovf", n(1), true, ["OverflowError"], Some("rpy3.rlib.rarithmetic._neg_ovf");
    AbsOvf = "abs_ovf", n(1), true, ["OverflowError"], Some("rpy3.rlib.rarithmetic._abs_ovf");
    // comparisons
    Lt = "lt", n(2), true, ["TypeError"], Some("operator.lt");
    Le = "le", n(2), true, ["TypeError"], Some("operator.le");
    Eq = "eq", n(2), true, [], Some("operator.eq");
    Ne = "ne", n(2), true, [], Some("operator.ne");
    Gt = "gt", n(2), true, ["TypeError"], Some("operator.gt");
    Ge = "ge", n(2), true, ["TypeError"], Some("operator.ge");
    Contains = "contains", n(2), true, [], Some("operator.contains");
    // conversions of builtins that map one-to-one
    Len = "len", n(1), true, [], Some("builtins.len");
    Hash = "hash", n(1), false, [], Some("builtins.hash");
    Repr = "repr", n(1), true, [], Some("builtins.repr");
    Str = "str", n(1), true, [], Some("builtins.str");
    Ascii = "ascii", n(1), true, [], Some("builtins.ascii");
    Format = "format", n(2), true, ["ValueError"], Some("builtins.format");
    // attributes and items
    Getattr = "getattr", n(2), true, ["AttributeError"], Some("builtins.getattr");
    Setattr = "setattr", n(3), false, [], Some("builtins.setattr");
    Delattr = "delattr", n(2), false, [], Some("builtins.delattr");
    Getitem = "getitem", n(2), true, ["IndexError", "KeyError", "ValueError"], Some("operator.getitem");
    Setitem = "setitem", n(3), false, ["IndexError", "KeyError", "ValueError"], Some("operator.setitem");
    Delitem = "delitem", n(2), false, ["IndexError", "KeyError"], Some("operator.delitem");
    Getslice = "getslice", n(3), true, [], None;
    Setslice = "setslice", n(4), false, ["ValueError"], None;
    Delslice = "delslice", n(3), false, [], None;
    Newslice = "newslice", n(3), true, [], Some("builtins.slice");
    // iteration
    Iter = "iter", n(1), false, [], Some("builtins.iter");
    Next = "next", n(1), false, ["StopIteration"], Some("builtins.next");
    // construction
    Newtuple = "newtuple", V, true, [], None;
    Newlist = "newlist", V, false, [], None;
    Newdict = "newdict", V, false, [], None;
    Newset = "newset", V, false, [], None;
    // calls: simple_call(f, args...), call_args(f, shape, args...)
    SimpleCall = "simple_call", V, false, ["Exception"], None;
    CallArgs = "call_args", V, false, ["Exception"], None;
    // generators: the result is the value sent back in (None for next())
    Yield = "yield_", n(1), false, [], None;
    // `yield from it`: what the delegate returned, read once `next(it)`
    // raised the StopIteration given as the second argument
    YieldFromResult = "yield_from_result", n(2), false, [], Some("rpy3.flowops.yield_from_result");
    // `a, b = x`: x itself when it is a sequence (tuple, list, str, bytes),
    // else a list of its items (an iterator, a generator, a dict...)
    Unpackable = "unpackable", n(1), false, ["Exception"], Some("rpy3.flowops.unpackable");
}

impl OpName {
    /// The printed name.
    pub fn name(self) -> &'static str {
        self.desc().name
    }

    /// Looks an operation up by its printed name (high-level first).
    pub fn from_name(name: &str) -> Option<OpName> {
        ALL_OPS
            .iter()
            .copied()
            .find(|op| op.name() == name)
            .or_else(|| crate::lloperation::LlOp::from_name(name).map(OpName::Ll))
    }

    /// True for low-level operations.
    pub fn is_ll(self) -> bool {
        matches!(self, OpName::Ll(_))
    }
}

impl fmt::Display for OpName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The shape of a `call_args` operation, stored as its second argument (a
/// constant tuple `(num_positional, (keyword names...), has_star,
/// has_starstar)`), as PyPy's `CallShape`.  The operation's remaining
/// arguments are the positional values, then one value per keyword, then
/// the `*args` tuple and the `**kwargs` dict when present.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CallShape {
    /// Number of plain positional arguments.
    pub num_positional: usize,
    /// Names of the keyword arguments, in order.
    pub keywords: Vec<String>,
    /// Whether a `*args` tuple follows.
    pub has_star: bool,
    /// Whether a `**kwargs` dict follows.
    pub has_starstar: bool,
}

impl CallShape {
    /// Reads a shape from its constant tuple form.
    pub fn from_py(obj: &pyo3::Bound<'_, pyo3::PyAny>) -> Option<CallShape> {
        use pyo3::types::PyAnyMethods;
        let (num_positional, keywords, has_star, has_starstar): (usize, Vec<String>, bool, bool) =
            obj.extract().ok()?;
        Some(CallShape {
            num_positional,
            keywords,
            has_star,
            has_starstar,
        })
    }

    /// Number of value arguments the shape describes.
    pub fn num_args(&self) -> usize {
        self.num_positional
            + self.keywords.len()
            + self.has_star as usize
            + self.has_starstar as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &op in ALL_OPS {
            assert!(seen.insert(op.name()), "duplicate {}", op.name());
            assert_eq!(OpName::from_name(op.name()), Some(op));
        }
    }
}
