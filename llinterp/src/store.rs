//! The interpreter's memory: the persistent `imbl` heap (prebuilt objects
//! and everything flushed into it) plus a plain vector of the objects
//! allocated since the last flush.  Programs allocate and mutate mostly
//! young objects; keeping them out of the persistent vector makes `malloc`,
//! `getfield` and `setfield` a few loads instead of a tree walk with
//! copy-on-write checks.  Object numbers are continuous across both parts,
//! so pointers do not change when young objects are flushed.

use rpy3_model::lltype::{Heap, HeapObj};

pub(crate) struct Store {
    /// Prebuilt and flushed objects.
    pub heap: Heap,
    /// Objects numbered from `young_base`.
    pub young: Vec<HeapObj>,
    pub young_base: u32,
}

impl Store {
    pub fn new(heap: Heap) -> Store {
        let young_base = heap.len() as u32;
        Store {
            heap,
            young: Vec::new(),
            young_base,
        }
    }

    #[inline(always)]
    pub fn get(&self, obj: u32) -> Option<&HeapObj> {
        if obj >= self.young_base {
            self.young.get((obj - self.young_base) as usize)
        } else {
            self.heap.object_at(obj)
        }
    }

    #[inline(always)]
    pub fn get_mut(&mut self, obj: u32) -> Option<&mut HeapObj> {
        if obj >= self.young_base {
            self.young.get_mut((obj - self.young_base) as usize)
        } else {
            self.heap.object_at_mut(obj)
        }
    }

    #[inline(always)]
    pub fn push(&mut self, o: HeapObj) -> u32 {
        self.young.push(o);
        self.young_base + self.young.len() as u32 - 1
    }

    /// Number of objects ever allocated.
    pub fn len(&self) -> usize {
        self.young_base as usize + self.young.len()
    }

    /// Moves the young objects into the persistent heap.
    pub fn flush(&mut self) -> &Heap {
        for o in self.young.drain(..) {
            self.heap.push_object(o);
        }
        self.young_base = self.heap.len() as u32;
        &self.heap
    }
}
