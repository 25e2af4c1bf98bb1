//! rpy3 annotator stage: empty until its issue lands (see ARCHITECTURE.md).
