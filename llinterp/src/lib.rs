//! rpy3 llinterp stage: empty until its issue lands (see ARCHITECTURE.md).
