//! The low-level type system (PyPy's `lltype.py`): primitive types, structs
//! (GC-managed or not, a parent struct inlined as the first field), arrays,
//! pointers, function types, opaque types and forward references; and the
//! runtime values and heap the llinterp and prebuilt data use.
//!
//! Types are interned in a process-wide table and named by [`LlType`] ids:
//! primitives, pointers, arrays and function types are structural (the same
//! definition gives the same id), structs and opaque types are nominal (each
//! definition is a new type, as the rtyper makes each once).
//!
//! Objects are stored flat: a struct is a sequence of slots, its inlined
//! parent's slots first, so a pointer to a struct is also a pointer to its
//! parent (up- and down-casts cost nothing).  The heap is an `imbl`
//! persistent vector of shared objects: cloning a heap is O(1), and writing
//! to an object copies it only if a snapshot still shares it.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock, RwLock};

/// A low-level type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LlType(u32);

/// The primitive types.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Primitive {
    /// A signed machine word.
    Signed,
    /// An unsigned machine word.
    Unsigned,
    /// Signed 64 bits.
    SignedLongLong,
    /// Unsigned 64 bits.
    UnsignedLongLong,
    /// An IEEE double.
    Float,
    /// A byte.
    Char,
    /// A Unicode code point.
    UniChar,
    /// A truth value.
    Bool,
    /// No value.
    Void,
}

/// The definition of a type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeDef {
    /// A primitive.
    Primitive(Primitive),
    /// A struct; if `gc`, instances are GC-managed.  A varsize struct ends
    /// with an inlined array field.
    Struct {
        name: String,
        fields: Vec<(String, LlType)>,
        gc: bool,
    },
    /// An array of items; a non-GC array is inlined in a varsize struct.
    Array { item: LlType, gc: bool },
    /// A pointer to a struct, array, function or opaque object.
    Ptr(LlType),
    /// A function type.
    Func { args: Vec<LlType>, result: LlType },
    /// An opaque type.
    Opaque { name: String },
    /// A forward reference, resolved later by [`LlType::become_`].
    Forward { gc: bool },
}

struct Table {
    defs: Vec<TypeDef>,
    interned: HashMap<TypeDef, LlType>,
}

fn table() -> &'static RwLock<Table> {
    static TABLE: OnceLock<RwLock<Table>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Table {
            defs: Vec::new(),
            interned: HashMap::new(),
        };
        for p in PRIMITIVES {
            let def = TypeDef::Primitive(p);
            let id = LlType(t.defs.len() as u32);
            t.defs.push(def.clone());
            t.interned.insert(def, id);
        }
        RwLock::new(t)
    })
}

const PRIMITIVES: [Primitive; 9] = [
    Primitive::Signed,
    Primitive::Unsigned,
    Primitive::SignedLongLong,
    Primitive::UnsignedLongLong,
    Primitive::Float,
    Primitive::Char,
    Primitive::UniChar,
    Primitive::Bool,
    Primitive::Void,
];

/// `Signed`.
pub const SIGNED: LlType = LlType(0);
/// `Unsigned`.
pub const UNSIGNED: LlType = LlType(1);
/// `SignedLongLong`.
pub const SIGNED_LONGLONG: LlType = LlType(2);
/// `UnsignedLongLong`.
pub const UNSIGNED_LONGLONG: LlType = LlType(3);
/// `Float`.
pub const FLOAT: LlType = LlType(4);
/// `Char`.
pub const CHAR: LlType = LlType(5);
/// `UniChar`.
pub const UNICHAR: LlType = LlType(6);
/// `Bool`.
pub const BOOL: LlType = LlType(7);
/// `Void`.
pub const VOID: LlType = LlType(8);

/// Why a type cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid low-level type: {0}")]
pub struct TypeError(pub String);

fn intern(def: TypeDef) -> LlType {
    {
        let t = table().read().unwrap_or_else(|p| p.into_inner());
        if let Some(&id) = t.interned.get(&def) {
            return id;
        }
    }
    let mut t = table().write().unwrap_or_else(|p| p.into_inner());
    if let Some(&id) = t.interned.get(&def) {
        return id;
    }
    let id = LlType(t.defs.len() as u32);
    t.defs.push(def.clone());
    t.interned.insert(def, id);
    id
}

fn fresh(def: TypeDef) -> LlType {
    let mut t = table().write().unwrap_or_else(|p| p.into_inner());
    let id = LlType(t.defs.len() as u32);
    t.defs.push(def);
    id
}

impl LlType {
    /// The definition of this type.
    pub fn def(self) -> TypeDef {
        let t = table().read().unwrap_or_else(|p| p.into_inner());
        t.defs[self.0 as usize].clone()
    }

    /// The type's index (stable within a process).
    pub fn index(self) -> u32 {
        self.0
    }

    /// A pointer to `target`.
    pub fn ptr(target: LlType) -> Result<LlType, TypeError> {
        match target.def() {
            TypeDef::Primitive(_) | TypeDef::Ptr(_) => {
                Err(TypeError(format!("cannot point to {target}")))
            }
            _ => Ok(intern(TypeDef::Ptr(target))),
        }
    }

    /// An array of `item`.
    pub fn array(item: LlType, gc: bool) -> Result<LlType, TypeError> {
        if let TypeDef::Struct { .. } | TypeDef::Array { .. } = item.def() {
            if item.is_gc() || item.is_varsize() {
                return Err(TypeError(format!("array items cannot be {item}")));
            }
        }
        Ok(intern(TypeDef::Array { item, gc }))
    }

    /// A function type.
    pub fn func(args: Vec<LlType>, result: LlType) -> LlType {
        intern(TypeDef::Func { args, result })
    }

    /// A new struct type.  A GC struct may only inline a GC struct as its
    /// first field (its parent); a non-GC array may only be the last field
    /// (making the struct varsize).
    pub fn new_struct(
        name: &str,
        fields: Vec<(String, LlType)>,
        gc: bool,
    ) -> Result<LlType, TypeError> {
        Self::check_struct(name, &fields, gc)?;
        Ok(fresh(TypeDef::Struct {
            name: name.to_string(),
            fields,
            gc,
        }))
    }

    fn check_struct(name: &str, fields: &[(String, LlType)], gc: bool) -> Result<(), TypeError> {
        let n = fields.len();
        for (i, (fname, fty)) in fields.iter().enumerate() {
            match fty.def() {
                TypeDef::Struct { gc: true, .. } if !(gc && i == 0) => {
                    return Err(TypeError(format!(
                        "{name}.{fname}: a GC struct can only be inlined as the first field of a GC struct"
                    )))
                }
                TypeDef::Array { gc: true, .. } => {
                    return Err(TypeError(format!("{name}.{fname}: a GC array cannot be inlined")))
                }
                TypeDef::Array { gc: false, .. } if i + 1 != n => {
                    return Err(TypeError(format!("{name}.{fname}: an inlined array must be the last field")))
                }
                TypeDef::Struct { .. } if fty.is_varsize() && i + 1 != n => {
                    return Err(TypeError(format!("{name}.{fname}: a varsize struct must be the last field")))
                }
                TypeDef::Forward { .. } | TypeDef::Func { .. } | TypeDef::Opaque { .. } => {
                    return Err(TypeError(format!("{name}.{fname}: {fty} cannot be a field (use a pointer)")))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A forward reference, to be defined later with [`LlType::become_`]
    /// (recursive types: a struct holding a pointer to itself).
    pub fn forward(gc: bool) -> LlType {
        fresh(TypeDef::Forward { gc })
    }

    /// Defines a forward reference as a struct.
    pub fn become_(self, name: &str, fields: Vec<(String, LlType)>) -> Result<(), TypeError> {
        let TypeDef::Forward { gc } = self.def() else {
            return Err(TypeError(format!("{self} is not a forward reference")));
        };
        Self::check_struct(name, &fields, gc)?;
        let mut t = table().write().unwrap_or_else(|p| p.into_inner());
        t.defs[self.0 as usize] = TypeDef::Struct {
            name: name.to_string(),
            fields,
            gc,
        };
        Ok(())
    }

    /// Gives the struct `self` (made by [`LlType::become_`]) new fields:
    /// the rtyper redefines a class's instance struct when a later pass
    /// finds the class with more attributes (an exception made with
    /// arguments in a helper annotated while rtyping).  Only types not yet
    /// used by a finished program may be redefined.
    pub fn redefine_struct(
        self,
        name: &str,
        fields: Vec<(String, LlType)>,
    ) -> Result<(), TypeError> {
        let TypeDef::Struct { gc, .. } = self.def() else {
            return Err(TypeError(format!("{self} is not a struct")));
        };
        Self::check_struct(name, &fields, gc)?;
        let mut t = table().write().unwrap_or_else(|p| p.into_inner());
        t.defs[self.0 as usize] = TypeDef::Struct {
            name: name.to_string(),
            fields,
            gc,
        };
        Ok(())
    }

    /// An opaque type.
    pub fn opaque(name: &str) -> LlType {
        fresh(TypeDef::Opaque {
            name: name.to_string(),
        })
    }

    /// True for GC-managed structs and arrays.
    pub fn is_gc(self) -> bool {
        matches!(
            self.def(),
            TypeDef::Struct { gc: true, .. }
                | TypeDef::Array { gc: true, .. }
                | TypeDef::Forward { gc: true }
        )
    }

    /// True for arrays and structs ending with an array.
    pub fn is_varsize(self) -> bool {
        match self.def() {
            TypeDef::Array { .. } => true,
            TypeDef::Struct { fields, .. } => {
                fields.last().map(|(_, t)| t.is_varsize()).unwrap_or(false)
            }
            _ => false,
        }
    }

    /// The primitive, if this is one.
    pub fn primitive(self) -> Option<Primitive> {
        match self.def() {
            TypeDef::Primitive(p) => Some(p),
            _ => None,
        }
    }

    /// The pointed-to type, if this is a pointer.
    pub fn target(self) -> Option<LlType> {
        match self.def() {
            TypeDef::Ptr(t) => Some(t),
            _ => None,
        }
    }

    /// The type of field `name` of a struct.
    pub fn field_type(self, name: &str) -> Option<LlType> {
        match self.def() {
            TypeDef::Struct { fields, .. } => {
                fields.iter().find(|(n, _)| n == name).map(|(_, t)| *t)
            }
            _ => None,
        }
    }

    /// The first field's type when it is an inlined struct (the parent).
    pub fn parent(self) -> Option<LlType> {
        match self.def() {
            TypeDef::Struct { fields, .. } => match fields.first() {
                Some((_, t)) if matches!(t.def(), TypeDef::Struct { .. }) => Some(*t),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether `self` is `other` or inlines it (transitively) as its first
    /// field, so that a pointer to `self` is a pointer to `other` too.
    pub fn starts_with(self, other: LlType) -> bool {
        let mut t = Some(self);
        while let Some(x) = t {
            if x == other {
                return true;
            }
            t = x.parent();
        }
        false
    }

    /// Number of flat slots of the fixed part of a value of this type.
    pub fn nslots(self) -> usize {
        match self.def() {
            TypeDef::Struct { fields, .. } => fields
                .iter()
                .map(|(_, t)| {
                    if matches!(t.def(), TypeDef::Array { .. }) {
                        0
                    } else {
                        t.nslots()
                    }
                })
                .sum(),
            TypeDef::Array { .. } => 0,
            _ => 1,
        }
    }

    /// Slot offset of field `name` in the flat layout of a struct.
    pub fn field_offset(self, name: &str) -> Option<usize> {
        let TypeDef::Struct { fields, .. } = self.def() else {
            return None;
        };
        let mut off = 0;
        for (n, t) in fields {
            if n == name {
                return Some(off);
            }
            if !matches!(t.def(), TypeDef::Array { .. }) {
                off += t.nslots();
            }
        }
        None
    }

    /// The item type of an array, or of the array ending a varsize struct.
    pub fn varsize_item(self) -> Option<LlType> {
        match self.def() {
            TypeDef::Array { item, .. } => Some(item),
            TypeDef::Struct { fields, .. } => fields.last().and_then(|(_, t)| t.varsize_item()),
            _ => None,
        }
    }

    /// The default (zero) value of a slot of primitive or pointer type.
    pub fn default_value(self) -> LlValue {
        match self.def() {
            TypeDef::Primitive(p) => match p {
                Primitive::Signed | Primitive::SignedLongLong => LlValue::Int(0),
                Primitive::Unsigned | Primitive::UnsignedLongLong => LlValue::UInt(0),
                Primitive::Float => LlValue::Float(0.0),
                Primitive::Char => LlValue::Char(0),
                Primitive::UniChar => LlValue::UniChar(0),
                Primitive::Bool => LlValue::Bool(false),
                Primitive::Void => LlValue::Void,
            },
            TypeDef::Ptr(_) => LlValue::Ptr(None),
            _ => LlValue::Void,
        }
    }

    /// The flat slots of a fresh value of this (fixed-size part of a) type.
    pub fn zero_slots(self, out: &mut Vec<LlValue>) {
        match self.def() {
            TypeDef::Struct { fields, .. } => {
                for (_, t) in fields {
                    if !matches!(t.def(), TypeDef::Array { .. }) {
                        t.zero_slots(out);
                    }
                }
            }
            TypeDef::Array { .. } => {}
            _ => out.push(self.default_value()),
        }
    }

    /// Whether a runtime value is of this (primitive or pointer) type.
    pub fn accepts(self, v: &LlValue) -> bool {
        match (self.def(), v) {
            (TypeDef::Primitive(p), v) => matches!(
                (p, v),
                (
                    Primitive::Signed | Primitive::SignedLongLong,
                    LlValue::Int(_)
                ) | (
                    Primitive::Unsigned | Primitive::UnsignedLongLong,
                    LlValue::UInt(_)
                ) | (Primitive::Float, LlValue::Float(_))
                    | (Primitive::Char, LlValue::Char(_))
                    | (Primitive::UniChar, LlValue::UniChar(_))
                    | (Primitive::Bool, LlValue::Bool(_))
                    | (Primitive::Void, LlValue::Void)
            ),
            (TypeDef::Ptr(t), LlValue::Ptr(p)) => match p {
                None => true,
                Some(p) => p.ty.starts_with(t) || t.starts_with(p.ty) || p.ty == t,
            },
            (TypeDef::Ptr(t), LlValue::Func(f)) => {
                matches!(t.def(), TypeDef::Func { .. }) && f.ty == t
            }
            _ => false,
        }
    }
}

impl fmt::Display for LlType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.def() {
            TypeDef::Primitive(p) => write!(f, "{p:?}"),
            TypeDef::Struct { name, gc, .. } => {
                write!(f, "{}({name})", if gc { "GcStruct" } else { "Struct" })
            }
            TypeDef::Array { item, gc } => {
                write!(f, "{}({item})", if gc { "GcArray" } else { "Array" })
            }
            TypeDef::Ptr(t) => write!(f, "Ptr({t})"),
            TypeDef::Func { args, result } => {
                let a: Vec<String> = args.iter().map(|t| t.to_string()).collect();
                write!(f, "Func({}) -> {result}", a.join(", "))
            }
            TypeDef::Opaque { name } => write!(f, "Opaque({name})"),
            TypeDef::Forward { gc } => write!(f, "{}ForwardReference", if gc { "Gc" } else { "" }),
        }
    }
}

impl fmt::Debug for LlType {
    /// Like `Display`, but structs, forward references and opaque types,
    /// which are nominal, also show their identity (two list structs of
    /// different items are different types).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.def() {
            TypeDef::Struct { .. } | TypeDef::Forward { .. } | TypeDef::Opaque { .. } => {
                write!(f, "{self}#{}", self.0)
            }
            TypeDef::Array { item, gc } => {
                write!(f, "{}({item:?})", if gc { "GcArray" } else { "Array" })
            }
            TypeDef::Ptr(t) => write!(f, "Ptr({t:?})"),
            TypeDef::Func { args, result } => write!(f, "Func({args:?}) -> {result:?}"),
            TypeDef::Primitive(_) => write!(f, "{self}"),
        }
    }
}

/// A pointer into the heap: an object and the slot offset of the
/// (sub)structure pointed to, with its static type.
///
/// Aligned to 8 bytes, so inside an [`LlValue`] (same size either way) it
/// sits at an aligned offset: the llinterp reads it from its registers
/// with two aligned loads, where a pointer at offset 4 made every
/// `getfield` wait on a failed store-to-load forwarding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(align(8))]
pub struct Ptr {
    /// The object.
    pub obj: u32,
    /// Slot offset of the pointed-to structure inside the object.
    pub offset: u32,
    /// For an interior pointer to an array item, the item index + 1 (0: none).
    pub item: u32,
    /// The struct or array type pointed to.
    pub ty: LlType,
}

/// A function pointer: an index into the program's function table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FuncRef {
    /// Index of the function.
    pub index: u32,
    /// The function type.
    pub ty: LlType,
}

/// A runtime low-level value.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum LlValue {
    /// Of type `Void`.
    Void,
    /// Of type `Bool`.
    Bool(bool),
    /// Of type `Signed` or `SignedLongLong`.
    Int(i64),
    /// Of type `Unsigned` or `UnsignedLongLong`.
    UInt(u64),
    /// Of type `Float`.
    Float(f64),
    /// Of type `Char`.
    Char(u8),
    /// Of type `UniChar`.
    UniChar(u32),
    /// A pointer to a struct or array (`None`: the null pointer).
    Ptr(Option<Ptr>),
    /// A pointer to a function.
    Func(FuncRef),
}

/// A heap object: the flat slots of a struct (or of a varsize struct's
/// fixed part) and the flat slots of its array items.
#[derive(Clone, Debug)]
pub struct HeapObj {
    /// The allocated type.
    pub ty: LlType,
    /// The fixed part.
    pub slots: Vec<LlValue>,
    /// Array items, `item_slots` slots each.
    pub items: Vec<LlValue>,
    /// Slots per array item.
    pub item_slots: u32,
}

/// An error of the low-level program: what a compiled program would do
/// undefined behaviour on, refused with a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeapError {
    /// Dereferencing the null pointer.
    #[error("null pointer dereference ({0})")]
    Null(&'static str),
    /// An index outside an array.
    #[error("array index {index} out of bounds (length {len})")]
    OutOfBounds { index: i64, len: usize },
    /// A pointer of the wrong type, or a field that does not exist.
    #[error("type error: {0}")]
    Type(String),
}

/// The heap: shared, persistent, cheap to snapshot.
#[derive(Clone, Default)]
pub struct Heap {
    objs: imbl::Vector<Arc<HeapObj>>,
}

impl Heap {
    /// An empty heap.
    pub fn new() -> Heap {
        Heap::default()
    }

    /// Number of objects ever allocated.
    pub fn len(&self) -> usize {
        self.objs.len()
    }

    /// True when nothing was allocated.
    pub fn is_empty(&self) -> bool {
        self.objs.is_empty()
    }

    /// Allocates a zeroed struct or array of type `ty` (`length` items for
    /// a varsize type); returns a pointer to it.
    pub fn malloc(&mut self, ty: LlType, length: usize) -> Result<Ptr, HeapError> {
        let mut slots = Vec::with_capacity(ty.nslots());
        ty.zero_slots(&mut slots);
        let (items, item_slots) = match ty.varsize_item() {
            Some(item) => {
                let mut one = Vec::new();
                item.zero_slots(&mut one);
                let per = one.len();
                let mut items = Vec::with_capacity(per * length);
                for _ in 0..length {
                    items.extend(one.iter().copied());
                }
                (items, per as u32)
            }
            None if length != 0 => return Err(HeapError::Type(format!("{ty} is not varsize"))),
            None => (Vec::new(), 0),
        };
        let obj = self.objs.len() as u32;
        self.objs.push_back(Arc::new(HeapObj {
            ty,
            slots,
            items,
            item_slots,
        }));
        Ok(Ptr {
            obj,
            offset: 0,
            item: 0,
            ty,
        })
    }

    fn object(&self, p: &Ptr) -> &HeapObj {
        &self.objs[p.obj as usize]
    }

    fn object_mut(&mut self, p: &Ptr) -> &mut HeapObj {
        Arc::make_mut(&mut self.objs[p.obj as usize])
    }

    /// Reads slot `slot` of the struct `p` points to.
    pub fn get_slot(&self, p: &Ptr, slot: usize) -> LlValue {
        let o = self.object(p);
        if p.item == 0 {
            o.slots[p.offset as usize + slot]
        } else {
            let base = (p.item as usize - 1) * o.item_slots as usize;
            o.items[base + p.offset as usize + slot]
        }
    }

    /// Writes slot `slot` of the struct `p` points to.
    pub fn set_slot(&mut self, p: &Ptr, slot: usize, v: LlValue) {
        let o = self.object_mut(p);
        if p.item == 0 {
            o.slots[p.offset as usize + slot] = v;
        } else {
            let base = (p.item as usize - 1) * o.item_slots as usize;
            o.items[base + p.offset as usize + slot] = v;
        }
    }

    /// Number of items of the array (or varsize struct) `p` points to.
    pub fn length(&self, p: &Ptr) -> usize {
        let o = self.object(p);
        if o.item_slots == 0 {
            0
        } else {
            o.items.len() / o.item_slots as usize
        }
    }

    fn item_index(&self, p: &Ptr, index: i64) -> Result<usize, HeapError> {
        let len = self.length(p);
        if index < 0 || index as usize >= len {
            return Err(HeapError::OutOfBounds { index, len });
        }
        Ok(index as usize)
    }

    /// Reads slot `slot` of item `index` (bounds-checked).
    pub fn get_item(&self, p: &Ptr, index: i64, slot: usize) -> Result<LlValue, HeapError> {
        let i = self.item_index(p, index)?;
        let o = self.object(p);
        Ok(o.items[i * o.item_slots as usize + slot])
    }

    /// Writes slot `slot` of item `index` (bounds-checked).
    pub fn set_item(
        &mut self,
        p: &Ptr,
        index: i64,
        slot: usize,
        v: LlValue,
    ) -> Result<(), HeapError> {
        let i = self.item_index(p, index)?;
        let o = self.object_mut(p);
        let per = o.item_slots as usize;
        o.items[i * per + slot] = v;
        Ok(())
    }

    /// The type an object was allocated with.
    pub fn allocated_type(&self, p: &Ptr) -> LlType {
        self.object(p).ty
    }

    /// Object number `obj`, if it was allocated (non-panicking access for
    /// executors that must refuse bad pointers with an error).
    pub fn object_at(&self, obj: u32) -> Option<&HeapObj> {
        self.objs.get(obj as usize).map(|o| &**o)
    }

    /// Mutable access to object number `obj`, copying it first if a
    /// snapshot still shares it.
    pub fn object_at_mut(&mut self, obj: u32) -> Option<&mut HeapObj> {
        self.objs.get_mut(obj as usize).map(Arc::make_mut)
    }

    /// Adds a ready-made object (executors precompute zeroed objects per
    /// allocation site); returns its number.
    pub fn push_object(&mut self, obj: HeapObj) -> u32 {
        let n = self.objs.len() as u32;
        self.objs.push_back(Arc::new(obj));
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node_types() -> (LlType, LlType, LlType) {
        // OBJECT (a root with a counter), NODE(OBJECT) with a value and a
        // pointer to the next NODE (recursive through a forward reference).
        let object = LlType::new_struct("object", vec![("hash".into(), SIGNED)], true).unwrap();
        let node = LlType::forward(true);
        let pnode = LlType::ptr(node).unwrap();
        node.become_(
            "Node",
            vec![
                ("super".into(), object),
                ("v".into(), SIGNED),
                ("nxt".into(), pnode),
            ],
        )
        .unwrap();
        (object, node, pnode)
    }

    #[test]
    fn structural_types_are_interned() {
        let a = LlType::array(SIGNED, true).unwrap();
        assert_eq!(a, LlType::array(SIGNED, true).unwrap());
        assert_eq!(LlType::ptr(a).unwrap(), LlType::ptr(a).unwrap());
        assert_ne!(a, LlType::array(SIGNED, false).unwrap());
        assert_eq!(
            LlType::func(vec![SIGNED], BOOL),
            LlType::func(vec![SIGNED], BOOL)
        );
        assert_eq!(a.to_string(), "GcArray(Signed)");
    }

    #[test]
    fn parent_is_inlined_first() {
        let (object, node, _) = node_types();
        assert_eq!(node.parent(), Some(object));
        assert!(node.starts_with(object));
        assert!(!object.starts_with(node));
        assert_eq!(node.nslots(), 3);
        assert_eq!(node.field_offset("v"), Some(1));
        assert_eq!(node.field_offset("nxt"), Some(2));
    }

    #[test]
    fn invalid_structs_are_refused() {
        let gcs = LlType::new_struct("A", vec![], true).unwrap();
        assert!(
            LlType::new_struct("B", vec![("x".into(), SIGNED), ("a".into(), gcs)], true).is_err()
        );
        let arr = LlType::array(CHAR, false).unwrap();
        assert!(
            LlType::new_struct("C", vec![("chars".into(), arr), ("x".into(), SIGNED)], true)
                .is_err()
        );
        assert!(LlType::new_struct(
            "S",
            vec![("len".into(), SIGNED), ("chars".into(), arr)],
            true
        )
        .unwrap()
        .is_varsize());
        assert!(LlType::ptr(SIGNED).is_err());
    }

    #[test]
    fn heap_structs_arrays_and_snapshots() {
        let (_, node, _) = node_types();
        let mut heap = Heap::new();
        let p = heap.malloc(node, 0).unwrap();
        let v = node.field_offset("v").unwrap();
        assert_eq!(heap.get_slot(&p, v), LlValue::Int(0));
        heap.set_slot(&p, v, LlValue::Int(42));
        let snapshot = heap.clone();
        heap.set_slot(&p, v, LlValue::Int(7));
        assert_eq!(heap.get_slot(&p, v), LlValue::Int(7));
        assert_eq!(snapshot.get_slot(&p, v), LlValue::Int(42));

        let arr = LlType::array(SIGNED, true).unwrap();
        let a = heap.malloc(arr, 3).unwrap();
        assert_eq!(heap.length(&a), 3);
        heap.set_item(&a, 2, 0, LlValue::Int(5)).unwrap();
        assert_eq!(heap.get_item(&a, 2, 0), Ok(LlValue::Int(5)));
        assert_eq!(
            heap.get_item(&a, 3, 0),
            Err(HeapError::OutOfBounds { index: 3, len: 3 })
        );
        assert_eq!(
            heap.get_item(&a, -1, 0),
            Err(HeapError::OutOfBounds { index: -1, len: 3 })
        );
    }

    #[test]
    fn pointer_types_accept_subclass_pointers() {
        let (object, node, pnode) = node_types();
        let pobject = LlType::ptr(object).unwrap();
        let mut heap = Heap::new();
        let p = heap.malloc(node, 0).unwrap();
        assert!(pobject.accepts(&LlValue::Ptr(Some(p))));
        assert!(pnode.accepts(&LlValue::Ptr(Some(p))));
        assert!(pnode.accepts(&LlValue::Ptr(None)));
        assert!(!SIGNED.accepts(&LlValue::Ptr(None)));
    }
}
