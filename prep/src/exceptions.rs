//! The exception transform (PyPy's `exceptiontransform.py`): exceptions
//! become explicit state that compiled code tests.
//!
//! - An operation that can raise is followed by `exc_occurred`; when an
//!   exception is pending, the function returns at once (the zero of its
//!   result type), leaving the exception pending for its caller.  The block
//!   is split there: the rest goes to a new block.
//! - The raising operation that ends a block with `except` exits is
//!   followed by the same test, then the pending exception is fetched and
//!   cleared and matched against each `except` class in order by the
//!   subclass range of its vtable (two comparisons as one unsigned
//!   comparison); no match re-raises it.
//! - A `raise` (a link to the except block) becomes `exc_raise(class,
//!   instance)` and a return.
//!
//! After the pass no block switches on `last_exception` and no link enters
//! the except block.

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::prelude::*;
use rpy3_model::graph::map_hl;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{Heap, LlType, LlValue, BOOL, SIGNED, UNSIGNED};
use rpy3_model::program::{LlProgram, ObjectModel};
use rpy3_model::{llconst, BlockId, ExitSwitch, FunctionGraph, Hlvalue, Link, VarId};

use crate::util::{bool_constant, copy_var, name_constant, new_var, op, type_of, void_var};
use crate::{CallGraph, PrepError};

/// Transforms every function of `program`.
pub fn transform_program(
    py: Python<'_>,
    program: &mut LlProgram,
    calls: &CallGraph,
) -> Result<(), PrepError> {
    let LlProgram {
        functions,
        heap,
        objmodel,
        ..
    } = program;
    for f in functions.iter_mut() {
        let name = f.name.clone();
        let g = Arc::make_mut(&mut f.graph);
        Transformer {
            py,
            g,
            heap,
            objmodel: *objmodel,
            calls,
            name: &name,
            propagate: None,
        }
        .run()?;
    }
    Ok(())
}

struct Transformer<'a, 'py> {
    py: Python<'py>,
    g: &'a mut FunctionGraph,
    heap: &'a Heap,
    objmodel: ObjectModel,
    calls: &'a CallGraph,
    name: &'a str,
    /// The block returning the zero result with the exception pending.
    propagate: Option<BlockId>,
}

impl Transformer<'_, '_> {
    fn err(&self, msg: impl Into<String>) -> PrepError {
        PrepError::new(self.name, msg)
    }

    fn run(&mut self) -> Result<(), PrepError> {
        let blocks = self.g.iterblocks();
        let (ret, exc) = (self.g.returnblock, self.g.exceptblock);
        // `raise`: links entering the except block go to a block that makes
        // the exception pending and returns
        let entering: Vec<_> = self
            .g
            .iterlinks()
            .into_iter()
            .filter(|&l| self.g.links[l].target == exc)
            .collect();
        if !entering.is_empty() {
            let params = self.g.blocks[exc].inputargs.clone();
            if params.len() != 2 {
                return Err(self.err("the except block must take a class and an instance"));
            }
            let fresh: Vec<VarId> = params.iter().map(|&v| copy_var(self.g, v)).collect();
            let raise = self.g.new_block(fresh.clone());
            let r = void_var(self.g);
            let line = self.g.source.firstlineno;
            self.g.blocks[raise].operations.push(op(
                LlOp::ExcRaise,
                vec![fresh[0].into(), fresh[1].into()],
                r,
                line,
            ));
            let prop = self.propagate_block()?;
            self.g
                .closeblock(raise, ExitSwitch::None, vec![Link::new(vec![], prop)]);
            for l in entering {
                self.g.links[l].target = raise;
            }
        }
        for b in blocks {
            if b != ret && b != exc {
                self.block(b)?;
            }
        }
        Ok(())
    }

    /// The block returning the zero of the result type (made once).
    fn propagate_block(&mut self) -> Result<BlockId, PrepError> {
        if let Some(b) = self.propagate {
            return Ok(b);
        }
        let ret = self.g.returnblock;
        let rv = *self.g.blocks[ret]
            .inputargs
            .first()
            .ok_or_else(|| self.err("the return block takes no argument"))?;
        let rt = self.g.vars[rv]
            .concretetype
            .ok_or_else(|| self.err("the result has no low-level type"))?;
        let zero = crate::util::zero_constant(self.py, rt, self.name)?;
        let b = self.g.new_block(vec![]);
        self.g
            .closeblock(b, ExitSwitch::None, vec![Link::new(vec![zero.into()], ret)]);
        self.propagate = Some(b);
        Ok(b)
    }

    fn can_raise(&self, b: BlockId, i: usize) -> bool {
        let op = &self.g.blocks[b].operations[i];
        self.calls.call_can_raise(self.py, self.g, op)
    }

    fn block(&mut self, mut b: BlockId) -> Result<(), PrepError> {
        loop {
            let n = self.g.blocks[b].operations.len();
            let catching = self.g.blocks[b].canraise();
            let last = if catching { n.saturating_sub(1) } else { n };
            match (0..last).find(|&i| self.can_raise(b, i)) {
                Some(i) => b = self.split_after(b, i)?,
                None => {
                    if catching {
                        self.catch(b)?;
                    }
                    return Ok(());
                }
            }
        }
    }

    /// Appends `flag = exc_occurred()` to `b`.
    fn test_pending(&mut self, b: BlockId) -> VarId {
        let flag = new_var(self.g, "exc", BOOL);
        let line = self.g.blocks[b].operations.last().map_or(0, |o| o.lineno);
        self.g.blocks[b]
            .operations
            .push(op(LlOp::ExcOccurred, vec![], flag, line));
        flag
    }

    /// Splits `b` after its operation `i`, which can raise: the rest moves
    /// to a new block entered when no exception is pending.  Returns the
    /// new block.
    fn split_after(&mut self, b: BlockId, i: usize) -> Result<BlockId, PrepError> {
        let rest = self.g.blocks[b].operations.split_off(i + 1);
        let switch = std::mem::take(&mut self.g.blocks[b].exitswitch);
        let exits = std::mem::take(&mut self.g.blocks[b].exits);
        let defined: Vec<VarId> = self.g.blocks[b].getvariables();
        let mut used = Vec::new();
        for o in &rest {
            o.args.iter().for_each(|h| crate::util::uses(h, &mut used));
        }
        if let ExitSwitch::Value(h) = &switch {
            crate::util::uses(h, &mut used);
        }
        for &l in &exits {
            self.g.links[l]
                .args
                .iter()
                .for_each(|h| crate::util::uses(h, &mut used));
        }
        let mut needed = Vec::new();
        for v in used {
            if defined.contains(&v) && !needed.contains(&v) {
                needed.push(v);
            }
        }
        let fresh: Vec<VarId> = needed.iter().map(|&v| copy_var(self.g, v)).collect();
        let map: HashMap<VarId, VarId> = needed.iter().copied().zip(fresh.clone()).collect();
        let mut rename = |v: VarId| map.get(&v).copied().unwrap_or(v);
        let c = self.g.new_block(fresh);
        let mut rest = rest;
        for o in &mut rest {
            for a in &mut o.args {
                *a = map_hl(a, &mut rename);
            }
        }
        let switch = match switch {
            ExitSwitch::Value(h) => ExitSwitch::Value(map_hl(&h, &mut rename)),
            other => other,
        };
        for &l in &exits {
            let link = &mut self.g.links[l];
            link.args = link.args.iter().map(|h| map_hl(h, &mut rename)).collect();
            link.prevblock = Some(c);
        }
        let block = &mut self.g.blocks[c];
        block.operations = rest;
        block.exitswitch = switch;
        block.exits = exits;
        let flag = self.test_pending(b);
        let prop = self.propagate_block()?;
        let args = needed.into_iter().map(Hlvalue::Variable).collect();
        let ok = Link::new(args, c).with_exitcase(bool_constant(self.py, false));
        let raised = Link::new(vec![], prop).with_exitcase(bool_constant(self.py, true));
        self.g
            .closeblock(b, ExitSwitch::Value(flag.into()), vec![ok, raised]);
        Ok(c)
    }

    /// The subclass range of the vtable an `except` exit names.
    fn range_of(&self, case: &rpy3_model::Constant) -> Result<(i64, i64), PrepError> {
        let p = match llconst::ll_value(self.py, case) {
            Ok(LlValue::Ptr(Some(p))) => p,
            _ => return Err(self.err("an exception exit's case is not a vtable pointer")),
        };
        if self.heap.object_at(p.obj).is_none() {
            return Err(self.err("an exception exit's vtable is not prebuilt"));
        }
        let get = |slot| match self.heap.get_slot(&p, slot) {
            LlValue::Int(i) => Ok(i),
            _ => Err(self.err("an exception exit's vtable has no subclass range")),
        };
        Ok((get(0)?, get(1)?))
    }

    /// Rewrites the `except` exits of `b`, whose last operation can raise.
    fn catch(&mut self, b: BlockId) -> Result<(), PrepError> {
        let exits = self.g.blocks[b].exits.clone();
        let Some((&normal, handlers)) = exits.split_first() else {
            return Err(self.err("a raising block without exits"));
        };
        let n = self.g.blocks[b].operations.len();
        if n == 0 || !self.can_raise(b, n - 1) {
            // nothing raises here: only the normal exit remains
            self.g.links[normal].exitcase = None;
            self.g.blocks[b].exitswitch = ExitSwitch::None;
            self.g.blocks[b].exits = vec![normal];
            return Ok(());
        }
        let flag = self.test_pending(b);
        self.g.links[normal].exitcase = Some(bool_constant(self.py, false));
        // the variables the handlers carry (other than the exception)
        let mut needed = Vec::new();
        for &l in handlers {
            let link = &self.g.links[l];
            for h in &link.args {
                if let Hlvalue::Variable(v) = h {
                    let special =
                        Some(*v) == link.last_exception || Some(*v) == link.last_exc_value;
                    if !special && !needed.contains(v) {
                        needed.push(*v);
                    }
                }
            }
        }
        let line = self.g.blocks[b].operations[n - 1].lineno;
        // the dispatch block: fetch and clear the exception
        let mut cur_vars: Vec<VarId> = needed.iter().map(|&v| copy_var(self.g, v)).collect();
        let mut cur = self.g.new_block(cur_vars.clone());
        let to_dispatch = Link::new(needed.iter().map(|&v| v.into()).collect(), cur)
            .with_exitcase(bool_constant(self.py, true));
        self.g.blocks[b].exitswitch = ExitSwitch::Value(flag.into());
        self.g.blocks[b].exits = vec![normal];
        self.g.add_exit(b, to_dispatch);
        let mut etype = new_var(self.g, "etype", self.objmodel.vtable_ptr);
        let mut evalue = new_var(self.g, "evalue", self.objmodel.object_ptr);
        let clear = void_var(self.g);
        self.g.blocks[cur].operations.extend([
            op(LlOp::ExcFetchType, vec![], etype, line),
            op(LlOp::ExcFetchValue, vec![], evalue, line),
            op(LlOp::ExcClear, vec![], clear, line),
        ]);
        for &l in handlers {
            let case = self.g.links[l]
                .exitcase
                .clone()
                .ok_or_else(|| self.err("an exception exit has no exception class"))?;
            let (lo, hi) = self.range_of(&case)?;
            // id - lo < hi - lo, unsigned
            let min = new_var(self.g, "id", SIGNED);
            let diff = new_var(self.g, "d", SIGNED);
            let udiff = new_var(self.g, "u", UNSIGNED);
            let hit = new_var(self.g, "match", BOOL);
            let lo_c = int_constant(self.py, lo, SIGNED)?;
            let width = uint_constant(self.py, hi.wrapping_sub(lo) as u64)?;
            self.g.blocks[cur].operations.extend([
                op(
                    LlOp::Getfield,
                    vec![etype.into(), name_constant(self.py, "subclassrange_min")],
                    min,
                    line,
                ),
                op(LlOp::IntSub, vec![min.into(), lo_c], diff, line),
                op(LlOp::CastIntToUint, vec![diff.into()], udiff, line),
                op(LlOp::UintLt, vec![udiff.into(), width], hit, line),
            ]);
            // the handler's arguments, from this block's variables
            let link = self.g.links[l].clone();
            let mut args = Vec::new();
            for h in &link.args {
                let a = match h {
                    Hlvalue::Variable(v) if Some(*v) == link.last_exception => {
                        self.coerce(cur, etype.into(), *v, line)?
                    }
                    Hlvalue::Variable(v) if Some(*v) == link.last_exc_value => {
                        self.coerce(cur, evalue.into(), *v, line)?
                    }
                    Hlvalue::Variable(v) => {
                        let k = needed
                            .iter()
                            .position(|x| x == v)
                            .ok_or_else(|| self.err("a handler reads an undefined variable"))?;
                        cur_vars[k].into()
                    }
                    c => c.clone(),
                };
                args.push(a);
            }
            let taken = Link::new(args, link.target)
                .at_line(link.lineno)
                .with_exitcase(bool_constant(self.py, true));
            // the next test receives the carried variables and the exception
            let next_vars: Vec<VarId> = cur_vars.iter().map(|&v| copy_var(self.g, v)).collect();
            let next_etype = copy_var(self.g, etype);
            let next_evalue = copy_var(self.g, evalue);
            let mut inputs = next_vars.clone();
            inputs.extend([next_etype, next_evalue]);
            let next = self.g.new_block(inputs);
            let mut pass: Vec<Hlvalue> = cur_vars.iter().map(|&v| v.into()).collect();
            pass.extend([etype.into(), evalue.into()]);
            let missed = Link::new(pass, next).with_exitcase(bool_constant(self.py, false));
            self.g
                .closeblock(cur, ExitSwitch::Value(hit.into()), vec![missed, taken]);
            cur = next;
            cur_vars = next_vars;
            etype = next_etype;
            evalue = next_evalue;
        }
        // no handler matched: raise it again
        let r = void_var(self.g);
        self.g.blocks[cur].operations.push(op(
            LlOp::ExcRaise,
            vec![etype.into(), evalue.into()],
            r,
            line,
        ));
        let prop = self.propagate_block()?;
        self.g
            .closeblock(cur, ExitSwitch::None, vec![Link::new(vec![], prop)]);
        Ok(())
    }

    /// `value` as the type of `like` (a pointer cast in `b` if needed).
    fn coerce(
        &mut self,
        b: BlockId,
        value: Hlvalue,
        like: VarId,
        line: u32,
    ) -> Result<Hlvalue, PrepError> {
        let want = self.g.vars[like]
            .concretetype
            .ok_or_else(|| self.err("an exception variable has no low-level type"))?;
        let have = type_of(self.g, &value).unwrap_or(want);
        if want == have {
            return Ok(value);
        }
        let Some(target) = want.target() else {
            // an exception variable the handler does not use (`Void`)
            return Ok(crate::util::zero_constant(self.py, want, self.name)?.into());
        };
        let r = new_var(self.g, "e", want);
        let tc = llconst::type_constant(self.py, target)
            .map_err(|e| self.err(format!("cannot name {target}: {e}")))?;
        self.g.blocks[b]
            .operations
            .push(op(LlOp::CastPointer, vec![tc.into(), value], r, line));
        Ok(r.into())
    }
}

fn int_constant(py: Python<'_>, v: i64, ty: LlType) -> Result<Hlvalue, PrepError> {
    llconst::primitive_constant(py, LlValue::Int(v), ty)
        .map(Hlvalue::Constant)
        .map_err(|e| PrepError::new("<program>", e.to_string()))
}

fn uint_constant(py: Python<'_>, v: u64) -> Result<Hlvalue, PrepError> {
    llconst::primitive_constant(py, LlValue::UInt(v), UNSIGNED)
        .map(Hlvalue::Constant)
        .map_err(|e| PrepError::new("<program>", e.to_string()))
}
