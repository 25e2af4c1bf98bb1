//! The graph interpreter on real Python objects (the `flow` backend).
