//! The database of prebuilt constants (PyPy's `translator/c/database.py`):
//! every object of the prebuilt heap that the program's graphs can reach,
//! each listed once, so a backend lays each out once as static data and
//! every reference shares it.

use std::collections::HashMap;

use pyo3::prelude::*;
use rpy3_model::llconst;
use rpy3_model::lltype::LlValue;
use rpy3_model::program::LlProgram;
use rpy3_model::{Constant, ExitSwitch, Hlvalue};

use crate::PrepError;

/// The prebuilt objects of a program.
#[derive(Clone, Debug, Default)]
pub struct Database {
    /// Heap object numbers, in discovery order (graphs first, then what
    /// those objects point to).
    pub objects: Vec<u32>,
    /// The position of each object in `objects`.
    pub index: HashMap<u32, usize>,
}

impl Database {
    /// Collects the objects reachable from the graphs and the built-in
    /// exception classes of `program`.
    pub fn collect(
        py: Python<'_>,
        program: &LlProgram,
        roots: &[LlValue],
    ) -> Result<Database, PrepError> {
        let mut db = Database::default();
        for v in roots {
            db.add_value(v);
        }
        let add_const = |db: &mut Database, c: &Constant, func: &str| match llconst::ll_value(py, c)
        {
            Ok(v) => {
                db.add_value(&v);
                Ok(())
            }
            Err(e) => Err(PrepError::new(func, format!("a constant: {e}"))),
        };
        for f in &program.functions {
            let g = &f.graph;
            for b in g.iterblocks() {
                let block = &g.blocks[b];
                for op in &block.operations {
                    for a in &op.args {
                        if let Hlvalue::Constant(c) = a {
                            if c.concretetype.is_some_and(|t| t.target().is_some()) {
                                add_const(&mut db, c, &f.name)?;
                            }
                        }
                    }
                }
                if let ExitSwitch::Value(Hlvalue::Constant(c)) = &block.exitswitch {
                    add_const(&mut db, c, &f.name)?;
                }
                for &l in &block.exits {
                    for a in &g.links[l].args {
                        if let Hlvalue::Constant(c) = a {
                            if c.concretetype.is_some_and(|t| t.target().is_some()) {
                                add_const(&mut db, c, &f.name)?;
                            }
                        }
                    }
                }
            }
        }
        let mut names: Vec<&String> = program.exceptions.keys().collect();
        names.sort();
        for n in names {
            db.add(program.exceptions[n].vtable.obj);
        }
        // what the objects point to
        let mut i = 0;
        while i < db.objects.len() {
            let obj = db.objects[i];
            let o = program.heap.object_at(obj).ok_or_else(|| {
                PrepError::new(
                    "<program>",
                    format!("object #{obj} is not in the prebuilt heap"),
                )
            })?;
            let values: Vec<LlValue> = o.slots.iter().chain(&o.items).copied().collect();
            for v in values {
                db.add_value(&v);
            }
            i += 1;
        }
        Ok(db)
    }

    fn add_value(&mut self, v: &LlValue) {
        if let LlValue::Ptr(Some(p)) = v {
            self.add(p.obj);
        }
    }

    fn add(&mut self, obj: u32) {
        if !self.index.contains_key(&obj) {
            self.index.insert(obj, self.objects.len());
            self.objects.push(obj);
        }
    }
}
