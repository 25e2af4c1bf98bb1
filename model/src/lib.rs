//! The shared vocabulary of rpy3: flow graphs in SSI form (after PyPy's
//! `rpython/flowspace/model.py`), the table of high-level operations, the
//! graph verifier and the stable text and DOT printers; and the low-level
//! vocabulary: types, the table of low-level operations, programs, and
//! the verifier of low-level graphs (`llverify`).
//!
//! Every stage reads and writes these types only; side tables (annotations,
//! representations) are maps keyed by the ids defined here.

pub mod extfunc;
pub mod graph;
pub mod llconst;
pub mod lloperation;
pub mod lltype;
pub mod llverify;
pub mod operation;
pub mod print;
pub mod program;
pub mod pyobj;
pub mod unicodedb;
pub mod verify;

pub use graph::{
    Block, BlockId, Constant, ExitSwitch, FunctionGraph, Hlvalue, Link, LinkId, Signature,
    SourceInfo, SourceLocation, SpaceOperation, VarId, VariableData,
};
pub use operation::OpName;
pub use pyobj::PyObj;
pub use verify::{checkgraph, VerifyError};
