//! Classes at the low level (PyPy's `rclass.py`): every instance is a GC
//! struct whose first field inlines its base class's struct, down to the
//! root `object { typeptr }`; every class has a prebuilt vtable holding
//! the range of numbers of its subclasses (numbered depth-first), so
//! `isinstance` is two comparisons.

use std::collections::HashMap;

use rpy3_annotator::ClassDefId;
use rpy3_model::lltype::{Heap, LlType, LlValue, Ptr};
use rpy3_model::program::{LlExceptionClass, ObjectModel};

use crate::repr::Repr;
use crate::RTypeError;

/// The built-in exceptions every program can raise from operations.
pub const STANDARD_EXCEPTIONS: &[&str] = &[
    "BaseException",
    "Exception",
    "ArithmeticError",
    "ZeroDivisionError",
    "OverflowError",
    "ValueError",
    "UnicodeError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "LookupError",
    "IndexError",
    "KeyError",
    "StopIteration",
    "AssertionError",
    "MemoryError",
    "TypeError",
    "RuntimeError",
    "RecursionError",
    "NotImplementedError",
    "OSError",
    "AttributeError",
];

/// The low-level layout of every class of the program.
#[derive(Default)]
pub struct Classes {
    /// Instance struct of each class.
    pub structs: HashMap<ClassDefId, LlType>,
    /// Pointer to the instance struct.
    pub ptrs: HashMap<ClassDefId, LlType>,
    /// The prebuilt vtable of each class.
    pub vtables: HashMap<ClassDefId, Ptr>,
    /// Depth-first number range `[min, max)` of each class's subtree.
    pub ranges: HashMap<ClassDefId, (i64, i64)>,
    /// Instance fields that live on each class: attribute name and repr.
    pub fields: HashMap<ClassDefId, Vec<(String, Repr)>>,
    /// Root pointer type (`Ptr(object)`).
    pub root_ptr: Option<LlType>,
}

/// Instance struct types of earlier rtyping passes: the fields each was
/// defined with, and the type.
pub type ClassTypes = HashMap<ClassDefId, (Vec<(String, LlType)>, LlType)>;

/// The name of the struct field holding attribute `name`.
pub fn field_name(name: &str) -> String {
    format!("inst_{name}")
}

impl Classes {
    /// Pointer to instances of `c`.
    pub fn instance_ptr(&self, c: ClassDefId) -> LlType {
        self.ptrs
            .get(&c)
            .copied()
            .or(self.root_ptr)
            .expect("class table built before use")
    }

    /// The vtable of `c`.
    pub fn vtable(&self, c: ClassDefId) -> Ptr {
        self.vtables[&c]
    }

    /// Declares the instance struct of every class definition (a forward
    /// reference, defined by [`Classes::build`]), reusing the types of an
    /// earlier pass from `cache`, so fields and container items can point
    /// to any class before the layouts are known.
    pub fn declare(
        classdefs: &[(ClassDefId, String, Option<ClassDefId>)],
        objmodel: &ObjectModel,
        cache: &ClassTypes,
    ) -> Result<Classes, RTypeError> {
        let mut classes = Classes {
            root_ptr: Some(objmodel.object_ptr),
            ..Classes::default()
        };
        for (c, _, _) in classdefs {
            let ty = match cache.get(c) {
                Some((_, t)) => *t,
                None => LlType::forward(true),
            };
            classes.structs.insert(*c, ty);
            classes.ptrs.insert(
                *c,
                LlType::ptr(ty).map_err(|e| RTypeError::new(e.to_string()))?,
            );
        }
        Ok(classes)
    }

    /// Defines the declared structs and builds the vtables, numbering the
    /// classes depth-first from the roots.
    pub fn build(
        &mut self,
        classdefs: &[(ClassDefId, String, Option<ClassDefId>)],
        field_reprs: &HashMap<ClassDefId, Vec<(String, Repr, LlType)>>,
        objmodel: &ObjectModel,
        heap: &mut Heap,
        cache: &mut ClassTypes,
    ) -> Result<(), RTypeError> {
        let classes = self;
        let children = |p: Option<ClassDefId>| -> Vec<ClassDefId> {
            classdefs
                .iter()
                .filter(|(_, _, b)| *b == p)
                .map(|(c, _, _)| *c)
                .collect()
        };
        let name_of = |c: ClassDefId| {
            classdefs
                .iter()
                .find(|(x, _, _)| *x == c)
                .map(|(_, n, _)| n.clone())
                .unwrap_or_default()
        };
        // depth-first numbering and struct definition (parents first)
        let mut counter = 0i64;
        let mut stack: Vec<(ClassDefId, bool)> = children(None)
            .into_iter()
            .rev()
            .map(|c| (c, false))
            .collect();
        let mut start: HashMap<ClassDefId, i64> = HashMap::new();
        let mut parent_of: HashMap<ClassDefId, Option<ClassDefId>> = HashMap::new();
        for (c, _, b) in classdefs {
            parent_of.insert(*c, *b);
        }
        while let Some((c, done)) = stack.pop() {
            if done {
                classes.ranges.insert(c, (start[&c], counter));
                continue;
            }
            start.insert(c, counter);
            counter += 1;
            let parent = match parent_of[&c] {
                Some(p) => classes.structs[&p],
                None => objmodel.object,
            };
            let mut fields = vec![("super".to_string(), parent)];
            let reprs = field_reprs.get(&c).cloned().unwrap_or_default();
            for (name, _, t) in &reprs {
                fields.push((field_name(name), *t));
            }
            let ty = classes.structs[&c];
            match cache.get(&c) {
                Some((have, _)) if *have == fields => {}
                Some(_) => {
                    // the class gained attributes in the annotations of
                    // helpers made by the previous pass: the same struct,
                    // with the new fields
                    ty.redefine_struct(&name_of(c), fields.clone())
                        .map_err(|e| RTypeError::new(e.to_string()))?;
                    cache.insert(c, (fields, ty));
                }
                None => {
                    ty.become_(&name_of(c), fields.clone())
                        .map_err(|e| RTypeError::new(e.to_string()))?;
                    cache.insert(c, (fields, ty));
                }
            }
            classes
                .fields
                .insert(c, reprs.into_iter().map(|(n, r, _)| (n, r)).collect());
            stack.push((c, true));
            for k in children(Some(c)).into_iter().rev() {
                stack.push((k, false));
            }
        }
        for (c, name, _) in classdefs {
            let (lo, hi) = classes.ranges[c];
            let vt = heap
                .malloc(objmodel.vtable, 0)
                .map_err(|e| RTypeError::new(e.to_string()))?;
            heap.set_slot(&vt, 0, LlValue::Int(lo));
            heap.set_slot(&vt, 1, LlValue::Int(hi));
            let short = name.rsplit('.').next().unwrap_or(name);
            let chars = heap
                .malloc(objmodel.name_array, short.len())
                .map_err(|e| RTypeError::new(e.to_string()))?;
            for (i, b) in short.bytes().enumerate() {
                heap.set_item(&chars, i as i64, 0, LlValue::Char(b))
                    .map_err(|e| RTypeError::new(e.to_string()))?;
            }
            heap.set_slot(&vt, 2, LlValue::Ptr(Some(chars)));
            classes.vtables.insert(*c, vt);
        }
        Ok(())
    }

    /// The low-level description of a built-in exception class.
    pub fn exception_class(&self, c: ClassDefId) -> LlExceptionClass {
        LlExceptionClass {
            vtable: self.vtables[&c],
            instance: self.structs[&c],
        }
    }

    /// The class (at or above `c`) whose struct holds attribute `name`.
    pub fn owner_of(
        &self,
        c: ClassDefId,
        name: &str,
        base_of: &dyn Fn(ClassDefId) -> Option<ClassDefId>,
    ) -> Option<ClassDefId> {
        let mut x = Some(c);
        while let Some(k) = x {
            if self
                .fields
                .get(&k)
                .map(|f| f.iter().any(|(n, _)| n == name))
                .unwrap_or(false)
            {
                return Some(k);
            }
            x = base_of(k);
        }
        None
    }
}
