//! rpy3 genc stage: empty until its issue lands (see ARCHITECTURE.md).

pub mod runtime;
pub mod unicode;
