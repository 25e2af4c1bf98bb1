//! Shared item definitions of lists, dicts, sets and generators (PyPy's
//! `listdef.py` / `dictdef.py`): every alias of a container names the same
//! definition, and uniting two containers merges their definitions
//! (union-find), so a value stored through one alias is seen by all.

use std::collections::BTreeSet;

use cranelift_entity::{PrimaryMap, SecondaryMap};

use crate::ids::{GraphId, ItemDefId};
use crate::model::SomeValue;
use rpy3_model::BlockId;

/// A block that read something and must be reflowed when it generalises.
pub type Position = (GraphId, BlockId);

/// What kind of container a definition describes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ItemKind {
    /// A list (`item` is the element).
    List,
    /// A dict (`item` is the key, `value` the value).
    Dict,
    /// A set (`item` is the element).
    Set,
    /// A generator (`item` is what it yields).
    Generator,
}

/// One definition.
#[derive(Clone, Debug)]
pub struct ItemDef {
    /// The container kind.
    pub kind: ItemKind,
    /// Element (or key) annotation.
    pub item: SomeValue,
    /// Value annotation (dicts only).
    pub value: SomeValue,
    /// Items are stored into after creation.
    pub mutated: bool,
    /// The length changes after creation.
    pub resized: bool,
    /// For a list made by `range()`: `Some(step)`, where `step` is the
    /// constant step when every `range()` merged here has the same
    /// constant one, else `None` (a step only known at run time).  The
    /// rtyper represents such a list, while it is neither mutated nor
    /// resized, by its bounds alone.  `None` for any other list.
    pub range_step: Option<Option<i64>>,
    /// Blocks that read the items.
    pub readers: BTreeSet<Position>,
    /// An `r_dict`'s key equality and hash functions (their annotations).
    pub custom: Option<(SomeValue, SomeValue)>,
    /// Some variable holding the container may hold None instead (a null
    /// pointer).  PyPy keeps this on `SomeList`; here it is shared by
    /// every alias, which is coarser but never unsound.
    pub can_be_none: bool,
    /// A list made by `bytearray()`: its items are byte values (stores
    /// check the range) and it shows as a bytearray.
    pub bytearray: bool,
    /// A dict made by `collections.defaultdict(factory)`: the function
    /// (annotation) filling a missing key, `missing(d, key)` (see
    /// `rpy3.rlib.rcollections`).
    pub default_missing: Option<SomeValue>,
    /// A list made by `collections.deque()`: it has the deque methods and
    /// shows as a deque.
    pub deque: bool,
    /// A tuple whose length is not known when translating (`tuple(xs)`,
    /// tuples of different lengths in one variable): a list that is never
    /// changed, hashed and shown as a tuple.
    pub tuple: bool,
    /// A dict made by `collections.Counter()`: missing keys count 0, it
    /// shows as a Counter and has the Counter methods.
    pub counter: bool,
    /// A dict made by `collections.OrderedDict()`: it shows as one and
    /// has `move_to_end` and `popitem(last=False)`.
    pub ordered: bool,
    /// A set made by `frozenset()` (or a prebuilt one), and every set it
    /// meets is one too: it shows as a frozenset.
    pub frozen: bool,
    /// A deque made with `maxlen=n` (a constant): its bound.
    pub maxlen: Option<i64>,
}

/// The arena of definitions with union-find merging.
#[derive(Default)]
pub struct ItemDefs {
    defs: PrimaryMap<ItemDefId, ItemDef>,
    parent: SecondaryMap<ItemDefId, Option<ItemDefId>>,
}

impl ItemDefs {
    /// A new definition.
    pub fn new_def(&mut self, kind: ItemKind, item: SomeValue, value: SomeValue) -> ItemDefId {
        self.defs.push(ItemDef {
            kind,
            item,
            value,
            mutated: false,
            resized: false,
            range_step: None,
            readers: BTreeSet::new(),
            custom: None,
            can_be_none: false,
            bytearray: false,
            default_missing: None,
            deque: false,
            frozen: false,
            tuple: false,
            counter: false,
            ordered: false,
            maxlen: None,
        })
    }

    /// Number of definitions (merged or not).
    pub fn len(&self) -> usize {
        self.defs.len()
    }

    /// True when no definition exists.
    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }

    /// The representative of `id`'s merged set.
    pub fn find(&self, mut id: ItemDefId) -> ItemDefId {
        while let Some(p) = self.parent[id] {
            id = p;
        }
        id
    }

    /// The merged definition of `id`.
    pub fn get(&self, id: ItemDefId) -> &ItemDef {
        &self.defs[self.find(id)]
    }

    /// The merged definition of `id`, mutably.
    pub fn get_mut(&mut self, id: ItemDefId) -> &mut ItemDef {
        let r = self.find(id);
        &mut self.defs[r]
    }

    /// Makes `child` part of `root`'s set (both must be representatives).
    pub fn link(&mut self, root: ItemDefId, child: ItemDefId) {
        debug_assert!(self.parent[root].is_none() && self.parent[child].is_none());
        let readers = std::mem::take(&mut self.defs[child].readers);
        let (mutated, resized) = (self.defs[child].mutated, self.defs[child].resized);
        let can_be_none = self.defs[child].can_be_none;
        let step = self.defs[child].range_step;
        let custom = self.defs[child].custom.take();
        let bytearray = self.defs[child].bytearray;
        let default_missing = self.defs[child].default_missing.take();
        let deque = self.defs[child].deque;
        let frozen = self.defs[child].frozen;
        let tuple = self.defs[child].tuple;
        let counter = self.defs[child].counter;
        let ordered = self.defs[child].ordered;
        let maxlen = self.defs[child].maxlen;
        let r = &mut self.defs[root];
        if r.default_missing.is_none() {
            r.default_missing = default_missing;
        }
        r.deque |= deque;
        // (a set and a frozenset in one variable show as sets)
        r.frozen &= frozen;
        r.tuple |= tuple;
        r.counter |= counter;
        r.ordered |= ordered;
        if r.maxlen.is_none() {
            r.maxlen = maxlen;
        }
        if r.custom.is_none() {
            r.custom = custom;
        }
        // a range only while both sides are; the step stays known only
        // while both sides have the same one
        r.range_step = match (r.range_step, step) {
            (Some(a), Some(b)) => Some(if a == b { a } else { None }),
            _ => None,
        };
        r.readers.extend(readers);
        r.mutated |= mutated;
        r.resized |= resized;
        r.can_be_none |= can_be_none;
        r.bytearray |= bytearray;
        self.parent[child] = Some(root);
    }
}
