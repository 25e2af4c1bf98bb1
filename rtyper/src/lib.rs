//! rpy3 rtyper stage: empty until its issue lands (see ARCHITECTURE.md).
