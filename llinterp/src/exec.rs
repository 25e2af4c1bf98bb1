//! Running compiled functions: one loop over instructions with an explicit
//! frame stack (a call pushes a frame, never a Rust stack frame), all
//! frames' registers being windows of one register stack.
//!
//! An exception raised by the instruction at `pc` is caught when
//! `code[pc + 1]` is a `Catch` (the raising operation of a raising block)
//! with a handler whose class range contains the raised class; otherwise
//! it leaves the function and is looked up again at the caller's call
//! instruction.

use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{Heap, HeapObj, LlType, LlValue, Ptr, VOID};

use crate::arith::{self, Exc, INDEX, MEMORY, RECURSION};
use crate::external::{self, ExtTrap};
use crate::load::{CFunc, Instr, Step, NONE};
use crate::store::Store;
use crate::{BuiltinExc, Fault, LlError, LlInterp, LlOutcome};

/// Why an instruction did not complete.
enum Trap {
    /// A built-in exception of an operation.
    Raise(Exc),
    /// A program error.
    Fault(Fault),
    /// An allocation found a collection due: collect, then retry it.
    Collect,
}

impl From<Exc> for Trap {
    fn from(e: Exc) -> Trap {
        Trap::Raise(e)
    }
}

#[derive(Clone, Copy)]
struct Frame {
    func: u32,
    base: u32,
    /// The call instruction.
    pc: u32,
}

/// The most arguments an external function takes.
const MAX_EXTERNAL_ARGS: usize = 4;

/// Largest number of slots one `malloc_varsize` may allocate.
const MAX_ALLOC_SLOTS: u64 = 1 << 31;

#[cold]
fn type_fault(want: &'static str, got: LlValue) -> Trap {
    Trap::Fault(Fault::Type(format!("expected a {want}, got {got:?}")))
}

/// A pointer to no object, to a freed one, or to a slot outside its object.
#[cold]
fn bad_pointer(heap: &impl Objects, p: &Ptr) -> Trap {
    Trap::Fault(Fault::BadPointer(if heap.freed(p.obj) {
        format!("{p:?} points to a freed object")
    } else {
        format!("{p:?} does not point to a valid slot")
    }))
}

#[inline(always)]
fn int(v: LlValue) -> Result<i64, Trap> {
    match v {
        LlValue::Int(i) => Ok(i),
        o => Err(type_fault("Signed", o)),
    }
}

#[inline(always)]
fn uint(v: LlValue) -> Result<u64, Trap> {
    match v {
        LlValue::UInt(i) => Ok(i),
        o => Err(type_fault("Unsigned", o)),
    }
}

#[inline(always)]
fn float(v: LlValue) -> Result<f64, Trap> {
    match v {
        LlValue::Float(x) => Ok(x),
        o => Err(type_fault("Float", o)),
    }
}

#[inline(always)]
fn boolean(v: LlValue) -> Result<bool, Trap> {
    match v {
        LlValue::Bool(b) => Ok(b),
        o => Err(type_fault("Bool", o)),
    }
}

#[inline(always)]
fn char8(v: LlValue) -> Result<u8, Trap> {
    match v {
        LlValue::Char(c) => Ok(c),
        o => Err(type_fault("Char", o)),
    }
}

#[inline(always)]
fn unichar(v: LlValue) -> Result<u32, Trap> {
    match v {
        LlValue::UniChar(c) => Ok(c),
        o => Err(type_fault("UniChar", o)),
    }
}

#[inline(always)]
fn ptr(v: LlValue, what: &'static str) -> Result<Ptr, Trap> {
    match v {
        LlValue::Ptr(Some(p)) => Ok(p),
        LlValue::Ptr(None) => Err(Trap::Fault(Fault::Null(what))),
        o => Err(type_fault("pointer", o)),
    }
}

/// The address part of a pointer value (None: null), for comparisons.
#[inline(always)]
fn address(v: LlValue) -> Result<Option<(u32, u32, u32, bool)>, Trap> {
    match v {
        LlValue::Ptr(None) => Ok(None),
        LlValue::Ptr(Some(p)) => Ok(Some((p.obj, p.offset, p.item, false))),
        LlValue::Func(f) => Ok(Some((f.index, 0, 0, true))),
        o => Err(type_fault("pointer", o)),
    }
}

/// Index of slot `off` of item `item` (0: the fixed part) of object `o`.
#[inline(always)]
fn slot_index(o: &HeapObj, item: u32, off: u32) -> Option<(bool, usize)> {
    if item == 0 {
        (off as usize) < o.slots.len()
    } else {
        off < o.item_slots
    }
    .then(|| {
        if item == 0 {
            (false, off as usize)
        } else {
            (
                true,
                (item as usize - 1) * o.item_slots as usize + off as usize,
            )
        }
    })
}

/// Where objects are read from: the prebuilt heap (loading) or the
/// interpreter's store.
pub(crate) trait Objects {
    fn obj(&self, n: u32) -> Option<&HeapObj>;
    /// Whether object `n` was allocated and then collected.
    fn freed(&self, _n: u32) -> bool {
        false
    }
}

impl Objects for Heap {
    #[inline(always)]
    fn obj(&self, n: u32) -> Option<&HeapObj> {
        self.object_at(n)
    }
}

impl Objects for Store {
    #[inline(always)]
    fn obj(&self, n: u32) -> Option<&HeapObj> {
        self.get(n)
    }

    fn freed(&self, n: u32) -> bool {
        self.is_freed(n)
    }
}

#[inline(always)]
fn read_at(heap: &impl Objects, p: &Ptr, item: u32, off: u32) -> Result<LlValue, Trap> {
    let o = heap.obj(p.obj).ok_or_else(|| bad_pointer(heap, p))?;
    let v = match slot_index(o, item, off) {
        Some((false, i)) => o.slots.get(i),
        Some((true, i)) => o.items.get(i),
        None => None,
    };
    v.copied().ok_or_else(|| bad_pointer(heap, p))
}

#[inline(always)]
fn write_at(heap: &mut Store, p: &Ptr, item: u32, off: u32, v: LlValue) -> Result<(), Trap> {
    let Some(o) = heap.get_mut(p.obj) else {
        return Err(bad_pointer(heap, p));
    };
    let slot = match slot_index(o, item, off) {
        Some((false, i)) => o.slots.get_mut(i),
        Some((true, i)) => o.items.get_mut(i),
        None => None,
    };
    match slot {
        Some(s) => {
            *s = v;
            Ok(())
        }
        None => Err(bad_pointer(heap, p)),
    }
}

#[inline(always)]
fn array_length(heap: &Store, p: &Ptr) -> Result<usize, Trap> {
    let o = heap.get(p.obj).ok_or_else(|| bad_pointer(heap, p))?;
    Ok(items_len(o))
}

/// Number of array items of `o` (no division for one slot per item).
#[inline(always)]
fn items_len(o: &HeapObj) -> usize {
    match o.item_slots {
        1 => o.items.len(),
        0 => 0,
        per => o.items.len() / per as usize,
    }
}

/// Index in `o.items` of the first slot of item `i`, bounds-checked.
#[inline(always)]
fn item_start(o: &HeapObj, i: i64) -> Result<usize, Trap> {
    if i < 0 || i as u64 >= items_len(o) as u64 {
        return Err(Trap::Raise(INDEX));
    }
    Ok(i as usize * o.item_slots as usize)
}

/// The item number (1-based, as in `Ptr::item`) of index `i`, bounds-checked.
#[inline(always)]
fn item_of(heap: &Store, p: &Ptr, i: i64) -> Result<u32, Trap> {
    let len = array_length(heap, p)?;
    if i < 0 || i as u64 >= len as u64 {
        return Err(Trap::Raise(INDEX));
    }
    Ok(i as u32 + 1)
}

/// For `GetinteriorItem`: slot `off` of item `w[i]` of the array `w[a]`
/// points to, checked as the general interior path checks it (an index
/// out of range raises IndexError, a slot outside the item is a bad
/// pointer).
#[inline(always)]
fn interior_get(w: &[LlValue], heap: &Store, a: u32, i: u32, off: u32) -> Result<LlValue, Trap> {
    let p = ptr(w[a as usize], "getinteriorfield")?;
    let i = int(w[i as usize])?;
    let o = heap.get(p.obj).ok_or_else(|| bad_pointer(heap, &p))?;
    let k = item_start(o, i)?;
    if off >= o.item_slots {
        return Err(bad_pointer(heap, &p));
    }
    o.items
        .get(k + off as usize)
        .copied()
        .ok_or_else(|| bad_pointer(heap, &p))
}

/// For `SetinteriorItem`: as `interior_get`, writing `w[v]`.
#[inline(always)]
fn interior_set(
    w: &[LlValue],
    heap: &mut Store,
    a: u32,
    i: u32,
    off: u32,
    v: u32,
) -> Result<(), Trap> {
    let p = ptr(w[a as usize], "setinteriorfield")?;
    let i = int(w[i as usize])?;
    let val = w[v as usize];
    let Some(o) = heap.get_mut(p.obj) else {
        return Err(bad_pointer(heap, &p));
    };
    let k = item_start(o, i)?;
    if off >= o.item_slots {
        return Err(bad_pointer(heap, &p));
    }
    match o.items.get_mut(k + off as usize) {
        Some(slot) => {
            *slot = val;
            Ok(())
        }
        None => Err(bad_pointer(heap, &p)),
    }
}

/// The `(subclassrange_min, subclassrange_max)` of a vtable.
pub(crate) fn subclass_range(heap: &impl Objects, vtable: &Ptr) -> Option<(i64, i64)> {
    let get = |slot| match read_at(heap, vtable, vtable.item, vtable.offset + slot) {
        Ok(LlValue::Int(i)) => Some(i),
        _ => None,
    };
    Some((get(0)?, get(1)?))
}

/// The class name stored in a vtable ("?" if unreadable).
pub(crate) fn class_name(heap: &impl Objects, cls: &Ptr) -> String {
    let Ok(LlValue::Ptr(Some(name))) = read_at(heap, cls, cls.item, cls.offset + 2) else {
        return "?".into();
    };
    let Some(o) = heap.obj(name.obj) else {
        return "?".into();
    };
    o.items
        .iter()
        .filter_map(|v| match v {
            LlValue::Char(c) => Some(*c as char),
            _ => None,
        })
        .collect()
}

fn instantiate(
    heap: &mut Store,
    builtins: &[Option<BuiltinExc>],
    exc: Exc,
) -> Result<(Ptr, Ptr), Fault> {
    let b = builtins[exc.index()]
        .as_ref()
        .ok_or(Fault::MissingException(exc.name()))?;
    let ty = b.instance.ty;
    let obj = heap.push(b.instance.clone());
    Ok((
        b.vtable,
        Ptr {
            obj,
            offset: 0,
            item: 0,
            ty,
        },
    ))
}

/// Follows a link: its moves, then the target's pc.
#[inline(always)]
fn take_link(f: &CFunc, regs: &mut [LlValue], scratch: &mut Vec<LlValue>, link: u32) -> usize {
    let l = &f.links[link as usize];
    let moves = &f.moves[l.moves.0 as usize..l.moves.1 as usize];
    if !l.parallel {
        for &(s, d) in moves {
            regs[d as usize] = regs[s as usize];
        }
    } else {
        scratch.clear();
        scratch.extend(moves.iter().map(|&(s, _)| regs[s as usize]));
        for (&(_, d), &v) in moves.iter().zip(scratch.iter()) {
            regs[d as usize] = v;
        }
    }
    l.target as usize
}

/// Checked down-casts already decided: a direct-mapped cache of
/// (allocated type, target) -> allowed, in front of `LlType::starts_with`.
pub(crate) struct CastCache {
    entries: Vec<(LlType, LlType, bool)>,
}

const CAST_CACHE_SIZE: usize = 256;

impl CastCache {
    pub fn new() -> CastCache {
        CastCache {
            entries: vec![(VOID, VOID, false); CAST_CACHE_SIZE],
        }
    }

    /// Whether an object of type `have` may be seen through a pointer to `want`.
    #[inline(always)]
    fn castable(&mut self, have: LlType, want: LlType) -> bool {
        let h = (have.index().wrapping_mul(0x9E37_79B1) ^ want.index().wrapping_mul(0x85EB_CA6B))
            as usize
            % CAST_CACHE_SIZE;
        let e = &mut self.entries[h];
        // (VOID, VOID) never occurs: no object is allocated with type Void
        if e.0 == have && e.1 == want {
            return e.2;
        }
        *e = (have, want, have.starts_with(want));
        e.2
    }
}

impl LlInterp {
    pub(crate) fn run(&mut self, func: usize, args: &[LlValue]) -> Result<LlValue, LlOutcome> {
        let LlInterp {
            funcs,
            store: heap,
            builtins,
            recursion_limit,
            user_recursion_limit,
            regs,
            scratch,
            cast_cache,
            world,
            streams,
            ..
        } = self;
        let mut limit = *recursion_limit;
        let mut user_limit = user_recursion_limit.unwrap_or(usize::MAX);
        let mut frames: Vec<Frame> = Vec::new();
        let mut fi = func;
        let mut f = &funcs[fi];
        // nested calls of the program's own functions (helpers excluded)
        let mut user_depth = f.counted as usize;
        let mut base = 0usize;
        if regs.len() < f.nregs {
            regs.resize(f.nregs, LlValue::Void);
        }
        regs[f.nvars..f.nregs].copy_from_slice(&f.consts);
        for (&p, &a) in f.params.iter().zip(args) {
            regs[p as usize] = a;
        }
        let mut pc = f.entry as usize;
        // the current frame's registers, kept across instructions (set
        // again whenever the frame changes or `regs` is used directly)
        let mut w: &mut [LlValue] = &mut regs[base..];
        'main: loop {
            // An instruction either continues 'main or yields the
            // exception it raised and whether it left its function.
            let (etype, evalue, left) = 'exc: {
                // the operations: on, or a trap
                macro_rules! op {
                    ($op:expr, $dst:expr, $a:expr, $b:expr, $c:expr) => {
                        match exec_op(
                            $op,
                            $dst as usize,
                            $a as usize,
                            $b,
                            $c,
                            w,
                            f,
                            heap,
                            cast_cache,
                        ) {
                            Ok(()) => {
                                pc += 1;
                                continue 'main;
                            }
                            Err(t) => t,
                        }
                    };
                }
                let trap = match f.code[pc] {
                    Instr::Op { op, dst, a, b, c } => op!(op, dst, a, b, c),
                    Instr::Getfield { dst, a, off } => op!(LlOp::Getfield, dst, a, off, 0),
                    Instr::Setfield { dst, a, off, v } => op!(LlOp::Setfield, dst, a, off, v),
                    Instr::Getarrayitem { dst, a, i } => op!(LlOp::Getarrayitem, dst, a, i, 0),
                    Instr::Setarrayitem { dst, a, i, v } => op!(LlOp::Setarrayitem, dst, a, i, v),
                    Instr::IntAdd { dst, a, b } => op!(LlOp::IntAdd, dst, a, b, 0),
                    Instr::IntSub { dst, a, b } => op!(LlOp::IntSub, dst, a, b, 0),
                    Instr::IntAddOvf { dst, a, b } => op!(LlOp::IntAddOvf, dst, a, b, 0),
                    Instr::IntSubOvf { dst, a, b } => op!(LlOp::IntSubOvf, dst, a, b, 0),
                    Instr::GetinteriorItem { dst, a, i, off } => {
                        match interior_get(w, heap, a, i, off) {
                            Ok(v) => {
                                w[dst as usize] = v;
                                pc += 1;
                                continue 'main;
                            }
                            Err(t) => t,
                        }
                    }
                    Instr::SetinteriorItem { dst, a, i, off, v } => {
                        match interior_set(w, heap, a, i, off, v) {
                            Ok(()) => {
                                w[dst as usize] = LlValue::Void;
                                pc += 1;
                                continue 'main;
                            }
                            Err(t) => t,
                        }
                    }
                    Instr::OpIf {
                        op,
                        dst,
                        a,
                        b,
                        iffalse,
                        iftrue,
                    } => {
                        // a comparison and the branch on its result
                        let r = match op {
                            LlOp::IntLt => exec_op(
                                LlOp::IntLt,
                                dst as usize,
                                a as usize,
                                b,
                                0,
                                w,
                                f,
                                heap,
                                cast_cache,
                            ),
                            LlOp::IntLe => exec_op(
                                LlOp::IntLe,
                                dst as usize,
                                a as usize,
                                b,
                                0,
                                w,
                                f,
                                heap,
                                cast_cache,
                            ),
                            LlOp::IntEq => exec_op(
                                LlOp::IntEq,
                                dst as usize,
                                a as usize,
                                b,
                                0,
                                w,
                                f,
                                heap,
                                cast_cache,
                            ),
                            LlOp::IntNe => exec_op(
                                LlOp::IntNe,
                                dst as usize,
                                a as usize,
                                b,
                                0,
                                w,
                                f,
                                heap,
                                cast_cache,
                            ),
                            LlOp::IntGt => exec_op(
                                LlOp::IntGt,
                                dst as usize,
                                a as usize,
                                b,
                                0,
                                w,
                                f,
                                heap,
                                cast_cache,
                            ),
                            LlOp::Getfield => exec_op(
                                LlOp::Getfield,
                                dst as usize,
                                a as usize,
                                b,
                                0,
                                w,
                                f,
                                heap,
                                cast_cache,
                            ),
                            LlOp::IntGe => exec_op(
                                LlOp::IntGe,
                                dst as usize,
                                a as usize,
                                b,
                                0,
                                w,
                                f,
                                heap,
                                cast_cache,
                            ),
                            _ => {
                                exec_op(op, dst as usize, a as usize, b, 0, w, f, heap, cast_cache)
                            }
                        };
                        match r {
                            Ok(()) => {
                                let c = matches!(w[dst as usize], LlValue::Bool(true));
                                pc = take_link(f, w, scratch, if c { iftrue } else { iffalse });
                                continue 'main;
                            }
                            Err(t) => t,
                        }
                    }
                    Instr::External {
                        dst,
                        func: ext,
                        args,
                        nargs,
                        ty,
                    } => {
                        let mut vals = [LlValue::Void; MAX_EXTERNAL_ARGS];
                        let nargs = (nargs as usize).min(MAX_EXTERNAL_ARGS);
                        for (i, v) in vals.iter_mut().enumerate().take(nargs) {
                            *v = w[f.operands[args as usize + i] as usize];
                        }
                        let rt = f.types[ty as usize];
                        match external::call(ext, &vals[..nargs], rt, heap, world.as_mut(), streams)
                        {
                            Ok(v) => {
                                w[dst as usize] = v;
                                pc += 1;
                                continue 'main;
                            }
                            Err(ExtTrap::Raise(exc)) => match instantiate(heap, builtins, exc) {
                                Ok((t, v)) => break 'exc (t, v, false),
                                Err(fault) => return Err(runtime_error(f, pc, fault)),
                            },
                            Err(ExtTrap::Exit(status)) => return Err(LlOutcome::Exit(status)),
                            Err(ExtTrap::RecursionLimit(n)) => {
                                // the frames of helpers come on top of the
                                // program's own: the hard limit leaves them room
                                *recursion_limit = (*recursion_limit).max(n.saturating_mul(4));
                                limit = *recursion_limit;
                                // only where calls are counted as CPython does
                                if user_recursion_limit.is_some() {
                                    *user_recursion_limit = Some(n);
                                    user_limit = n;
                                }
                                w[dst as usize] = LlValue::Void;
                                pc += 1;
                                continue 'main;
                            }
                            Err(ExtTrap::Fault(fault)) => return Err(runtime_error(f, pc, fault)),
                        }
                    }
                    Instr::Jump { link } => {
                        pc = take_link(f, w, scratch, link);
                        continue 'main;
                    }
                    Instr::Goto { target } => {
                        pc = target as usize;
                        continue 'main;
                    }
                    Instr::Move1 { src, dst, target } => {
                        w[dst as usize] = w[src as usize];
                        pc = target as usize;
                        continue 'main;
                    }
                    Instr::If {
                        cond,
                        iffalse,
                        iftrue,
                    } => {
                        let c = match w[cond as usize] {
                            LlValue::Bool(b) => b,
                            o => {
                                return Err(runtime_error(
                                    f,
                                    pc,
                                    Fault::Type(format!("switch on {o:?}, not a Bool")),
                                ))
                            }
                        };
                        pc = take_link(f, w, scratch, if c { iftrue } else { iffalse });
                        continue 'main;
                    }
                    Instr::Switch {
                        value,
                        first,
                        n,
                        default,
                    } => {
                        let v = w[value as usize];
                        let cases = &f.cases[first as usize..(first + n) as usize];
                        let link = match cases.iter().find(|(c, _)| *c == v) {
                            Some(&(_, l)) => l,
                            None if default != NONE => default,
                            None => {
                                return Err(runtime_error(
                                    f,
                                    pc,
                                    Fault::Type(format!("no switch case for {v:?}")),
                                ))
                            }
                        };
                        pc = take_link(f, w, scratch, link);
                        continue 'main;
                    }
                    Instr::Catch { normal, .. } => {
                        // reached only when the raising operation did not raise
                        pc = take_link(f, w, scratch, normal);
                        continue 'main;
                    }
                    Instr::Call {
                        dst: _,
                        func: callee,
                        args,
                        nargs,
                    }
                    | Instr::CallPtr {
                        dst: _,
                        fptr: callee,
                        args,
                        nargs,
                        ty: _,
                    } => {
                        let target = match f.code[pc] {
                            Instr::CallPtr { ty, .. } => match w[callee as usize] {
                                LlValue::Func(r)
                                    if (r.index as usize) < funcs.len()
                                        && Some(&r.ty) == f.types.get(ty as usize) =>
                                {
                                    r.index as usize
                                }
                                LlValue::Ptr(None) => {
                                    return Err(runtime_error(f, pc, Fault::Null("indirect_call")))
                                }
                                o => {
                                    return Err(runtime_error(
                                        f,
                                        pc,
                                        Fault::Type(format!(
                                            "calling {o:?}, not a function of the expected type"
                                        )),
                                    ))
                                }
                            },
                            _ => callee as usize,
                        };
                        let g = &funcs[target];
                        if frames.len() >= limit || (g.counted && user_depth >= user_limit) {
                            // the program's runaway recursion: a RecursionError
                            // raised by the call (as the stack check of a
                            // translated program does), if the program can
                            // represent it
                            match instantiate(heap, builtins, RECURSION) {
                                Ok((t, v)) => break 'exc (t, v, false),
                                Err(_) => {
                                    return Err(LlError::RecursionLimit {
                                        limit,
                                        graph: g.name.clone(),
                                    }
                                    .into())
                                }
                            }
                        } else {
                            let nb = base + f.nregs;
                            if regs.len() < nb + g.nregs {
                                regs.resize((nb + g.nregs).max(regs.len() * 2), LlValue::Void);
                            }
                            regs[nb + g.nvars..nb + g.nregs].copy_from_slice(&g.consts);
                            for i in 0..nargs as usize {
                                let src = f.operands[args as usize + i] as usize;
                                regs[nb + g.params[i] as usize] = regs[base + src];
                            }
                            frames.push(Frame {
                                func: fi as u32,
                                base: base as u32,
                                pc: pc as u32,
                            });
                            user_depth += g.counted as usize;
                            fi = target;
                            f = g;
                            base = nb;
                            pc = g.entry as usize;
                            w = &mut regs[base..];
                            continue 'main;
                        }
                    }
                    Instr::InlineReturn { value, dst, cont } => {
                        w[dst as usize] = w[value as usize];
                        pc = cont as usize;
                        continue 'main;
                    }
                    Instr::Return { value } => {
                        let v = w[value as usize];
                        let Some(fr) = frames.pop() else { return Ok(v) };
                        user_depth -= f.counted as usize;
                        fi = fr.func as usize;
                        f = &funcs[fi];
                        base = fr.base as usize;
                        pc = fr.pc as usize;
                        w = &mut regs[base..];
                        if let Instr::Call { dst, .. } | Instr::CallPtr { dst, .. } = f.code[pc] {
                            w[dst as usize] = v;
                        }
                        pc += 1;
                        continue 'main;
                    }
                    Instr::Raise { etype, evalue } => {
                        let t = ptr(w[etype as usize], "raising with a null class");
                        let v = ptr(w[evalue as usize], "raising a null exception");
                        match (t, v) {
                            (Ok(t), Ok(v)) => break 'exc (t, v, true),
                            (Err(Trap::Fault(fault)), _) | (_, Err(Trap::Fault(fault))) => {
                                return Err(runtime_error(f, pc, fault))
                            }
                            _ => return Err(runtime_error(f, pc, Fault::Type("bad raise".into()))),
                        }
                    }
                };
                match trap {
                    Trap::Raise(exc) => match instantiate(heap, builtins, exc) {
                        Ok((t, v)) => (t, v, false),
                        Err(fault) => return Err(runtime_error(f, pc, fault)),
                    },
                    Trap::Fault(fault) => return Err(runtime_error(f, pc, fault)),
                    Trap::Collect => {
                        // the roots: the live pointer registers of
                        // every frame, by the root maps
                        let mut roots = Vec::new();
                        let here = Frame {
                            func: fi as u32,
                            base: base as u32,
                            pc: pc as u32,
                        };
                        for fr in frames.iter().chain(std::iter::once(&here)) {
                            let g = &funcs[fr.func as usize];
                            // in an inlined graph, the call sites'
                            // live registers too
                            let mut at = fr.pc;
                            while at != NONE {
                                let (lo, hi) = g.gc_map[at as usize];
                                for &r in &g.gc_live[lo as usize..hi as usize] {
                                    roots.push(regs[fr.base as usize + r as usize]);
                                }
                                at = g.escape[at as usize];
                            }
                        }
                        heap.collect(&roots);
                        w = &mut regs[base..];
                        continue 'main;
                    }
                }
            };
            // Unwinding: look for a handler at the raising instruction,
            // leaving functions until one catches.
            let Some((id, _)) = subclass_range(heap, &etype) else {
                return Err(runtime_error(
                    f,
                    pc,
                    Fault::BadPointer(format!("raised class {etype:?} is not a vtable")),
                ));
            };
            let mut leave = left;
            loop {
                if leave && f.escape[pc] != NONE {
                    // out of an inlined graph: on at its call site
                    pc = f.escape[pc] as usize;
                } else if leave {
                    let Some(fr) = frames.pop() else {
                        return Err(LlOutcome::Raised {
                            etype,
                            evalue,
                            class_name: class_name(heap, &etype),
                        });
                    };
                    user_depth -= f.counted as usize;
                    fi = fr.func as usize;
                    f = &funcs[fi];
                    base = fr.base as usize;
                    pc = fr.pc as usize;
                }
                leave = true;
                if let Some(&Instr::Catch { first, n, .. }) = f.code.get(pc + 1) {
                    let handlers = &f.handlers[first as usize..(first + n) as usize];
                    if let Some(h) = handlers.iter().find(|h| h.lo <= id && id < h.hi) {
                        w = &mut regs[base..];
                        if h.etype != NONE {
                            w[h.etype as usize] = LlValue::Ptr(Some(etype));
                        }
                        if h.evalue != NONE {
                            w[h.evalue as usize] = LlValue::Ptr(Some(evalue));
                        }
                        pc = take_link(f, w, scratch, h.link);
                        continue 'main;
                    }
                }
            }
        }
    }
}

#[cold]
fn runtime_error(f: &CFunc, pc: usize, fault: Fault) -> LlOutcome {
    let at = f.origin.get(pc).map(|o| o.to_string()).unwrap_or_default();
    let graph = match f
        .origin
        .get(pc)
        .and_then(|o| f.inlined.get(o.graph as usize))
    {
        Some(name) => format!("{name}` (inlined in `{}", f.name),
        None => f.name.clone(),
    };
    LlOutcome::Error(LlError::Runtime { graph, at, fault })
}

/// `int_add`: wraps around.  (With the test-only feature `planted-bug`,
/// and only once a test switched it on, one too big on operands of one
/// shape: see `planted.rs`.)
#[inline(always)]
fn int_add(x: i64, y: i64) -> i64 {
    #[cfg(feature = "planted-bug")]
    if crate::planted::int_add_is_wrong(x, y) {
        return x.wrapping_add(y).wrapping_add(1);
    }
    x.wrapping_add(y)
}

/// `int_add_ovf`: `None` on overflow (planted bug as in [`int_add`]).
#[inline(always)]
fn int_add_ovf(x: i64, y: i64) -> Option<i64> {
    #[cfg(feature = "planted-bug")]
    if crate::planted::int_add_is_wrong(x, y) {
        return x.checked_add(y)?.checked_add(1);
    }
    x.checked_add(y)
}

/// Executes one operation of the table (every operation has an arm: the
/// match is exhaustive).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn exec_op(
    op: LlOp,
    dst: usize,
    a: usize,
    b: u32,
    c: u32,
    w: &mut [LlValue],
    f: &CFunc,
    heap: &mut Store,
    cast_cache: &mut CastCache,
) -> Result<(), Trap> {
    use LlValue::{Bool, Float, Int, UInt};
    let bi = b as usize;
    macro_rules! bin {
        ($get:ident, $wrap:ident, |$x:ident, $y:ident| $e:expr) => {{
            let $x = $get(w[a])?;
            let $y = $get(w[bi])?;
            w[dst] = $wrap($e);
        }};
    }
    macro_rules! bin_r {
        ($get:ident, $wrap:ident, $f:expr) => {{
            let x = $get(w[a])?;
            let y = $get(w[bi])?;
            w[dst] = $wrap($f(x, y)?);
        }};
    }
    macro_rules! un {
        ($get:ident, $wrap:ident, |$x:ident| $e:expr) => {{
            let $x = $get(w[a])?;
            w[dst] = $wrap($e);
        }};
    }
    macro_rules! un_r {
        ($f:expr) => {{
            let x = float(w[a])?;
            w[dst] = Float($f(x)?);
        }};
    }
    let char_ = LlValue::Char;
    let unichar_ = LlValue::UniChar;
    match op {
        LlOp::IntAdd => bin!(int, Int, |x, y| int_add(x, y)),
        LlOp::IntSub => bin!(int, Int, |x, y| x.wrapping_sub(y)),
        LlOp::IntMul => bin!(int, Int, |x, y| x.wrapping_mul(y)),
        LlOp::IntFloordiv => bin_r!(int, Int, arith::int_floordiv),
        LlOp::IntMod => bin_r!(int, Int, arith::int_mod),
        LlOp::IntAnd => bin!(int, Int, |x, y| x & y),
        LlOp::IntOr => bin!(int, Int, |x, y| x | y),
        LlOp::IntXor => bin!(int, Int, |x, y| x ^ y),
        LlOp::IntLshift => bin_r!(int, Int, arith::int_lshift),
        LlOp::IntRshift => bin_r!(int, Int, arith::int_rshift),
        LlOp::IntNeg => un!(int, Int, |x| x.wrapping_neg()),
        LlOp::IntAbs => un!(int, Int, |x| x.wrapping_abs()),
        LlOp::IntInvert => un!(int, Int, |x| !x),
        LlOp::IntIsTrue => un!(int, Bool, |x| x != 0),
        LlOp::IntLt => bin!(int, Bool, |x, y| x < y),
        LlOp::IntLe => bin!(int, Bool, |x, y| x <= y),
        LlOp::IntEq => bin!(int, Bool, |x, y| x == y),
        LlOp::IntNe => bin!(int, Bool, |x, y| x != y),
        LlOp::IntGt => bin!(int, Bool, |x, y| x > y),
        LlOp::IntGe => bin!(int, Bool, |x, y| x >= y),
        LlOp::IntAddOvf => bin_r!(int, Int, |x: i64, y| arith::ovf(int_add_ovf(x, y))),
        LlOp::IntSubOvf => bin_r!(int, Int, |x: i64, y| arith::ovf(x.checked_sub(y))),
        LlOp::IntMulOvf => bin_r!(int, Int, |x: i64, y| arith::ovf(x.checked_mul(y))),
        LlOp::IntNegOvf => {
            let x = int(w[a])?;
            w[dst] = Int(arith::ovf(x.checked_neg())?);
        }
        LlOp::IntAbsOvf => {
            let x = int(w[a])?;
            w[dst] = Int(arith::ovf(x.checked_abs())?);
        }
        LlOp::IntFloordivOvf => bin_r!(int, Int, arith::int_floordiv_ovf),
        LlOp::IntModOvf => bin_r!(int, Int, arith::int_mod_ovf),
        LlOp::IntLshiftOvf => bin_r!(int, Int, arith::int_lshift_ovf),
        LlOp::IntPow => bin_r!(int, Int, arith::int_pow),
        LlOp::IntTruediv => bin_r!(int, Float, arith::int_truediv),
        LlOp::UintAdd => bin!(uint, UInt, |x, y| x.wrapping_add(y)),
        LlOp::UintSub => bin!(uint, UInt, |x, y| x.wrapping_sub(y)),
        LlOp::UintMul => bin!(uint, UInt, |x, y| x.wrapping_mul(y)),
        LlOp::UintFloordiv => bin_r!(uint, UInt, arith::uint_floordiv),
        LlOp::UintMod => bin_r!(uint, UInt, arith::uint_mod),
        LlOp::UintAnd => bin!(uint, UInt, |x, y| x & y),
        LlOp::UintOr => bin!(uint, UInt, |x, y| x | y),
        LlOp::UintXor => bin!(uint, UInt, |x, y| x ^ y),
        LlOp::UintLshift => {
            let (x, n) = (uint(w[a])?, int(w[bi])?);
            w[dst] = UInt(arith::uint_lshift(x, n)?);
        }
        LlOp::UintRshift => {
            let (x, n) = (uint(w[a])?, int(w[bi])?);
            w[dst] = UInt(arith::uint_rshift(x, n)?);
        }
        LlOp::UintNeg => un!(uint, UInt, |x| x.wrapping_neg()),
        LlOp::UintInvert => un!(uint, UInt, |x| !x),
        LlOp::UintIsTrue => un!(uint, Bool, |x| x != 0),
        LlOp::UintLt => bin!(uint, Bool, |x, y| x < y),
        LlOp::UintLe => bin!(uint, Bool, |x, y| x <= y),
        LlOp::UintEq => bin!(uint, Bool, |x, y| x == y),
        LlOp::UintNe => bin!(uint, Bool, |x, y| x != y),
        LlOp::UintGt => bin!(uint, Bool, |x, y| x > y),
        LlOp::UintGe => bin!(uint, Bool, |x, y| x >= y),
        LlOp::FloatAdd => bin!(float, Float, |x, y| x + y),
        LlOp::FloatSub => bin!(float, Float, |x, y| x - y),
        LlOp::FloatMul => bin!(float, Float, |x, y| x * y),
        LlOp::FloatTruediv => bin_r!(float, Float, arith::float_truediv),
        LlOp::FloatFloordiv => bin_r!(float, Float, arith::float_floordiv),
        LlOp::FloatMod => bin_r!(float, Float, arith::float_mod),
        LlOp::FloatPow => bin_r!(float, Float, arith::float_pow),
        LlOp::FloatNeg => un!(float, Float, |x| -x),
        LlOp::FloatAbs => un!(float, Float, |x| x.abs()),
        LlOp::FloatIsTrue => un!(float, Bool, |x| x != 0.0),
        LlOp::FloatLt => bin!(float, Bool, |x, y| x < y),
        LlOp::FloatLe => bin!(float, Bool, |x, y| x <= y),
        LlOp::FloatEq => bin!(float, Bool, |x, y| x == y),
        LlOp::FloatNe => bin!(float, Bool, |x, y| x != y),
        LlOp::FloatGt => bin!(float, Bool, |x, y| x > y),
        LlOp::FloatGe => bin!(float, Bool, |x, y| x >= y),
        LlOp::FloatSqrt => un_r!(|x: f64| arith::math1(x, x.sqrt(), false)),
        LlOp::FloatExp => un_r!(|x: f64| arith::math1(x, x.exp(), true)),
        LlOp::FloatExpm1 => un_r!(|x: f64| arith::math1(x, x.exp_m1(), true)),
        LlOp::FloatLog => un_r!(|x: f64| arith::math1(x, x.ln(), false)),
        LlOp::FloatLog2 => un_r!(|x: f64| arith::math1(x, x.log2(), false)),
        LlOp::FloatLog10 => un_r!(|x: f64| arith::math1(x, x.log10(), false)),
        LlOp::FloatLog1p => un_r!(|x: f64| arith::math1(x, x.ln_1p(), false)),
        LlOp::FloatSin => un_r!(|x: f64| arith::math1(x, x.sin(), false)),
        LlOp::FloatCos => un_r!(|x: f64| arith::math1(x, x.cos(), false)),
        LlOp::FloatTan => un_r!(|x: f64| arith::math1(x, x.tan(), false)),
        LlOp::FloatAsin => un_r!(|x: f64| arith::math1(x, x.asin(), false)),
        LlOp::FloatAcos => un_r!(|x: f64| arith::math1(x, x.acos(), false)),
        LlOp::FloatAtan => un!(float, Float, |x| x.atan()),
        LlOp::FloatSinh => un_r!(|x: f64| arith::math1(x, x.sinh(), true)),
        LlOp::FloatCosh => un_r!(|x: f64| arith::math1(x, x.cosh(), true)),
        LlOp::FloatTanh => un!(float, Float, |x| x.tanh()),
        LlOp::FloatAsinh => un!(float, Float, |x| arith::asinh(x)),
        LlOp::FloatAcosh => un_r!(|x: f64| arith::math1(x, arith::acosh(x), false)),
        LlOp::FloatAtanh => un_r!(|x: f64| arith::math1(x, arith::atanh(x), false)),
        LlOp::FloatFloor => un!(float, Float, |x| x.floor()),
        LlOp::FloatCeil => un!(float, Float, |x| x.ceil()),
        LlOp::FloatTrunc => un!(float, Float, |x| x.trunc()),
        LlOp::FloatRound => un!(float, Float, |x| x.round_ties_even()),
        LlOp::FloatRoundDigits => {
            let (x, n) = (float(w[a])?, int(w[bi])?);
            w[dst] = Float(arith::round_digits(x, n)?);
        }
        LlOp::FloatAtan2 => bin!(float, Float, |y, x| f64::atan2(y, x)),
        LlOp::FloatFmod => bin_r!(float, Float, arith::math_fmod),
        LlOp::FloatMathPow => bin_r!(float, Float, arith::math_pow),
        LlOp::FloatHypot => bin!(float, Float, |x, y| arith::math_hypot(x, y)),
        LlOp::FloatCopysign => bin!(float, Float, |x, y| f64::copysign(x, y)),
        LlOp::FloatFrexpExp => un!(float, Int, |x| arith::frexp_exp(x)),
        LlOp::FloatLdexp => {
            let (x, n) = (float(w[a])?, int(w[bi])?);
            w[dst] = Float(arith::ldexp(x, n)?);
        }
        LlOp::FloatIsnan => un!(float, Bool, |x| x.is_nan()),
        LlOp::FloatIsinf => un!(float, Bool, |x| x.is_infinite()),
        LlOp::FloatIsfinite => un!(float, Bool, |x| x.is_finite()),
        LlOp::CharLt => bin!(char8, Bool, |x, y| x < y),
        LlOp::CharLe => bin!(char8, Bool, |x, y| x <= y),
        LlOp::CharEq => bin!(char8, Bool, |x, y| x == y),
        LlOp::CharNe => bin!(char8, Bool, |x, y| x != y),
        LlOp::CharGt => bin!(char8, Bool, |x, y| x > y),
        LlOp::CharGe => bin!(char8, Bool, |x, y| x >= y),
        LlOp::UnicharLt => bin!(unichar, Bool, |x, y| x < y),
        LlOp::UnicharLe => bin!(unichar, Bool, |x, y| x <= y),
        LlOp::UnicharEq => bin!(unichar, Bool, |x, y| x == y),
        LlOp::UnicharNe => bin!(unichar, Bool, |x, y| x != y),
        LlOp::UnicharGt => bin!(unichar, Bool, |x, y| x > y),
        LlOp::UnicharGe => bin!(unichar, Bool, |x, y| x >= y),
        LlOp::UnicharUpper | LlOp::UnicharLower => {
            let x = unichar(w[a])?;
            let k = int(w[bi])?;
            w[dst] = Int(arith::case_mapped(x, k, op == LlOp::UnicharUpper));
        }
        LlOp::UnicharTitle => {
            let x = unichar(w[a])?;
            let k = int(w[bi])?;
            w[dst] = Int(rpy3_model::unicodedb::title(x, k));
        }
        LlOp::UnicharCasefold => {
            let x = unichar(w[a])?;
            let k = int(w[bi])?;
            w[dst] = Int(rpy3_model::unicodedb::casefold(x, k));
        }
        LlOp::FloatFormatChar => {
            let x = float(w[a])?;
            let spec = int(w[bi])?;
            let k = int(w[c as usize])?;
            w[dst] = Int(arith::format_float_char(x, spec, k));
        }
        LlOp::UnicharProps => un!(unichar, Int, |x| i64::from(rpy3_model::unicodedb::flags(x))),
        LlOp::BoolNot => un!(boolean, Bool, |x| !x),
        LlOp::SameAs => w[dst] = w[a],
        LlOp::CastBoolToInt => un!(boolean, Int, |x| x as i64),
        LlOp::CastBoolToUint => un!(boolean, UInt, |x| x as u64),
        LlOp::CastBoolToFloat => un!(boolean, Float, |x| x as i64 as f64),
        LlOp::CastIntToFloat => un!(int, Float, |x| x as f64),
        LlOp::CastUintToFloat => un!(uint, Float, |x| x as f64),
        LlOp::CastFloatToInt => {
            let x = float(w[a])?;
            w[dst] = Int(arith::cast_float_to_int(x)?);
        }
        LlOp::CastFloatToUint => {
            let x = float(w[a])?;
            w[dst] = UInt(arith::cast_float_to_uint(x)?);
        }
        LlOp::CastIntToUint => un!(int, UInt, |x| x as u64),
        LlOp::CastUintToInt => un!(uint, Int, |x| x as i64),
        LlOp::CastIntToLonglong | LlOp::CastLonglongToInt => un!(int, Int, |x| x),
        LlOp::CastCharToInt => un!(char8, Int, |x| x as i64),
        LlOp::CastIntToChar => {
            let x = int(w[a])?;
            w[dst] = char_(arith::cast_int_to_char(x)?);
        }
        LlOp::CastUnicharToInt => un!(unichar, Int, |x| x as i64),
        LlOp::CastIntToUnichar => {
            let x = int(w[a])?;
            w[dst] = unichar_(arith::cast_int_to_unichar(x)?);
        }
        LlOp::Malloc => {
            if heap.due() {
                return Err(Trap::Collect);
            }
            let t = &f.templates[bi];
            let obj = heap.push(HeapObj {
                ty: t.ty,
                slots: t.slots.clone(),
                items: Vec::new(),
                item_slots: 0,
            });
            w[dst] = LlValue::Ptr(Some(Ptr {
                obj,
                offset: 0,
                item: 0,
                ty: t.ty,
            }));
        }
        LlOp::MallocVarsize => {
            if heap.due() {
                return Err(Trap::Collect);
            }
            let t = &f.templates[bi];
            let n = int(w[a])?;
            let per = t.item.len() as u64;
            if n < 0 || (n as u64).saturating_mul(per.max(1)) > MAX_ALLOC_SLOTS {
                return Err(Trap::Raise(MEMORY));
            }
            let mut items = Vec::with_capacity(n as usize * per as usize);
            for _ in 0..n {
                items.extend_from_slice(&t.item);
            }
            let obj = heap.push(HeapObj {
                ty: t.ty,
                slots: t.slots.clone(),
                items,
                item_slots: per as u32,
            });
            w[dst] = LlValue::Ptr(Some(Ptr {
                obj,
                offset: 0,
                item: 0,
                ty: t.ty,
            }));
        }
        LlOp::Getfield => {
            let p = ptr(w[a], "getfield")?;
            w[dst] = read_at(heap, &p, p.item, p.offset + b)?;
        }
        LlOp::Setfield => {
            let p = ptr(w[a], "setfield")?;
            write_at(heap, &p, p.item, p.offset + b, w[c as usize])?;
            w[dst] = LlValue::Void;
        }
        LlOp::Getsubstruct => {
            let p = ptr(w[a], "getsubstruct")?;
            w[dst] = LlValue::Ptr(Some(Ptr {
                offset: p.offset + b,
                ty: f.types[c as usize],
                ..p
            }));
        }
        LlOp::Getarrayitem => {
            let p = ptr(w[a], "getarrayitem")?;
            let i = int(w[bi])?;
            let o = heap.get(p.obj).ok_or_else(|| bad_pointer(heap, &p))?;
            let k = item_start(o, i)?;
            w[dst] = *o.items.get(k).ok_or_else(|| bad_pointer(heap, &p))?;
        }
        LlOp::Setarrayitem => {
            let p = ptr(w[a], "setarrayitem")?;
            let i = int(w[bi])?;
            let v = w[c as usize];
            let Some(o) = heap.get_mut(p.obj) else {
                return Err(bad_pointer(heap, &p));
            };
            let k = item_start(o, i)?;
            match o.items.get_mut(k) {
                Some(slot) => *slot = v,
                None => return Err(bad_pointer(heap, &p)),
            }
            w[dst] = LlValue::Void;
        }
        LlOp::Getarraysize => {
            let p = ptr(w[a], "getarraysize")?;
            w[dst] = Int(array_length(heap, &p)? as i64);
        }
        LlOp::Getinteriorfield | LlOp::Setinteriorfield | LlOp::Getinteriorarraysize => {
            let what = match op {
                LlOp::Getinteriorfield => "getinteriorfield",
                LlOp::Setinteriorfield => "setinteriorfield",
                _ => "getinteriorarraysize",
            };
            let p = ptr(w[a], what)?;
            let interior = &f.interiors[bi];
            let (mut item, mut off) = (p.item, p.offset);
            for step in &interior.steps {
                match *step {
                    Step::Field(o) => off += o,
                    Step::Index(r) => {
                        item = item_of(heap, &p, int(w[r as usize])?)?;
                        off = 0;
                    }
                }
            }
            w[dst] = match op {
                LlOp::Getinteriorfield => read_at(heap, &p, item, off)?,
                LlOp::Setinteriorfield => {
                    write_at(heap, &p, item, off, w[interior.value as usize])?;
                    LlValue::Void
                }
                _ => Int(array_length(heap, &p)? as i64),
            };
        }
        LlOp::CastPointer => {
            let target = f.types[bi];
            w[dst] = match w[a] {
                LlValue::Ptr(None) => LlValue::Ptr(None),
                LlValue::Ptr(Some(p)) => {
                    if c == 1 && p.offset == 0 && p.item == 0 {
                        let have = heap.get(p.obj).ok_or_else(|| bad_pointer(heap, &p))?.ty;
                        if !cast_cache.castable(have, target) {
                            return Err(Trap::Fault(Fault::Cast(format!(
                                "the object is a {have}, not a {target}"
                            ))));
                        }
                    }
                    LlValue::Ptr(Some(Ptr { ty: target, ..p }))
                }
                o => return Err(type_fault("pointer", o)),
            };
        }
        LlOp::PtrEq => w[dst] = Bool(address(w[a])? == address(w[bi])?),
        LlOp::PtrNe => w[dst] = Bool(address(w[a])? != address(w[bi])?),
        LlOp::PtrIszero => w[dst] = Bool(address(w[a])?.is_none()),
        LlOp::PtrNonzero => w[dst] = Bool(address(w[a])?.is_some()),
        LlOp::StrToFloat => {
            let p = ptr(w[a], "str_to_float")?;
            let obj = heap.get(p.obj).ok_or_else(|| bad_pointer(heap, &p))?;
            let mut text = String::with_capacity(obj.items.len());
            for v in &obj.items {
                match v {
                    LlValue::UniChar(c) if *c < 128 => text.push(*c as u8 as char),
                    _ => return Err(Trap::Raise(arith::VALUE)),
                }
            }
            w[dst] = LlValue::Float(arith::parse_float(&text).ok_or(Trap::Raise(arith::VALUE))?);
        }
        // the object's number, as an address would be (a null pointer: 0);
        // every pointer to one object (its parent structs first) has it
        LlOp::GcId => {
            w[dst] = LlValue::Int(match address(w[a])? {
                None => 0,
                Some((obj, _, _, _)) => (i64::from(obj) + 1) * 16,
            })
        }
        // the object's number, spread over the word (a null pointer: 0)
        LlOp::GcIdentityHash => {
            w[dst] = LlValue::Int(match address(w[a])? {
                None => 0,
                Some((obj, off, item, _)) => {
                    let x = (u64::from(obj) << 20) ^ (u64::from(off) << 8) ^ u64::from(item);
                    (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 1) as i64
                }
            })
        }
        LlOp::DirectCall | LlOp::IndirectCall | LlOp::ExternalCall => {
            // lowered to Instr::Call / Instr::CallPtr / Instr::External
            return Err(Trap::Fault(Fault::Type(
                "a call lowered as a plain operation".into(),
            )));
        }
        LlOp::DebugAssert => {
            if !boolean(w[a])? {
                return Err(Trap::Fault(Fault::AssertFailed(f.messages[bi].clone())));
            }
            w[dst] = LlValue::Void;
        }
        LlOp::KeepAlive => w[dst] = LlValue::Void,
        // the loader refuses the operations of prepared graphs
        LlOp::ExcOccurred
        | LlOp::ExcFetchType
        | LlOp::ExcFetchValue
        | LlOp::ExcClear
        | LlOp::ExcRaise
        | LlOp::GcPushRoots
        | LlOp::GcPopRoots
        | LlOp::StackCheck => {
            return Err(Trap::Fault(Fault::Type(format!(
                "{op} exists only in graphs prepared for a compiled backend"
            ))))
        }
    }
    Ok(())
}
