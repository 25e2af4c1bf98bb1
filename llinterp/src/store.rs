//! The interpreter's memory, and its collector.
//!
//! Two parts with continuous object numbers: the program's prebuilt
//! objects (a vector of shared `Arc`s: restoring them is one reference
//! count per object, and an object is copied when a run first writes it)
//! and the arena of the objects allocated since (`young`, numbered from
//! `young_base`); `malloc`, `getfield` and `setfield` are a few loads in
//! either.  Prebuilt objects are never freed.  Arena objects are collected
//! by a precise, non-moving mark-and-sweep: an object keeps its number for
//! its whole life (so `gc_id` and identity hashes stay put), and a freed
//! number is a tombstone until an allocation reuses it.  Reading through a
//! pointer to a tombstone is refused like reading through a pointer to an
//! object that never existed.
//!
//! Roots, all known exactly: the registers of the live frames (passed to
//! [`Store::collect`] by the executor, which collects only at an
//! allocation, before the object exists), the prebuilt objects written
//! since the heap was restored (only those can point into the arena: the
//! others were built before it existed), and the objects the harness holds
//! ([`Store::pin`]: its arguments and the results it was given).
//!
//! A collection is due when the bytes allocated since the last one reach a
//! threshold proportional to what survived it; in stress mode at every
//! allocation, and freed numbers are then never reused, so a pointer the
//! collector wrongly let go of is caught at its next use.

use std::sync::Arc;

use rpy3_model::lltype::{Heap, HeapObj, LlValue, VOID};

/// Bookkeeping bytes counted per object besides its slots (the arena
/// entry and the allocator's header).
const OBJ_OVERHEAD: usize = std::mem::size_of::<HeapObj>() + 16;

/// The least allocation volume between two collections.
const MIN_THRESHOLD: usize = 4 << 20;

/// The tombstone of a freed object.
fn tombstone() -> HeapObj {
    HeapObj {
        ty: VOID,
        slots: Vec::new(),
        items: Vec::new(),
        item_slots: 0,
    }
}

#[inline(always)]
fn is_freed(o: &HeapObj) -> bool {
    // no object is allocated with type Void
    o.ty == VOID
}

fn obj_bytes(o: &HeapObj) -> usize {
    OBJ_OVERHEAD + (o.slots.len() + o.items.len()) * std::mem::size_of::<LlValue>()
}

pub(crate) struct Store {
    /// Prebuilt objects, shared with other runs until written.
    pre: Vec<Arc<HeapObj>>,
    /// The last snapshot made by `snapshot`.
    snapshot: Heap,
    /// Arena objects, numbered from `young_base`; freed ones are tombstones.
    young: Vec<HeapObj>,
    pub young_base: u32,
    /// Arena indices of tombstones an allocation may reuse.
    free: Vec<u32>,
    /// Prebuilt objects written since the heap was restored, once each.
    dirty: Vec<u32>,
    /// Indexed by prebuilt object number: whether it is in `dirty`.
    is_dirty: Vec<bool>,
    /// Objects held by the harness (object numbers).
    pinned: Vec<u32>,
    /// Bytes allocated since the last collection.
    allocated: usize,
    /// Collect when `allocated` reaches it.
    threshold: usize,
    /// No allocation since the last collection (so the retried allocation
    /// goes ahead even in stress mode).
    just_collected: bool,
    /// Collect at every allocation, never reuse a freed number.
    pub stress: bool,
    /// Mark bits of the arena, and the mark stack.
    marks: Vec<u64>,
    stack: Vec<u32>,
    /// Collections so far.
    pub collections: usize,
}

impl Store {
    pub fn new(prebuilt: &[Arc<HeapObj>], stress: bool) -> Store {
        let young_base = prebuilt.len() as u32;
        Store {
            pre: prebuilt.to_vec(),
            snapshot: Heap::new(),
            young: Vec::new(),
            young_base,
            free: Vec::new(),
            dirty: Vec::new(),
            is_dirty: Vec::new(),
            pinned: Vec::new(),
            allocated: 0,
            threshold: MIN_THRESHOLD,
            just_collected: false,
            stress,
            marks: Vec::new(),
            stack: Vec::new(),
            collections: 0,
        }
    }

    /// Object `obj`, unless it was never allocated or was freed.
    #[inline(always)]
    pub fn get(&self, obj: u32) -> Option<&HeapObj> {
        if obj >= self.young_base {
            self.young
                .get((obj - self.young_base) as usize)
                .filter(|o| !is_freed(o))
        } else {
            self.pre.get(obj as usize).map(|o| &**o)
        }
    }

    #[inline(always)]
    pub fn get_mut(&mut self, obj: u32) -> Option<&mut HeapObj> {
        if obj >= self.young_base {
            self.young
                .get_mut((obj - self.young_base) as usize)
                .filter(|o| !is_freed(o))
        } else {
            self.prebuilt_mut(obj)
        }
    }

    /// A prebuilt object about to be written: from now on it is a root.
    #[cold]
    fn prebuilt_mut(&mut self, obj: u32) -> Option<&mut HeapObj> {
        let o = Arc::make_mut(self.pre.get_mut(obj as usize)?);
        let i = obj as usize;
        if self.is_dirty.len() <= i {
            self.is_dirty.resize(self.young_base as usize, false);
        }
        if !std::mem::replace(&mut self.is_dirty[i], true) {
            self.dirty.push(obj);
        }
        Some(o)
    }

    /// Whether `obj` was allocated and then freed.
    pub fn is_freed(&self, obj: u32) -> bool {
        obj >= self.young_base
            && self
                .young
                .get((obj - self.young_base) as usize)
                .is_some_and(is_freed)
    }

    /// Adds an object; returns its number.
    #[inline(always)]
    pub fn push(&mut self, o: HeapObj) -> u32 {
        self.allocated += obj_bytes(&o);
        self.just_collected = false;
        if let Some(i) = self.free.pop() {
            self.young[i as usize] = o;
            return self.young_base + i;
        }
        self.young.push(o);
        self.young_base + self.young.len() as u32 - 1
    }

    /// Whether the next allocation should collect first.
    #[inline(always)]
    pub fn due(&self) -> bool {
        !self.just_collected && (self.stress || self.allocated >= self.threshold)
    }

    /// Keeps object `obj` (and what it reaches) alive until the heap is
    /// restored: the harness holds a pointer to it.
    pub fn pin(&mut self, obj: u32) {
        if obj >= self.young_base {
            self.pinned.push(obj);
        }
    }

    /// Number of objects ever allocated (prebuilt ones included; freed
    /// ones too, until their number is reused).
    pub fn len(&self) -> usize {
        self.young_base as usize + self.young.len()
    }

    /// Every object as one persistent [`Heap`] (freed ones as
    /// tombstones, so numbers are kept).
    pub fn snapshot(&mut self) -> &Heap {
        let mut heap = Heap::new();
        for o in &self.pre {
            heap.push_object((**o).clone());
        }
        for o in &self.young {
            heap.push_object(o.clone());
        }
        self.snapshot = heap;
        &self.snapshot
    }

    /// A collection: marks from `roots` (the live frames' registers), the
    /// written prebuilt objects and the pinned objects, then frees every
    /// arena object not marked.
    pub fn collect(&mut self, roots: &[LlValue]) {
        self.collections += 1;
        self.marks.clear();
        self.marks.resize(self.young.len().div_ceil(64), 0);
        let mut m = Marker {
            young: &self.young,
            base: self.young_base,
            marks: &mut self.marks,
            stack: &mut self.stack,
        };
        for v in roots {
            m.value(v);
        }
        for &obj in &self.pinned {
            m.index((obj - self.young_base) as usize);
        }
        for &d in &self.dirty {
            if let Some(o) = self.pre.get(d as usize) {
                m.object(o);
            }
        }
        while let Some(i) = m.stack.pop() {
            let young = m.young;
            m.object(&young[i as usize]);
        }
        // sweep
        let mut live = 0usize;
        self.free.clear();
        for (i, o) in self.young.iter_mut().enumerate() {
            if self.marks[i / 64] & (1 << (i % 64)) != 0 {
                live += obj_bytes(o);
            } else {
                if !is_freed(o) {
                    *o = tombstone();
                }
                if !self.stress {
                    self.free.push(i as u32);
                }
            }
        }
        // tombstones at the end are dropped (their numbers were never
        // seen by a live object: any pointer to them was unreachable)
        while self.young.last().is_some_and(is_freed) && !self.stress {
            self.young.pop();
        }
        let len = self.young.len() as u32;
        self.free.retain(|&i| i < len);
        // reuse low numbers first
        self.free.reverse();
        self.allocated = 0;
        self.threshold = MIN_THRESHOLD.max(live / 2);
        self.just_collected = true;
    }
}

/// The marking phase's view of the store.
struct Marker<'a> {
    young: &'a [HeapObj],
    base: u32,
    marks: &'a mut [u64],
    stack: &'a mut Vec<u32>,
}

impl Marker<'_> {
    #[inline(always)]
    fn value(&mut self, v: &LlValue) {
        if let LlValue::Ptr(Some(p)) = v {
            if p.obj >= self.base {
                self.index((p.obj - self.base) as usize);
            }
        }
    }

    #[inline(always)]
    fn index(&mut self, i: usize) {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        // a stale register may hold the number of a freed object: not live
        if i < self.young.len() && self.marks[word] & bit == 0 && !is_freed(&self.young[i]) {
            self.marks[word] |= bit;
            self.stack.push(i as u32);
        }
    }

    fn object(&mut self, o: &HeapObj) {
        for v in &o.slots {
            self.value(v);
        }
        // items all have the same layout, and a slot of pointer type
        // always holds a `LlValue::Ptr`: when the first item holds none,
        // no item does (strings, arrays of numbers)
        let per = o.item_slots as usize;
        if o.items[..per.min(o.items.len())]
            .iter()
            .any(|v| matches!(v, LlValue::Ptr(_)))
        {
            for v in &o.items {
                self.value(v);
            }
        }
    }
}
