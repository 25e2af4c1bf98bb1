"""testdicts: PyPy's "targettestdicts" stand-alone target: two prebuilt
dicts, int -> hex string and back, looked up from the command line.

Source: pypy/pypy, rpython/translator/goal/targettestdicts.py.
Licence: MIT (PyPy's LICENSE).

Changes made for rpy3:
- Python 3 spelling: print statements became print() calls; the Python 2
  lambda with a tuple parameter, `lambda (x,y): (y,x)`, became
  `lambda xy: (xy[1], xy[0])`; `debug()` encodes its message to bytes for
  os.write (it is not called);
- the `__main__` block added.

Original docstring:

A simple standalone target.

The target below specifies None as the argument types list.
This is a case treated specially in driver.py . If the list
of input types is empty, it is meant to be a list of strings,
actually implementing argv of the executable.
"""

# rpy3-args: d 3000
# rpy3-args: r 0x1ff

import os, sys

def debug(msg): 
    os.write(2, ("debug: " + msg + '\n').encode())

# __________  Entry point  __________

test_dict = dict(map(lambda x: (x, hex(x)), range(256, 4096)))
reverse_dict = dict(map(lambda xy: (xy[1], xy[0]), test_dict.items()))

def entry_point(argv):
    if argv[1] == 'd':
        print(test_dict[int(argv[2])])
    else:
        print(reverse_dict[argv[2]])
    return 0

# _____ Define and setup target ___

def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
