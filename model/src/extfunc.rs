//! The table of external functions: every call a translated program makes
//! into the outside world (PyPy's `rffi.llexternal` functions and the
//! `ll_os` module), listed once with its low-level signature.
//!
//! A graph reaches one through the `external_call` low-level operation,
//! whose first argument is a `Void` constant holding the function's name
//! (a Python `str`).  The llinterp, genc and native each implement exactly
//! this table; each has a test that fails when a function has no
//! implementation.  Nothing a program does outside is dropped silently: a
//! call the annotator does not map to an entry here is an error.
//!
//! Text streams: `print()`, `sys.stdout.write` and `sys.stderr.write` go
//! through `stream_write`, which buffers as CPython's text streams do
//! (stdout flushed at exit, by `flush` and when its buffer fills; stderr
//! line-buffered), while `os.write` writes to the descriptor at once.

use std::fmt;

/// The low-level type of an argument or result of an external function.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExtTy {
    /// `Signed`.
    Signed,
    /// `Float`.
    Float,
    /// `Bool`.
    Bool,
    /// `Void` (results only).
    Void,
    /// A pointer to an `rpy_string` (may be null where a Python `None` is
    /// allowed).
    Str,
    /// A pointer to an `rpy_bytes`.
    Bytes,
}

/// The description of one external function.
#[derive(Debug)]
pub struct ExtFuncDesc {
    /// The name used in graphs and by the runtime.
    pub name: &'static str,
    /// The Python-level spelling, for messages.
    pub python: &'static str,
    /// Argument types.
    pub args: &'static [ExtTy],
    /// Result type.
    pub result: ExtTy,
    /// Built-in exception classes the function can raise.
    pub canraise: &'static [&'static str],
}

macro_rules! ext_functions {
    ($( $variant:ident = $name:literal ($python:literal), [$($arg:ident),*] -> $res:ident, [$($exc:literal),*]; )*) => {
        /// An external function.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum ExtFunc {
            $(
                #[doc = concat!("`", $python, "`")]
                $variant,
            )*
        }

        /// Every external function, in table order.
        pub const ALL_EXT_FUNCS: &[ExtFunc] = &[$(ExtFunc::$variant,)*];

        impl ExtFunc {
            /// The function's description.
            pub fn desc(self) -> &'static ExtFuncDesc {
                match self {
                    $(ExtFunc::$variant => {
                        const D: ExtFuncDesc = ExtFuncDesc {
                            name: $name,
                            python: $python,
                            args: &[$(ExtTy::$arg),*],
                            result: ExtTy::$res,
                            canraise: &[$($exc),*],
                        };
                        &D
                    })*
                }
            }
        }
    };
}

ext_functions! {
    // buffered text streams (fd 1: stdout, fd 2: stderr)
    StreamWrite = "stream_write" ("sys.stdout.write"), [Signed, Str] -> Void, [];
    StreamFlush = "stream_flush" ("sys.stdout.flush"), [Signed] -> Void, [];
    // a line of stdin without its buffering subtleties: '' at end of file
    StreamReadline = "stream_readline" ("sys.stdin.readline"), [] -> Str, ["OSError"];
    // the operating system (unbuffered)
    OsWrite = "os_write" ("os.write"), [Signed, Bytes] -> Signed, ["OSError"];
    OsRead = "os_read" ("os.read"), [Signed, Signed] -> Bytes, ["OSError"];
    OsOpen = "os_open" ("os.open"), [Str, Signed, Signed] -> Signed, ["OSError"];
    OsClose = "os_close" ("os.close"), [Signed] -> Void, ["OSError"];
    // the value of an environment variable, or null (None)
    OsGetenv = "os_getenv" ("os.environ.get"), [Str] -> Str, [];
    TimeTime = "time_time" ("time.time"), [] -> Float, [];
    TimePerfCounter = "time_perf_counter" ("time.perf_counter"), [] -> Float, [];
    TimeMonotonic = "time_monotonic" ("time.monotonic"), [] -> Float, [];
    TimeProcessTime = "time_process_time" ("time.process_time"), [] -> Float, [];
    TimeSleep = "time_sleep" ("time.sleep"), [Float] -> Void, [];
    // ends the program with this status once the streams are flushed
    SysExit = "sys_exit" ("sys.exit"), [Signed] -> Void, [];
    // the depth of the program's own calls past which RecursionError, where
    // the executor counts them as CPython does (the llinterp, test builds);
    // elsewhere the machine stack bounds it and this only checks `n`
    SysSetrecursionlimit = "sys_setrecursionlimit" ("sys.setrecursionlimit"), [Signed] -> Void, ["ValueError"];
}

impl ExtFunc {
    /// The name used in graphs.
    pub fn name(self) -> &'static str {
        self.desc().name
    }

    /// Looks a function up by its name in graphs.
    pub fn from_name(name: &str) -> Option<ExtFunc> {
        ALL_EXT_FUNCS.iter().copied().find(|f| f.name() == name)
    }
}

impl fmt::Display for ExtFunc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for &f in ALL_EXT_FUNCS {
            assert!(seen.insert(f.name()), "duplicate {}", f.name());
            assert_eq!(ExtFunc::from_name(f.name()), Some(f));
            assert!(
                !f.desc().args.contains(&ExtTy::Void),
                "{}: Void argument",
                f.name()
            );
        }
    }
}
