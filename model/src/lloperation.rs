//! The table of low-level operations (PyPy's `lloperation.py`): every
//! operation that can appear in a graph after rtyping, listed once with the
//! types of its arguments and result, whether it can be constant-folded,
//! the exceptions it can raise, and whether it has side effects.  The
//! llinterp, genc and native each implement exactly this table; each has a
//! test that fails when an operation has no implementation.
//!
//! Arithmetic follows `DESIGN.md`: two's-complement wrap-around, Python's
//! floor rules for `//` and `%` (`int_floordiv`, `int_mod`), division by
//! zero raising `ZeroDivisionError`, `_ovf` variants raising
//! `OverflowError`, and shifts by a negative count raising `ValueError`.

use std::fmt;

/// What an argument or result of an operation must be.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TyPat {
    /// `Signed`.
    Signed,
    /// `Unsigned`.
    Unsigned,
    /// `SignedLongLong`.
    LongLong,
    /// `UnsignedLongLong`.
    ULongLong,
    /// `Float`.
    Float,
    /// `Bool`.
    Bool,
    /// `Char`.
    Char,
    /// `UniChar`.
    UniChar,
    /// `Void` (a constant: a type, a field name, a flavor).
    Void,
    /// A pointer to a struct or array.
    Ptr,
    /// A function pointer.
    FuncPtr,
    /// Any type (checked by the operation's own rule).
    Any,
    /// Any number of arguments of any type follow (calls).
    Rest,
}

/// The description of one low-level operation.
#[derive(Debug)]
pub struct LlOpDesc {
    /// Name as printed.
    pub name: &'static str,
    /// Argument patterns (ending with `Rest` for variadic operations).
    pub args: &'static [TyPat],
    /// Result pattern.
    pub result: TyPat,
    /// Pure: no side effects and the same result for the same arguments.
    pub canfold: bool,
    /// Built-in exception classes the operation can raise.
    pub canraise: &'static [&'static str],
    /// Has side effects (cannot be removed when its result is unused).
    pub sideeffects: bool,
    /// Exists only in graphs prepared for a compiled backend (the
    /// exception, GC and stack-check passes of `rpy3-prep` insert it); the
    /// llinterp runs graphs before preparation and refuses it.
    pub prepared: bool,
}

macro_rules! ll_operations {
    ($( $variant:ident = $name:literal, [$($arg:ident),*] -> $res:ident, $kind:ident, [$($exc:literal),*]; )*) => {
        /// A low-level operation.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        #[allow(non_camel_case_types)]
        pub enum LlOp {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        /// Every low-level operation, in table order.
        pub const ALL_LL_OPS: &[LlOp] = &[$(LlOp::$variant,)*];

        impl LlOp {
            /// The operation's description.
            pub fn desc(self) -> &'static LlOpDesc {
                match self {
                    $(LlOp::$variant => {
                        const D: LlOpDesc = LlOpDesc {
                            name: $name,
                            args: &[$(TyPat::$arg),*],
                            result: TyPat::$res,
                            canfold: ll_operations!(@fold $kind),
                            canraise: &[$($exc),*],
                            sideeffects: ll_operations!(@side $kind),
                            prepared: ll_operations!(@prep $kind),
                        };
                        &D
                    })*
                }
            }
        }
    };
    (@fold pure) => { true };
    (@fold raising) => { false };
    (@fold read) => { false };
    (@fold effect) => { false };
    (@side pure) => { false };
    (@side raising) => { false };
    (@side read) => { false };
    (@side effect) => { true };
    (@side prepared) => { true };
    (@fold prepared) => { false };
    (@prep prepared) => { true };
    (@prep $other:ident) => { false };
}

// kinds: pure (foldable, no side effects), raising (no side effects but may
// raise, so not removable blindly), read (reads mutable memory), effect,
// prepared (only in graphs prepared for a compiled backend).
ll_operations! {
    // --- Signed -------------------------------------------------------------
    IntAdd = "int_add", [Signed, Signed] -> Signed, pure, [];
    IntSub = "int_sub", [Signed, Signed] -> Signed, pure, [];
    IntMul = "int_mul", [Signed, Signed] -> Signed, pure, [];
    IntFloordiv = "int_floordiv", [Signed, Signed] -> Signed, raising, ["ZeroDivisionError"];
    IntMod = "int_mod", [Signed, Signed] -> Signed, raising, ["ZeroDivisionError"];
    IntAnd = "int_and", [Signed, Signed] -> Signed, pure, [];
    IntOr = "int_or", [Signed, Signed] -> Signed, pure, [];
    IntXor = "int_xor", [Signed, Signed] -> Signed, pure, [];
    IntLshift = "int_lshift", [Signed, Signed] -> Signed, raising, ["ValueError"];
    IntRshift = "int_rshift", [Signed, Signed] -> Signed, raising, ["ValueError"];
    IntNeg = "int_neg", [Signed] -> Signed, pure, [];
    IntAbs = "int_abs", [Signed] -> Signed, pure, [];
    IntInvert = "int_invert", [Signed] -> Signed, pure, [];
    IntIsTrue = "int_is_true", [Signed] -> Bool, pure, [];
    IntLt = "int_lt", [Signed, Signed] -> Bool, pure, [];
    IntLe = "int_le", [Signed, Signed] -> Bool, pure, [];
    IntEq = "int_eq", [Signed, Signed] -> Bool, pure, [];
    IntNe = "int_ne", [Signed, Signed] -> Bool, pure, [];
    IntGt = "int_gt", [Signed, Signed] -> Bool, pure, [];
    IntGe = "int_ge", [Signed, Signed] -> Bool, pure, [];
    IntAddOvf = "int_add_ovf", [Signed, Signed] -> Signed, raising, ["OverflowError"];
    IntSubOvf = "int_sub_ovf", [Signed, Signed] -> Signed, raising, ["OverflowError"];
    IntMulOvf = "int_mul_ovf", [Signed, Signed] -> Signed, raising, ["OverflowError"];
    IntNegOvf = "int_neg_ovf", [Signed] -> Signed, raising, ["OverflowError"];
    IntAbsOvf = "int_abs_ovf", [Signed] -> Signed, raising, ["OverflowError"];
    IntFloordivOvf = "int_floordiv_ovf", [Signed, Signed] -> Signed, raising, ["ZeroDivisionError", "OverflowError"];
    IntModOvf = "int_mod_ovf", [Signed, Signed] -> Signed, raising, ["ZeroDivisionError", "OverflowError"];
    IntLshiftOvf = "int_lshift_ovf", [Signed, Signed] -> Signed, raising, ["ValueError", "OverflowError"];
    IntPow = "int_pow", [Signed, Signed] -> Signed, raising, ["ValueError"];
    // `a / b` on ints: the correctly rounded float of the exact quotient
    IntTruediv = "int_truediv", [Signed, Signed] -> Float, raising, ["ZeroDivisionError"];
    // --- Unsigned -----------------------------------------------------------
    UintAdd = "uint_add", [Unsigned, Unsigned] -> Unsigned, pure, [];
    UintSub = "uint_sub", [Unsigned, Unsigned] -> Unsigned, pure, [];
    UintMul = "uint_mul", [Unsigned, Unsigned] -> Unsigned, pure, [];
    UintFloordiv = "uint_floordiv", [Unsigned, Unsigned] -> Unsigned, raising, ["ZeroDivisionError"];
    UintMod = "uint_mod", [Unsigned, Unsigned] -> Unsigned, raising, ["ZeroDivisionError"];
    UintAnd = "uint_and", [Unsigned, Unsigned] -> Unsigned, pure, [];
    UintOr = "uint_or", [Unsigned, Unsigned] -> Unsigned, pure, [];
    UintXor = "uint_xor", [Unsigned, Unsigned] -> Unsigned, pure, [];
    UintLshift = "uint_lshift", [Unsigned, Signed] -> Unsigned, raising, ["ValueError"];
    UintRshift = "uint_rshift", [Unsigned, Signed] -> Unsigned, raising, ["ValueError"];
    UintNeg = "uint_neg", [Unsigned] -> Unsigned, pure, [];
    UintInvert = "uint_invert", [Unsigned] -> Unsigned, pure, [];
    UintIsTrue = "uint_is_true", [Unsigned] -> Bool, pure, [];
    UintLt = "uint_lt", [Unsigned, Unsigned] -> Bool, pure, [];
    UintLe = "uint_le", [Unsigned, Unsigned] -> Bool, pure, [];
    UintEq = "uint_eq", [Unsigned, Unsigned] -> Bool, pure, [];
    UintNe = "uint_ne", [Unsigned, Unsigned] -> Bool, pure, [];
    UintGt = "uint_gt", [Unsigned, Unsigned] -> Bool, pure, [];
    UintGe = "uint_ge", [Unsigned, Unsigned] -> Bool, pure, [];
    // --- Float --------------------------------------------------------------
    FloatAdd = "float_add", [Float, Float] -> Float, pure, [];
    FloatSub = "float_sub", [Float, Float] -> Float, pure, [];
    FloatMul = "float_mul", [Float, Float] -> Float, pure, [];
    FloatTruediv = "float_truediv", [Float, Float] -> Float, raising, ["ZeroDivisionError"];
    FloatFloordiv = "float_floordiv", [Float, Float] -> Float, raising, ["ZeroDivisionError"];
    FloatMod = "float_mod", [Float, Float] -> Float, raising, ["ZeroDivisionError"];
    FloatPow = "float_pow", [Float, Float] -> Float, raising, ["ZeroDivisionError", "ValueError", "OverflowError"];
    FloatNeg = "float_neg", [Float] -> Float, pure, [];
    FloatAbs = "float_abs", [Float] -> Float, pure, [];
    FloatIsTrue = "float_is_true", [Float] -> Bool, pure, [];
    FloatLt = "float_lt", [Float, Float] -> Bool, pure, [];
    FloatLe = "float_le", [Float, Float] -> Bool, pure, [];
    FloatEq = "float_eq", [Float, Float] -> Bool, pure, [];
    FloatNe = "float_ne", [Float, Float] -> Bool, pure, [];
    FloatGt = "float_gt", [Float, Float] -> Bool, pure, [];
    FloatGe = "float_ge", [Float, Float] -> Bool, pure, [];
    // the math module, with its errors (CPython's `math_1` / `math_2` rules:
    // a NaN from a non-NaN argument raises `ValueError`, an infinity from
    // finite arguments `OverflowError` or, for a pole, `ValueError`)
    FloatSqrt = "float_sqrt", [Float] -> Float, raising, ["ValueError"];
    FloatExp = "float_exp", [Float] -> Float, raising, ["OverflowError"];
    FloatExpm1 = "float_expm1", [Float] -> Float, raising, ["OverflowError"];
    FloatLog = "float_log", [Float] -> Float, raising, ["ValueError"];
    FloatLog2 = "float_log2", [Float] -> Float, raising, ["ValueError"];
    FloatLog10 = "float_log10", [Float] -> Float, raising, ["ValueError"];
    FloatLog1p = "float_log1p", [Float] -> Float, raising, ["ValueError"];
    FloatSin = "float_sin", [Float] -> Float, raising, ["ValueError"];
    FloatCos = "float_cos", [Float] -> Float, raising, ["ValueError"];
    FloatTan = "float_tan", [Float] -> Float, raising, ["ValueError"];
    FloatAsin = "float_asin", [Float] -> Float, raising, ["ValueError"];
    FloatAcos = "float_acos", [Float] -> Float, raising, ["ValueError"];
    FloatAtan = "float_atan", [Float] -> Float, pure, [];
    FloatSinh = "float_sinh", [Float] -> Float, raising, ["OverflowError"];
    FloatCosh = "float_cosh", [Float] -> Float, raising, ["OverflowError"];
    FloatTanh = "float_tanh", [Float] -> Float, pure, [];
    FloatAsinh = "float_asinh", [Float] -> Float, pure, [];
    FloatAcosh = "float_acosh", [Float] -> Float, raising, ["ValueError"];
    FloatAtanh = "float_atanh", [Float] -> Float, raising, ["ValueError"];
    FloatFloor = "float_floor", [Float] -> Float, pure, [];
    FloatCeil = "float_ceil", [Float] -> Float, pure, [];
    FloatTrunc = "float_trunc", [Float] -> Float, pure, [];
    // rounding to an integral value, halves to even (`round(x)`).
    FloatRound = "float_round", [Float] -> Float, pure, [];
    // `round(x, ndigits)`: correctly rounded, halves to even.
    FloatRoundDigits = "float_round_digits", [Float, Signed] -> Float, raising, ["OverflowError"];
    FloatAtan2 = "float_atan2", [Float, Float] -> Float, pure, [];
    FloatFmod = "float_fmod", [Float, Float] -> Float, raising, ["ValueError"];
    // `math.pow` (unlike `float_pow`, zero to a negative power raises `ValueError`).
    FloatMathPow = "float_math_pow", [Float, Float] -> Float, raising, ["ValueError", "OverflowError"];
    FloatHypot = "float_hypot", [Float, Float] -> Float, pure, [];
    FloatCopysign = "float_copysign", [Float, Float] -> Float, pure, [];
    // the exponent `math.frexp` gives (0 for zeros, infinities and NaNs)
    FloatFrexpExp = "float_frexp_exp", [Float] -> Signed, pure, [];
    // `math.ldexp`, correctly rounded; an overflow raises `OverflowError`
    FloatLdexp = "float_ldexp", [Float, Signed] -> Float, raising, ["OverflowError"];
    FloatIsnan = "float_isnan", [Float] -> Bool, pure, [];
    FloatIsinf = "float_isinf", [Float] -> Bool, pure, [];
    FloatIsfinite = "float_isfinite", [Float] -> Bool, pure, [];
    // --- chars and bools -----------------------------------------------------
    CharLt = "char_lt", [Char, Char] -> Bool, pure, [];
    CharLe = "char_le", [Char, Char] -> Bool, pure, [];
    CharEq = "char_eq", [Char, Char] -> Bool, pure, [];
    CharNe = "char_ne", [Char, Char] -> Bool, pure, [];
    CharGt = "char_gt", [Char, Char] -> Bool, pure, [];
    CharGe = "char_ge", [Char, Char] -> Bool, pure, [];
    UnicharLt = "unichar_lt", [UniChar, UniChar] -> Bool, pure, [];
    UnicharLe = "unichar_le", [UniChar, UniChar] -> Bool, pure, [];
    UnicharEq = "unichar_eq", [UniChar, UniChar] -> Bool, pure, [];
    UnicharNe = "unichar_ne", [UniChar, UniChar] -> Bool, pure, [];
    UnicharGt = "unichar_gt", [UniChar, UniChar] -> Bool, pure, [];
    UnicharGe = "unichar_ge", [UniChar, UniChar] -> Bool, pure, [];
    // code point k of the full case mapping of a character, or -1 past it
    UnicharUpper = "unichar_upper", [UniChar, Signed] -> Signed, pure, [];
    UnicharLower = "unichar_lower", [UniChar, Signed] -> Signed, pure, [];
    UnicharTitle = "unichar_title", [UniChar, Signed] -> Signed, pure, [];
    UnicharCasefold = "unichar_casefold", [UniChar, Signed] -> Signed, pure, [];
    // code point k of a float formatted by spec (see llinterp's
    // `arith::format_float`), or -1 past the end
    FloatFormatChar = "float_format_char", [Float, Signed, Signed] -> Signed, pure, [];
    // the property flags of a character (`unicodedb`)
    UnicharProps = "unichar_props", [UniChar] -> Signed, pure, [];
    BoolNot = "bool_not", [Bool] -> Bool, pure, [];
    // --- conversions ------------------------------------------------------------
    SameAs = "same_as", [Any] -> Any, pure, [];
    CastBoolToInt = "cast_bool_to_int", [Bool] -> Signed, pure, [];
    CastBoolToUint = "cast_bool_to_uint", [Bool] -> Unsigned, pure, [];
    CastBoolToFloat = "cast_bool_to_float", [Bool] -> Float, pure, [];
    CastIntToFloat = "cast_int_to_float", [Signed] -> Float, pure, [];
    CastUintToFloat = "cast_uint_to_float", [Unsigned] -> Float, pure, [];
    CastFloatToInt = "cast_float_to_int", [Float] -> Signed, raising, ["OverflowError", "ValueError"];
    CastFloatToUint = "cast_float_to_uint", [Float] -> Unsigned, raising, ["OverflowError", "ValueError"];
    CastIntToUint = "cast_int_to_uint", [Signed] -> Unsigned, pure, [];
    CastUintToInt = "cast_uint_to_int", [Unsigned] -> Signed, pure, [];
    CastIntToLonglong = "cast_int_to_longlong", [Signed] -> LongLong, pure, [];
    CastLonglongToInt = "cast_longlong_to_int", [LongLong] -> Signed, pure, [];
    CastCharToInt = "cast_char_to_int", [Char] -> Signed, pure, [];
    CastIntToChar = "cast_int_to_char", [Signed] -> Char, raising, ["ValueError"];
    CastUnicharToInt = "cast_unichar_to_int", [UniChar] -> Signed, pure, [];
    CastIntToUnichar = "cast_int_to_unichar", [Signed] -> UniChar, raising, ["ValueError"];
    // --- memory -------------------------------------------------------------------
    Malloc = "malloc", [Void] -> Ptr, effect, ["MemoryError"];
    MallocVarsize = "malloc_varsize", [Void, Signed] -> Ptr, effect, ["MemoryError"];
    Getfield = "getfield", [Ptr, Void] -> Any, read, [];
    Setfield = "setfield", [Ptr, Void, Any] -> Void, effect, [];
    Getsubstruct = "getsubstruct", [Ptr, Void] -> Ptr, pure, [];
    Getarrayitem = "getarrayitem", [Ptr, Signed] -> Any, read, ["IndexError"];
    Setarrayitem = "setarrayitem", [Ptr, Signed, Any] -> Void, effect, ["IndexError"];
    Getarraysize = "getarraysize", [Ptr] -> Signed, read, [];
    Getinteriorfield = "getinteriorfield", [Ptr, Rest] -> Any, read, ["IndexError"];
    Setinteriorfield = "setinteriorfield", [Ptr, Rest] -> Void, effect, ["IndexError"];
    Getinteriorarraysize = "getinteriorarraysize", [Ptr, Rest] -> Signed, read, [];
    CastPointer = "cast_pointer", [Void, Ptr] -> Ptr, pure, [];
    PtrEq = "ptr_eq", [Ptr, Ptr] -> Bool, pure, [];
    PtrNe = "ptr_ne", [Ptr, Ptr] -> Bool, pure, [];
    PtrIszero = "ptr_iszero", [Ptr] -> Bool, pure, [];
    PtrNonzero = "ptr_nonzero", [Ptr] -> Bool, pure, [];
    GcIdentityHash = "gc_identityhash", [Ptr] -> Signed, pure, [];
    // `id(x)`: a number unique to the object while it lives (0 for null)
    GcId = "gc_id", [Ptr] -> Signed, pure, [];
    // the float an ASCII decimal (or inf/nan) text in an rpy_string means,
    // correctly rounded; ValueError if it is not one
    StrToFloat = "str_to_float", [Ptr] -> Float, raising, ["ValueError"];
    // --- calls and the rest ---------------------------------------------------------
    DirectCall = "direct_call", [FuncPtr, Rest] -> Any, effect, ["Exception"];
    IndirectCall = "indirect_call", [FuncPtr, Rest] -> Any, effect, ["Exception"];
    // a function of the external-function table (`extfunc`), named by the
    // Void constant first
    ExternalCall = "external_call", [Void, Rest] -> Any, effect, ["OSError"];
    DebugAssert = "debug_assert", [Bool, Void] -> Void, effect, [];
    KeepAlive = "keepalive", [Any] -> Void, effect, [];
    // --- prepared graphs only (rpy3-prep) ------------------------------------------
    // exceptions as explicit state: whether an exception is pending, the
    // pending class (a vtable pointer) and instance, forgetting it, and
    // making (class, instance) the pending exception
    ExcOccurred = "exc_occurred", [] -> Bool, prepared, [];
    ExcFetchType = "exc_fetch_type", [] -> Ptr, prepared, [];
    ExcFetchValue = "exc_fetch_value", [] -> Ptr, prepared, [];
    ExcClear = "exc_clear", [] -> Void, prepared, [];
    ExcRaise = "exc_raise", [Ptr, Ptr] -> Void, prepared, [];
    // GC pointers live across an operation that can collect, pushed on the
    // shadow stack before it and popped after it (same arguments, same order)
    GcPushRoots = "gc_push_roots", [Rest] -> Void, prepared, [];
    GcPopRoots = "gc_pop_roots", [Rest] -> Void, prepared, [];
    // at the entry of a function on a cycle of the call graph: raises
    // RecursionError when the machine stack is nearly exhausted
    StackCheck = "stack_check", [] -> Void, prepared, ["RecursionError"];
}

impl LlOp {
    /// The printed name.
    pub fn name(self) -> &'static str {
        self.desc().name
    }

    /// Looks an operation up by its printed name.
    pub fn from_name(name: &str) -> Option<LlOp> {
        ALL_LL_OPS.iter().copied().find(|op| op.name() == name)
    }

    /// Index in the table (for executors' dispatch tables).
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for LlOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_flags_consistent() {
        let mut seen = std::collections::HashSet::new();
        for &op in ALL_LL_OPS {
            let d = op.desc();
            assert!(seen.insert(d.name), "duplicate {}", d.name);
            assert_eq!(LlOp::from_name(d.name), Some(op));
            assert!(
                !d.canfold || d.canraise.is_empty(),
                "{} folds but raises",
                d.name
            );
            assert!(
                !(d.canfold && d.sideeffects),
                "{} folds but has side effects",
                d.name
            );
            if let Some(pos) = d.args.iter().position(|a| *a == TyPat::Rest) {
                assert_eq!(pos + 1, d.args.len(), "{}: Rest must come last", d.name);
            }
        }
    }
}
