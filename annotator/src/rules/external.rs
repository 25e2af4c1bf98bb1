//! The outside world as a program sees it: `print()`, the standard
//! streams (`sys.stdout.write`, ...), `os.environ`, and the functions of
//! `os`, `time` and `sys` that the external-function table
//! (`rpy3_model::extfunc`) implements.  Anything else of those modules is
//! refused with an error naming it, never dropped.

use pyo3::prelude::*;

use crate::description::CallArgs;
use crate::error::AnnotatorError;
use crate::model::{describe, IntKind, SomeValue, StrKind};
use crate::Annotator;

/// The prebuilt objects of the outside world a program may hold: the
/// standard streams (also as saved in `sys.__stdout__` ...) and
/// `os.environ`.
pub fn world_object(py: Python<'_>, obj: &Bound<'_, PyAny>) -> Option<&'static str> {
    let sys = py.import("sys").ok()?;
    for (attrs, name) in [
        (["stdout", "__stdout__"], "sys.stdout"),
        (["stderr", "__stderr__"], "sys.stderr"),
        (["stdin", "__stdin__"], "sys.stdin"),
    ] {
        for a in attrs {
            if sys.getattr(a).is_ok_and(|s| s.is(obj)) {
                return Some(name);
            }
        }
    }
    let environ = py.import("os").and_then(|os| os.getattr("environ")).ok()?;
    environ.is(obj).then_some("os.environ")
}

/// The methods of a world object.
pub fn methods(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "sys.stdout" | "sys.stderr" => &["write", "flush"],
        "sys.stdin" => &["readline"],
        "os.environ" => &["get"],
        _ => return None,
    })
}

fn is_str(s: &SomeValue, kind: StrKind) -> bool {
    matches!(s, SomeValue::Str { kind: k, can_be_none: false, .. } if *k == kind)
}

fn is_int(s: &SomeValue) -> bool {
    matches!(
        s,
        SomeValue::Integer {
            kind: IntKind::Signed,
            ..
        } | SomeValue::Bool { .. }
    )
}

/// An expected argument: what it must be (in words) and the test.
type ArgCheck<'a> = (&'a str, fn(&SomeValue) -> bool);

fn expect(
    ann: &Annotator,
    what: &str,
    args: &[SomeValue],
    want: &[ArgCheck<'_>],
    optional: usize,
) -> Result<(), AnnotatorError> {
    if args.len() > want.len() || args.len() + optional < want.len() {
        return Err(ann.error(format!(
            "{what}() takes {} arguments, got {}",
            want.len(),
            args.len()
        )));
    }
    for (a, (kind, ok)) in args.iter().zip(want) {
        if !a.is_impossible() && !ok(a) {
            return Err(ann.error(format!("{what}() needs {kind}, got {}", describe(a))));
        }
    }
    Ok(())
}

fn str_arg(s: &SomeValue) -> bool {
    is_str(s, StrKind::Str)
}

fn str_or_none(s: &SomeValue) -> bool {
    str_arg(s) || matches!(s, SomeValue::None_)
}

fn bytes_arg(s: &SomeValue) -> bool {
    is_str(s, StrKind::Bytes)
}

fn int_arg(s: &SomeValue) -> bool {
    is_int(s)
}

fn float_arg(s: &SomeValue) -> bool {
    is_int(s) || matches!(s, SomeValue::Float { .. })
}

fn text(can_be_none: bool) -> SomeValue {
    SomeValue::Str {
        kind: StrKind::Str,
        is_char: false,
        can_be_none,
        konst: None,
    }
}

/// A call of a world function (`os.write`, `time.time`, `print`, ...);
/// `None` when `name` is not one.
pub fn call(
    ann: &mut Annotator,
    name: &str,
    args: &CallArgs,
) -> Option<Result<SomeValue, AnnotatorError>> {
    let result = (|| {
        let Some(a) = args.flat_positional() else {
            return Err(ann.error(format!("{name}(*args) with a non-tuple")));
        };
        if name != "print" && !args.keywords.is_empty() {
            return Err(ann.error(format!(
                "{name}() does not take keyword arguments in RPython"
            )));
        }
        Ok(match name {
            "print" => {
                for (k, v) in &args.keywords {
                    let ok = match k.as_str() {
                        "sep" | "end" => matches!(v, SomeValue::None_) || is_str(v, StrKind::Str),
                        "file" => matches!(
                            v,
                            SomeValue::Builtin {
                                name: "sys.stdout" | "sys.stderr",
                                s_self: None
                            }
                        ),
                        "flush" => matches!(v, SomeValue::Bool { .. }),
                        _ => {
                            return Err(ann.error(format!(
                                "print() does not take the keyword argument '{k}'"
                            )))
                        }
                    };
                    if !ok && !v.is_impossible() {
                        return Err(ann.error(format!(
                            "print({k}=...) of {} (RPython prints to sys.stdout or sys.stderr, \
                             with str separators and a constant flush)",
                            describe(v)
                        )));
                    }
                }
                SomeValue::None_
            }
            "os.write" => {
                expect(
                    ann,
                    name,
                    &a,
                    &[("an int", int_arg), ("bytes", bytes_arg)],
                    0,
                )?;
                SomeValue::nonneg_int()
            }
            "os.read" => {
                expect(
                    ann,
                    name,
                    &a,
                    &[("an int", int_arg), ("an int", int_arg)],
                    0,
                )?;
                super::arith::string(StrKind::Bytes)
            }
            "os.open" => {
                expect(
                    ann,
                    name,
                    &a,
                    &[("a str", str_arg), ("an int", int_arg), ("an int", int_arg)],
                    1,
                )?;
                SomeValue::nonneg_int()
            }
            "os.close" => {
                expect(ann, name, &a, &[("an int", int_arg)], 0)?;
                SomeValue::None_
            }
            "os.getenv" => {
                expect(
                    ann,
                    name,
                    &a,
                    &[("a str", str_arg), ("a str or None", str_or_none)],
                    1,
                )?;
                text(a.len() == 1 || matches!(a[1], SomeValue::None_))
            }
            "time.time" | "time.perf_counter" | "time.monotonic" | "time.process_time" => {
                expect(ann, name, &a, &[], 0)?;
                SomeValue::float()
            }
            "time.sleep" => {
                expect(ann, name, &a, &[("a number", float_arg)], 0)?;
                SomeValue::None_
            }
            "sys.setrecursionlimit" => {
                expect(ann, name, &a, &[("an int", is_int)], 0)?;
                SomeValue::None_
            }
            "sys.exit" => {
                let ok = match a.as_slice() {
                    [] => true,
                    [x] => is_int(x) || matches!(x, SomeValue::None_),
                    _ => false,
                };
                if !ok {
                    return Err(ann.error(
                        "sys.exit() takes an int status or nothing in RPython".to_string(),
                    ));
                }
                SomeValue::None_
            }
            _ => return Err(ann.error(format!("no external function {name}"))),
        })
    })();
    match name {
        "print" | "os.write" | "os.read" | "os.open" | "os.close" | "os.getenv" | "time.time"
        | "time.perf_counter" | "time.monotonic" | "time.process_time" | "time.sleep"
        | "sys.exit" | "sys.setrecursionlimit" => Some(result),
        _ => None,
    }
}

/// A call of a method of a world object (`sys.stdout.write(s)`).
pub fn call_method(
    ann: &mut Annotator,
    receiver: &str,
    method: &str,
    args: &CallArgs,
) -> Result<SomeValue, AnnotatorError> {
    let what = format!("{receiver}.{method}");
    let Some(a) = args.flat_positional() else {
        return Err(ann.error(format!("{what}(*args) with a non-tuple")));
    };
    if !args.keywords.is_empty() {
        return Err(ann.error(format!("{what}() with keyword arguments")));
    }
    Ok(match (receiver, method) {
        ("sys.stdout" | "sys.stderr", "write") => {
            expect(ann, &what, &a, &[("a str", str_arg)], 0)?;
            SomeValue::nonneg_int()
        }
        ("sys.stdout" | "sys.stderr", "flush") => {
            expect(ann, &what, &a, &[], 0)?;
            SomeValue::None_
        }
        ("sys.stdin", "readline") => {
            expect(ann, &what, &a, &[], 0)?;
            text(false)
        }
        ("os.environ", "get") => {
            expect(
                ann,
                &what,
                &a,
                &[("a str", str_arg), ("a str or None", str_or_none)],
                1,
            )?;
            text(a.len() == 1 || matches!(a[1], SomeValue::None_))
        }
        _ => return Err(ann.error(format!("{what}() is not supported in RPython"))),
    })
}
