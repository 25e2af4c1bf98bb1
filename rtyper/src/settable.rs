//! The tables of prebuilt sets: CPython's own table of a set object, read
//! from the object, and the placement of keys in a fresh table, as
//! `rpy3.lltypesystem.rdict` lays out sets at run time (CPython 3.11's
//! `Objects/setobject.c`).

use pyo3::prelude::*;

const LINEAR_PROBES: usize = 9;
const PERTURB_SHIFT: u32 = 5;

/// One slot of a set table.
pub enum Slot<'py> {
    Free,
    /// A removed key (CPython's dummy).
    Dummy,
    /// A key and the hash CPython keeps for it.
    Key(Bound<'py, PyAny>, i64),
}

/// CPython's table of a set or frozenset: its slots, `fill` and `finger`;
/// None for any other object.
pub fn cpython_table<'py>(obj: &Bound<'py, PyAny>) -> Option<(Vec<Slot<'py>>, usize, i64)> {
    let py = obj.py();
    let p = obj.as_ptr();
    // SAFETY: `p` is a live object (held by `obj`) and the GIL is held.
    if unsafe { pyo3::ffi::PyAnySet_Check(p) } == 0 {
        return None;
    }
    // SAFETY: a set or frozenset (also of a subclass) is a `PySetObject`
    // whose `table` holds `mask + 1` entries; nothing runs Python code
    // while they are read, so the table stays put.  A free entry has a
    // null key; a dummy has hash -1, which no key hashes to.
    unsafe {
        let so = p as *mut pyo3::ffi::PySetObject;
        let size = (*so).mask as usize + 1;
        let mut slots = Vec::with_capacity(size);
        for i in 0..size {
            let e = &*(*so).table.add(i);
            slots.push(if e.key.is_null() {
                Slot::Free
            } else if e.hash == -1 {
                Slot::Dummy
            } else {
                Slot::Key(Bound::from_borrowed_ptr(py, e.key), e.hash as i64)
            });
        }
        Some((slots, (*so).fill as usize, (*so).finger as i64))
    }
}

/// The slot `rdict._set_insert_clean` gives a key of hash `h` in a table
/// without dummies whose slots `taken` says are used.
pub fn insert_clean_slot(taken: &[bool], h: i64) -> usize {
    let mask = taken.len() - 1;
    // CPython's perturb: the hash as an unsigned word
    let mut perturb = h as u64;
    let mut i = (h as u64 as usize) & mask;
    loop {
        if !taken[i] {
            return i;
        }
        if i + LINEAR_PROBES <= mask {
            if let Some(j) = (i + 1..=i + LINEAR_PROBES).find(|&j| !taken[j]) {
                return j;
            }
        }
        perturb >>= PERTURB_SHIFT;
        i = (i
            .wrapping_mul(5)
            .wrapping_add(1)
            .wrapping_add(perturb as usize))
            & mask;
    }
}
