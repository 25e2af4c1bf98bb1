//! rpy3 native stage: empty until its issue lands (see ARCHITECTURE.md).
