//! Executing one graph: frames, operations, exits and exception links.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use pyo3::exceptions::{PyRecursionError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySet, PyString, PyTuple};
use rpy3_model::{
    BlockId, ExitSwitch, FunctionGraph, Hlvalue, Link, OpName, SpaceOperation, VarId,
};

use super::call::Kwargs;
use super::fastops;
use super::{is_internal_error, InterpError, Shared};

/// A graph being executed: where it stands and the value of every
/// variable defined so far.  A generator owns its suspended frame.
pub(crate) struct Frame {
    pub(crate) graph: Arc<FunctionGraph>,
    block: BlockId,
    /// Index of the next operation to run in `block`.
    op: usize,
    env: Vec<Option<Py<PyAny>>>,
    /// Reused buffer for the values carried by a link.
    scratch: Vec<Py<PyAny>>,
}

/// How a frame stopped running.
pub(crate) enum Outcome {
    /// The return block was reached with this value.
    Return(Py<PyAny>),
    /// A `yield_` suspended the frame with this value.
    Yield(Py<PyAny>),
}

fn slot(v: VarId) -> usize {
    v.as_u32() as usize
}

impl Frame {
    /// A frame at the start of `graph`, its input arguments set to `inputs`.
    pub(crate) fn new(
        graph: Arc<FunctionGraph>,
        inputs: impl IntoIterator<Item = Py<PyAny>, IntoIter: ExactSizeIterator>,
    ) -> PyResult<Frame> {
        let inputs = inputs.into_iter();
        let start = &graph.blocks[graph.startblock];
        if start.inputargs.len() != inputs.len() {
            return Err(InterpError::new_err(format!(
                "graph {}: start block takes {} arguments, got {}",
                graph.name,
                start.inputargs.len(),
                inputs.len()
            )));
        }
        let mut env: Vec<Option<Py<PyAny>>> = std::iter::repeat_with(|| None)
            .take(graph.vars.len())
            .collect();
        for (&v, value) in start.inputargs.iter().zip(inputs) {
            env[slot(v)] = Some(value);
        }
        let block = graph.startblock;
        Ok(Frame {
            graph,
            block,
            op: 0,
            env,
            scratch: Vec::new(),
        })
    }

    /// Marks a suspended `yield_` as answered by `value`.
    pub(crate) fn resume_with(&mut self, value: Py<PyAny>) {
        if self.op > 0 {
            let op = &self.graph.blocks[self.block].operations[self.op - 1];
            if op.opname == OpName::Yield {
                self.env[slot(op.result)] = Some(value);
            }
        }
    }
}

/// The value of an operand.
#[inline]
fn read<'a, 'py>(
    py: Python<'py>,
    graph: &FunctionGraph,
    env: &'a [Option<Py<PyAny>>],
    h: &'a Hlvalue,
) -> PyResult<&'a Bound<'py, PyAny>> {
    match h {
        Hlvalue::Constant(c) => Ok(c.value.bind(py)),
        Hlvalue::Variable(v) => match env.get(slot(*v)) {
            Some(Some(obj)) => Ok(obj.bind(py)),
            _ => Err(InterpError::new_err(format!(
                "graph {}: variable {v} read before it is defined",
                graph.name
            ))),
        },
    }
}

/// Decrements the call depth when a graph call ends.
pub(crate) struct DepthGuard<'a>(&'a Shared);

impl Drop for DepthGuard<'_> {
    fn drop(&mut self) {
        self.0.depth.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Shared {
    /// Enters one more level of graph calls, or raises `RecursionError`.
    pub(crate) fn enter(&self, py: Python<'_>) -> PyResult<DepthGuard<'_>> {
        let depth = self.depth.fetch_add(1, Ordering::Relaxed);
        let guard = DepthGuard(self);
        if depth >= self.max_depth.load(Ordering::Relaxed) {
            // the program may have raised the limit since it was read
            let limit = super::recursion_limit(py)?;
            self.max_depth.store(limit, Ordering::Relaxed);
            if depth < limit {
                return Ok(guard);
            }
            return Err(PyRecursionError::new_err(
                "maximum recursion depth exceeded",
            ));
        }
        Ok(guard)
    }

    /// Runs `frame` until it returns, yields or raises.
    pub(crate) fn run_frame(
        self: &Arc<Self>,
        py: Python<'_>,
        frame: &mut Frame,
    ) -> PyResult<Outcome> {
        let graph = frame.graph.clone();
        'blocks: loop {
            let bid = frame.block;
            if bid == graph.returnblock {
                let h = Hlvalue::Variable(graph.blocks[bid].inputargs[0]);
                let v = read(py, &graph, &frame.env, &h)?;
                return Ok(Outcome::Return(v.clone().unbind()));
            }
            if bid == graph.exceptblock {
                let h = Hlvalue::Variable(graph.blocks[bid].inputargs[1]);
                let ev = read(py, &graph, &frame.env, &h)?;
                return Err(PyErr::from_value(ev.clone()));
            }
            let block = &graph.blocks[bid];
            let nops = block.operations.len();
            if let (Some(obs), 0) = (self.observer.get(), frame.op) {
                for &v in &block.inputargs {
                    if let Some(Some(value)) = frame.env.get(slot(v)) {
                        obs(py, &graph, v, value.bind(py));
                    }
                }
            }
            while frame.op < nops {
                let op = &block.operations[frame.op];
                if op.opname == OpName::Yield {
                    let v = read(py, &graph, &frame.env, &op.args[0])?.clone().unbind();
                    frame.env[slot(op.result)] = Some(py.None());
                    frame.op += 1;
                    return Ok(Outcome::Yield(v));
                }
                match self.eval_op(py, &graph, &frame.env, op) {
                    Ok(v) => {
                        if let Some(obs) = self.observer.get() {
                            obs(py, &graph, op.result, &v);
                        }
                        frame.env[slot(op.result)] = Some(v.unbind());
                        frame.op += 1;
                    }
                    Err(e) => {
                        if frame.op + 1 == nops && block.exitswitch == ExitSwitch::LastException {
                            if let Some(link) =
                                self.matching_exception_link(py, &graph, block.exits.get(1..), &e)?
                            {
                                let exc = e.into_value(py).into_any();
                                if let Some(v) = link.last_exception {
                                    frame.env[slot(v)] =
                                        Some(exc.bind(py).get_type().into_any().unbind());
                                }
                                if let Some(v) = link.last_exc_value {
                                    frame.env[slot(v)] = Some(exc);
                                }
                                follow(py, &graph, frame, link)?;
                                continue 'blocks;
                            }
                        }
                        return Err(e);
                    }
                }
            }
            let link = self.choose_exit(py, &graph, frame, bid)?;
            follow(py, &graph, frame, link)?;
        }
    }

    /// The first exception link (among `links`) whose exitcase class
    /// matches `err`; internal errors never match.
    fn matching_exception_link<'g>(
        &self,
        py: Python<'_>,
        graph: &'g FunctionGraph,
        links: Option<&[rpy3_model::LinkId]>,
        err: &PyErr,
    ) -> PyResult<Option<&'g Link>> {
        if is_internal_error(py, err) {
            return Ok(None);
        }
        for &l in links.unwrap_or(&[]) {
            let link = &graph.links[l];
            let Some(case) = &link.exitcase else { continue };
            let cls = case.value.bind(py);
            if err.value(py).is_instance(cls)? {
                return Ok(Some(link));
            }
        }
        Ok(None)
    }

    /// The link leaving `bid` once its operations have all run.
    fn choose_exit<'g>(
        &self,
        py: Python<'_>,
        graph: &'g FunctionGraph,
        frame: &Frame,
        bid: BlockId,
    ) -> PyResult<&'g Link> {
        let block = &graph.blocks[bid];
        let no_exit =
            || InterpError::new_err(format!("graph {}: {bid} has no exit to take", graph.name));
        match &block.exitswitch {
            ExitSwitch::None | ExitSwitch::LastException => block
                .exits
                .first()
                .map(|&l| &graph.links[l])
                .ok_or_else(no_exit),
            ExitSwitch::Value(h) => {
                let value = read(py, graph, &frame.env, h)?;
                let links = block.exits.iter().map(|&l| &graph.links[l]);
                // Identity first (bools, None, small ints), then equality
                // of values of the same type.
                for link in links.clone() {
                    if let Some(case) = &link.exitcase {
                        if case.value.bind(py).is(value) {
                            return Ok(link);
                        }
                    }
                }
                for link in links.clone() {
                    if let Some(case) = &link.exitcase {
                        let case = case.value.bind(py);
                        if case.get_type().is(value.get_type()) && case.eq(value)? {
                            return Ok(link);
                        }
                    }
                }
                // A truth-test switch on a value that is not a bool.
                let is_bool_switch = links.clone().all(|l| {
                    l.exitcase
                        .as_ref()
                        .is_some_and(|c| c.value.bind(py).is_instance_of::<pyo3::types::PyBool>())
                });
                if is_bool_switch {
                    let truth = value.is_truthy()?;
                    for link in links.clone() {
                        if let Some(case) = &link.exitcase {
                            if case.value.bind(py).is_truthy()? == truth {
                                return Ok(link);
                            }
                        }
                    }
                }
                links.clone().find(|l| l.exitcase.is_none()).ok_or_else(|| {
                    InterpError::new_err(format!(
                        "graph {}: {bid}: no exit for switch value {value}",
                        graph.name
                    ))
                })
            }
        }
    }

    /// Executes one operation other than `yield_`.
    fn eval_op<'py>(
        self: &Arc<Self>,
        py: Python<'py>,
        graph: &FunctionGraph,
        env: &[Option<Py<PyAny>>],
        op: &SpaceOperation,
    ) -> PyResult<Bound<'py, PyAny>> {
        let arg = |i: usize| -> PyResult<&Bound<'py, PyAny>> {
            let h = op.args.get(i).ok_or_else(|| {
                InterpError::new_err(format!(
                    "graph {}: {} lacks argument {i}",
                    graph.name, op.opname
                ))
            })?;
            read(py, graph, env, h)
        };
        if let Some(Some(f)) = op.opname.hl_index().and_then(|i| self.pyfuncs.get(i)) {
            let f = f.bind(py);
            return match op.args.len() {
                1 => {
                    let a = arg(0)?;
                    fastops::try_fast(py, op.opname, &[a]).unwrap_or_else(|| f.call1((a,)))
                }
                2 => {
                    let (a, b) = (arg(0)?, arg(1)?);
                    fastops::try_fast(py, op.opname, &[a, b]).unwrap_or_else(|| f.call1((a, b)))
                }
                3 => {
                    let (a, b, c) = (arg(0)?, arg(1)?, arg(2)?);
                    fastops::try_fast(py, op.opname, &[a, b, c])
                        .unwrap_or_else(|| f.call1((a, b, c)))
                }
                n => {
                    let args = (0..n).map(&arg).collect::<PyResult<Vec<_>>>()?;
                    f.call1(PyTuple::new(py, args)?)
                }
            };
        }
        let all_args = || {
            op.args
                .iter()
                .map(|h| read(py, graph, env, h))
                .collect::<PyResult<Vec<_>>>()
        };
        if let Some(path) = op.opname.desc().pyfunc {
            let f = super::resolve(py, path)?;
            return f.bind(py).call1(PyTuple::new(py, all_args()?)?);
        }
        match op.opname {
            OpName::Newtuple => Ok(PyTuple::new(py, all_args()?)?.into_any()),
            OpName::Newlist => Ok(PyList::new(py, all_args()?)?.into_any()),
            OpName::Newset => Ok(PySet::new(py, all_args()?)?.into_any()),
            OpName::Newdict => {
                if !op.args.len().is_multiple_of(2) {
                    return Err(InterpError::new_err(format!(
                        "graph {}: newdict with an odd number of arguments",
                        graph.name
                    )));
                }
                let d = PyDict::new(py);
                for pair in all_args()?.chunks(2) {
                    d.set_item(pair[0], pair[1])?;
                }
                Ok(d.into_any())
            }
            OpName::Getslice => {
                let s = self.slice_type.bind(py).call1((arg(1)?, arg(2)?))?;
                arg(0)?.get_item(s)
            }
            OpName::Setslice => {
                let s = self.slice_type.bind(py).call1((arg(1)?, arg(2)?))?;
                arg(0)?.set_item(s, arg(3)?)?;
                Ok(py.None().into_bound(py))
            }
            OpName::Delslice => {
                let s = self.slice_type.bind(py).call1((arg(1)?, arg(2)?))?;
                arg(0)?.del_item(s)?;
                Ok(py.None().into_bound(py))
            }
            OpName::SimpleCall => {
                let f = arg(0)?;
                // One spare slot: a bound method's `self` is prepended in place.
                let mut args = Vec::with_capacity(op.args.len());
                for h in &op.args[1..] {
                    args.push(read(py, graph, env, h)?.clone());
                }
                self.call_object(py, f, args, Vec::new())
            }
            OpName::CallArgs => {
                let f = arg(0)?;
                let shape = self.call_shape(arg(1)?)?;
                if op.args.len() != 2 + shape.num_args() {
                    return Err(InterpError::new_err(format!(
                        "graph {}: call_args shape needs {} arguments, got {}",
                        graph.name,
                        shape.num_args(),
                        op.args.len() - 2
                    )));
                }
                let mut k = 2;
                let mut args = Vec::with_capacity(shape.num_positional);
                for _ in 0..shape.num_positional {
                    args.push(arg(k)?.clone());
                    k += 1;
                }
                let mut kwargs: Kwargs<'py> = Vec::with_capacity(shape.keywords.len());
                for name in &shape.keywords {
                    kwargs.push((PyString::new(py, name), arg(k)?.clone()));
                    k += 1;
                }
                if shape.has_star {
                    for item in arg(k)?.try_iter()? {
                        args.push(item?);
                    }
                    k += 1;
                }
                if shape.has_starstar {
                    let mapping = arg(k)?;
                    let owned;
                    let d = match mapping.cast::<PyDict>() {
                        Ok(d) => d,
                        Err(_) => {
                            owned = PyDict::new(py);
                            owned.update(mapping.cast().map_err(|_| {
                                PyTypeError::new_err("argument after ** must be a mapping")
                            })?)?;
                            &owned
                        }
                    };
                    for (key, value) in d.iter() {
                        let key = key
                            .cast_into::<PyString>()
                            .map_err(|_| PyTypeError::new_err("keywords must be strings"))?;
                        if kwargs
                            .iter()
                            .any(|(k, _)| k.as_any().eq(&key).unwrap_or(false))
                        {
                            return Err(PyTypeError::new_err(format!(
                                "got multiple values for keyword argument '{key}'"
                            )));
                        }
                        kwargs.push((key, value));
                    }
                }
                self.call_object(py, f, args, kwargs)
            }
            other => Err(InterpError::new_err(format!(
                "graph {}: operation {other} has no implementation in the graph interpreter",
                graph.name
            ))),
        }
    }
}

/// Moves `frame` along `link`: the link's values become the target's
/// input arguments.
fn follow(py: Python<'_>, graph: &FunctionGraph, frame: &mut Frame, link: &Link) -> PyResult<()> {
    let target = &graph.blocks[link.target];
    if target.inputargs.len() != link.args.len() {
        return Err(InterpError::new_err(format!(
            "graph {}: link to {} carries {} values for {} input arguments",
            graph.name,
            link.target,
            link.args.len(),
            target.inputargs.len()
        )));
    }
    // Read every value before writing any: on a link back to the same
    // block the input arguments being written may also be read.
    let mut scratch = std::mem::take(&mut frame.scratch);
    scratch.clear();
    for h in &link.args {
        match read(py, graph, &frame.env, h) {
            Ok(b) => scratch.push(b.clone().unbind()),
            Err(e) => {
                frame.scratch = scratch;
                return Err(e);
            }
        }
    }
    for (&v, value) in target.inputargs.iter().zip(scratch.drain(..)) {
        frame.env[slot(v)] = Some(value);
    }
    frame.scratch = scratch;
    frame.block = link.target;
    frame.op = 0;
    Ok(())
}
