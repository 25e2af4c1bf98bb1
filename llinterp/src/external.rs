//! The functions of the external-function table
//! ([`rpy3_model::extfunc`]), run against a [`World`]: strings cross as
//! UTF-8, failures of the system become `OSError`, and `sys.exit` ends the
//! run with a status.

use rpy3_model::extfunc::ExtFunc;
use rpy3_model::lltype::{HeapObj, LlType, LlValue, Ptr};

use crate::arith::Exc;
use crate::store::Store;
use crate::world::{Streams, World};
use crate::Fault;

/// Why an external function did not return.
pub(crate) enum ExtTrap {
    /// A built-in exception (`OSError`, `ValueError` for text that cannot
    /// be encoded).
    Raise(Exc),
    /// `sys.exit(status)`.
    Exit(i64),
    /// `sys.setrecursionlimit(n)` (n at least 1): the interpreter's own
    /// state, which the caller holds.
    RecursionLimit(usize),
    /// A program error (a bad pointer).
    Fault(Fault),
}

impl From<Fault> for ExtTrap {
    fn from(f: Fault) -> ExtTrap {
        ExtTrap::Fault(f)
    }
}

/// The code points (or byte values) of the string `v` points to; `None`
/// for a null pointer.
pub(crate) fn read_chars(heap: &Store, v: LlValue) -> Result<Option<Vec<u32>>, Fault> {
    let p = match v {
        LlValue::Ptr(None) => return Ok(None),
        LlValue::Ptr(Some(p)) => p,
        other => return Err(Fault::Type(format!("{other:?} is not a string pointer"))),
    };
    let o = heap
        .get(p.obj)
        .ok_or_else(|| Fault::BadPointer(format!("{p:?}")))?;
    o.items
        .iter()
        .map(|c| match c {
            LlValue::UniChar(c) => Ok(*c),
            other => Err(Fault::Type(format!("a string holding {other:?}"))),
        })
        .collect::<Result<Vec<u32>, Fault>>()
        .map(Some)
}

/// UTF-8 of code points; lone surrogates cannot be encoded (CPython's
/// `UnicodeEncodeError`, a `ValueError`).
fn utf8(chars: &[u32]) -> Result<Vec<u8>, ExtTrap> {
    let mut s = String::with_capacity(chars.len());
    for &c in chars {
        s.push(char::from_u32(c).ok_or(ExtTrap::Raise(Exc::Value))?);
    }
    Ok(s.into_bytes())
}

/// A new string of type `ptr_ty` (a pointer to `rpy_string` or
/// `rpy_bytes`) holding `chars`.
fn new_string(heap: &mut Store, ptr_ty: LlType, chars: impl Iterator<Item = u32>) -> LlValue {
    let ty = ptr_ty.target().unwrap_or(ptr_ty);
    let mut slots = Vec::new();
    ty.zero_slots(&mut slots);
    let obj = heap.push(HeapObj {
        ty,
        slots,
        items: chars.map(LlValue::UniChar).collect(),
        item_slots: 1,
    });
    LlValue::Ptr(Some(Ptr {
        obj,
        offset: 0,
        item: 0,
        ty,
    }))
}

fn int(v: LlValue) -> Result<i64, Fault> {
    match v {
        LlValue::Int(i) => Ok(i),
        other => Err(Fault::Type(format!("{other:?} is not a Signed"))),
    }
}

fn float(v: LlValue) -> Result<f64, Fault> {
    match v {
        LlValue::Float(x) => Ok(x),
        other => Err(Fault::Type(format!("{other:?} is not a Float"))),
    }
}

fn required(heap: &Store, v: LlValue) -> Result<Vec<u32>, Fault> {
    read_chars(heap, v)?.ok_or(Fault::Null("a string argument of an external function"))
}

const OS_ERROR: ExtTrap = ExtTrap::Raise(Exc::OsError);

/// Runs external function `func` on `args`; `rt` is the result type.
pub(crate) fn call(
    func: ExtFunc,
    args: &[LlValue],
    rt: LlType,
    heap: &mut Store,
    world: &mut dyn World,
    streams: &mut Streams,
) -> Result<LlValue, ExtTrap> {
    let arg = |i: usize| -> Result<LlValue, Fault> {
        args.get(i)
            .copied()
            .ok_or_else(|| Fault::Type(format!("{func} lacks argument {i}")))
    };
    Ok(match func {
        ExtFunc::StreamWrite => {
            let fd = int(arg(0)?)?;
            let text = utf8(&required(heap, arg(1)?)?)?;
            streams.write(world, fd, &text).map_err(|_| OS_ERROR)?;
            LlValue::Void
        }
        ExtFunc::StreamFlush => {
            streams.flush(world, int(arg(0)?)?).map_err(|_| OS_ERROR)?;
            LlValue::Void
        }
        ExtFunc::StreamReadline => {
            // stdout is flushed first, as CPython's input() does
            let _ = streams.flush(world, 1);
            let line = streams.readline(world).map_err(|_| OS_ERROR)?;
            let text = String::from_utf8_lossy(&line).into_owned();
            new_string(heap, rt, text.chars().map(u32::from))
        }
        ExtFunc::OsWrite => {
            let fd = int(arg(0)?)?;
            let data: Vec<u8> = required(heap, arg(1)?)?
                .into_iter()
                .map(|b| b as u8)
                .collect();
            LlValue::Int(world.write(fd, &data).map_err(|_| OS_ERROR)?)
        }
        ExtFunc::OsRead => {
            let fd = int(arg(0)?)?;
            let n = int(arg(1)?)?;
            if n < 0 {
                return Err(ExtTrap::Raise(Exc::Value));
            }
            let data = world
                .read(fd, (n as usize).min(1 << 30))
                .map_err(|_| OS_ERROR)?;
            new_string(heap, rt, data.into_iter().map(u32::from))
        }
        ExtFunc::OsOpen => {
            let path = String::from_utf8(utf8(&required(heap, arg(0)?)?)?)
                .map_err(|_| ExtTrap::Raise(Exc::Value))?;
            let fd = world
                .open(&path, int(arg(1)?)?, int(arg(2)?)?)
                .map_err(|_| OS_ERROR)?;
            LlValue::Int(fd)
        }
        ExtFunc::OsClose => {
            world.close(int(arg(0)?)?).map_err(|_| OS_ERROR)?;
            LlValue::Void
        }
        ExtFunc::OsGetenv => {
            let name = String::from_utf8(utf8(&required(heap, arg(0)?)?)?)
                .map_err(|_| ExtTrap::Raise(Exc::Value))?;
            match world.getenv(&name) {
                Some(v) => new_string(heap, rt, v.chars().map(u32::from)),
                None => LlValue::Ptr(None),
            }
        }
        ExtFunc::TimeTime => LlValue::Float(world.time()),
        ExtFunc::TimePerfCounter | ExtFunc::TimeMonotonic => LlValue::Float(world.monotonic()),
        ExtFunc::TimeProcessTime => LlValue::Float(world.process_time()),
        ExtFunc::TimeSleep => {
            let secs = float(arg(0)?)?;
            if secs < 0.0 || secs.is_nan() {
                return Err(ExtTrap::Raise(Exc::Value));
            }
            world.sleep(secs);
            LlValue::Void
        }
        ExtFunc::SysSetrecursionlimit => {
            let n = int(arg(0)?)?;
            if n < 1 {
                return Err(ExtTrap::Raise(Exc::Value));
            }
            return Err(ExtTrap::RecursionLimit(
                usize::try_from(n).unwrap_or(usize::MAX),
            ));
        }
        ExtFunc::SysExit => {
            streams.flush_all(world);
            return Err(ExtTrap::Exit(int(arg(0)?)?));
        }
    })
}
