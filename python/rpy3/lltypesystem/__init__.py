"""Low-level helpers written in the ll dialect (`rpy3.lltype`), used by the
rtyper to implement strings and other high-level types, as PyPy's
`rpython/rtyper/lltypesystem/` does."""
