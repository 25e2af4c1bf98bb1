//! A low-level program: what the rtyper produces and every executor (the
//! llinterp, genc, native) consumes — the low-level graphs of its
//! functions, the prebuilt heap, and the object model classes and
//! exceptions are made of.
//!
//! Instances start with a pointer to their class's vtable (PyPy's
//! `OBJECT` / `OBJECT_VTABLE`); a vtable holds the class's range of
//! subclass numbers, so `isinstance` is two comparisons, and its name.

use std::collections::HashMap;
use std::sync::Arc;

use crate::graph::FunctionGraph;
use crate::lltype::{Heap, LlType, LlValue, Ptr, TypeError, CHAR, SIGNED};

/// One function of the program.
#[derive(Clone)]
pub struct LlFunction {
    /// Its name, for messages.
    pub name: String,
    /// Its low-level graph (every variable and constant typed).
    pub graph: Arc<FunctionGraph>,
    /// Its function type.
    pub ty: LlType,
}

/// The types every instance and class share.
#[derive(Clone, Copy, Debug)]
pub struct ObjectModel {
    /// `GcStruct object { typeptr: Ptr(object_vtable) }`, the root of
    /// every instance struct.
    pub object: LlType,
    /// `Struct object_vtable { subclassrange_min, subclassrange_max, name }`.
    pub vtable: LlType,
    /// `Ptr(object)`.
    pub object_ptr: LlType,
    /// `Ptr(object_vtable)`.
    pub vtable_ptr: LlType,
    /// `Array(Char)`, the class names held by vtables.
    pub name_array: LlType,
}

impl ObjectModel {
    /// Creates the object model types.
    pub fn new() -> Result<ObjectModel, TypeError> {
        let vtable = LlType::forward(false);
        let vtable_ptr = LlType::ptr(vtable)?;
        let name_array = LlType::array(CHAR, false)?;
        vtable.become_(
            "object_vtable",
            vec![
                ("subclassrange_min".into(), SIGNED),
                ("subclassrange_max".into(), SIGNED),
                ("name".into(), LlType::ptr(name_array)?),
            ],
        )?;
        let object = LlType::new_struct("object", vec![("typeptr".into(), vtable_ptr)], true)?;
        Ok(ObjectModel {
            object,
            vtable,
            object_ptr: LlType::ptr(object)?,
            vtable_ptr,
            name_array,
        })
    }

    /// The vtable of the instance `p` points to.
    pub fn typeptr(&self, heap: &Heap, p: &Ptr) -> Option<Ptr> {
        match heap.get_slot(p, 0) {
            LlValue::Ptr(v) => v,
            _ => None,
        }
    }

    /// Whether the class of vtable `cls` is `of` or a subclass of it.
    pub fn is_subclass(&self, heap: &Heap, cls: &Ptr, of: &Ptr) -> bool {
        let get = |p: &Ptr, slot: usize| match heap.get_slot(p, slot) {
            LlValue::Int(i) => i,
            _ => 0,
        };
        let id = get(cls, 0);
        get(of, 0) <= id && id < get(of, 1)
    }

    /// The class name stored in vtable `cls`.
    pub fn class_name(&self, heap: &Heap, cls: &Ptr) -> String {
        let LlValue::Ptr(Some(name)) = heap.get_slot(cls, 2) else {
            return "?".into();
        };
        (0..heap.length(&name) as i64)
            .filter_map(|i| match heap.get_item(&name, i, 0) {
                Ok(LlValue::Char(c)) => Some(c as char),
                _ => None,
            })
            .collect()
    }
}

/// A built-in exception class as the program represents it.
#[derive(Clone, Copy, Debug)]
pub struct LlExceptionClass {
    /// Its vtable.
    pub vtable: Ptr,
    /// The struct of its instances.
    pub instance: LlType,
}

/// The attribute of `BaseException` instances holding the text of the
/// exception's arguments, what `str(e)` shows (the annotator adds it when
/// the program makes an exception with arguments; the field is
/// `inst_` and this name).
pub const EXC_MESSAGE_ATTR: &str = "__rpy3_message__";

/// The attributes of `BaseException` instances that `repr(e)` shows, when
/// the program takes one: the name of the class made (set where it is
/// made) and the reprs of the arguments, comma-separated (set with the
/// message).
pub const EXC_NAME_ATTR: &str = "__rpy3_exc_name__";
/// See [`EXC_NAME_ATTR`].
pub const EXC_ARGS_ATTR: &str = "__rpy3_exc_args__";

/// A translated program.
#[derive(Clone)]
pub struct LlProgram {
    /// Functions by index (`FuncRef::index`).
    pub functions: Vec<LlFunction>,
    /// Prebuilt data: vtables, prebuilt instances, strings.
    pub heap: Heap,
    /// The instance and class layout.
    pub objmodel: ObjectModel,
    /// Built-in exception classes that operations raise
    /// (`ZeroDivisionError`, `OverflowError`, ...), by name.
    pub exceptions: HashMap<String, LlExceptionClass>,
    /// The entry function.
    pub entry: usize,
}
