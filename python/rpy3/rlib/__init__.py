"""rpy3.rlib: helpers for RPython programs, modelled on ``rpython.rlib``.

Every name here runs under plain CPython with the semantics that the
translated program will have, so a program can be tested directly before it
is translated:

- ``rpy3.rlib.rarithmetic``: machine-word integers (``r_uint``, ``r_int``,
  ``r_longlong``, ``r_ulonglong``), ``intmask``, ``ovfcheck``, ``widen``,
  ``LONG_BIT``, ``maxint``;
- ``rpy3.rlib.objectmodel``: ``specialize`` hints, ``we_are_translated``,
  ``compute_hash``, ``instantiate``, ``r_dict``, ``always_inline``,
  ``dont_inline``, ``not_rpython``;
- ``rpy3.rlib.rstring``: ``StringBuilder`` and ``BytesBuilder``.

Submodules are not imported eagerly; import the one you need.
"""
