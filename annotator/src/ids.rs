//! Typed ids of the annotator's arenas.

use cranelift_entity::entity_impl;

/// An annotated graph (one specialised copy of a function's flow graph).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GraphId(u32);
entity_impl!(GraphId, "graph");

/// A description of a prebuilt constant (function, class, method, frozen object).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DescId(u32);
entity_impl!(DescId, "desc");

/// A class definition: what the annotator knows about a class's instances.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClassDefId(u32);
entity_impl!(ClassDefId, "classdef");

/// A shared item definition of a list, dict, set or generator.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemDefId(u32);
entity_impl!(ItemDefId, "itemdef");
