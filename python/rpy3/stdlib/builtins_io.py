"""Built-in functions that read the program's input, written in RPython."""

import os


def input(prompt=""):
    """input(): writes the prompt to stdout (flushed), then reads a line of
    stdin and returns it without its newline; EOFError at the end of the
    input.  The line is read a byte at a time, so no input past it is
    consumed (the program may go on reading fd 0 itself)."""
    if prompt:
        print(prompt, end="", flush=True)
    line = []
    got = False
    while True:
        b = os.read(0, 1)
        if len(b) == 0:
            break
        got = True
        if b == b"\n":
            break
        line.append(b)
    if not got:
        raise EOFError("EOF when reading a line")
    return b"".join(line).decode("utf-8")
