//! The C runtime every executable of the C backend links (RPython's
//! `translator/c/src/`): its interface `rpy3.h` and its sources, embedded
//! so the backend writes them next to the generated program.  The Unicode
//! database is generated separately ([`crate::unicode`]).

/// The runtime's interface, `rpy3.h`: the contract between the runtime,
/// the generated program and the native backend.
pub const HEADER: (&str, &str) = ("rpy3.h", include_str!("../runtime/rpy3.h"));

/// The runtime's C sources, as `(file name, text)`.
pub const RUNTIME_SOURCES: &[(&str, &str)] = &[
    ("exc.c", include_str!("../runtime/exc.c")),
    ("arith.c", include_str!("../runtime/arith.c")),
    ("float.c", include_str!("../runtime/float.c")),
    ("ext.c", include_str!("../runtime/ext.c")),
];

/// The libraries the runtime needs beyond libc (`cc` arguments).
pub const LINK_LIBS: &[&str] = &["-lm", "-lpthread"];
