"""sudoku4: Peter Norvig's "Solve Every Sudoku Puzzle": constraint
propagation over dicts of candidate strings plus depth-first search.

Source: shedskin/shedskin, examples/sudoku4/sudoku4.py (puzzles from
examples/sudoku4/testdata/top95.txt); http://norvig.com/sudoku.html.
Licence: MIT (Norvig's sudoku code; not stated in the file).

Changes made for rpy3:
- no file I/O: the first 8 puzzles of testdata/top95.txt are embedded
  as the string `TOP95`; `solve_file()` reads the text from the dict
  `FILES` (`FILES[filename]`, was `open(filename).read()`), and
  entry_point stores there the first N lines of `TOP95`, N from argv;
- the `__main__` loop (10 runs over all 95 puzzles, the second half
  timed, and the TIME line) became `entry_point(argv)`, which runs
  `solve_file(..., '\\n', printboard)` once; `import time` dropped.
"""

# rpy3-args: 1
# rpy3-args: 3
## Solve Every Sudoku Puzzle

## See http://norvig.com/sudoku.html

## Throughout this program we have:
##   r is a row,    e.g. 'A'
##   c is a column, e.g. '3'
##   s is a square, e.g. 'A3'
##   d is a digit,  e.g. '9'
##   u is a unit,   e.g. ['A1','B1','C1','D1','E1','F1','G1','H1','I1']
##   g is a grid,   e.g. 81 non-blank chars, e.g. starting with '.18...7...
##   values is a dict of possible values, e.g. {'A1':'123489', 'A2':'8', ...}


def cross(A, B):
    return [a+b for a in A for b in B]

rows = 'ABCDEFGHI'
cols = '123456789'
digits   = '123456789'
squares  = cross(rows, cols)
unitlist = ([cross(rows, c) for c in cols] +
            [cross(r, cols) for r in rows] +
            [cross(rs, cs) for rs in ('ABC','DEF','GHI') for cs in ('123','456','789')])
units = dict([(s, [u for u in unitlist if s in u]) 
             for s in squares])
peers = dict([(s, set([s2 for u in units[s] for s2 in u if s2 != s]))
             for s in squares])

def search(values):
    "Using depth-first search and propagation, try all possible values."
    if values is None:
        return None ## Failed earlier
    if all([len(values[s]) == 1 for s in squares]): 
        return values ## Solved!
    ## Chose the unfilled square s with the fewest possibilities
    _,s = min([(len(values[s]), s) for s in squares if len(values[s]) > 1])
    for d in values[s]:
        r = search(assign(values.copy(), s, d)) 
        if r: return r

def assign(values, s, d):
    "Eliminate all the other values (except d) from values[s] and propagate."
    if all([eliminate(values, s, d2) for d2 in values[s] if d2 != d]):
        return values
    else:
        return None

def eliminate(values, s, d):
    "Eliminate d from values[s]; propagate when values or places <= 2."
    if d not in values[s]:
        return values ## Already eliminated
    values[s] = values[s].replace(d,'')
    if len(values[s]) == 0:
        return None ## Contradiction: removed last value
    elif len(values[s]) == 1:
        ## If there is only one value (d2) left in square, remove it from peers
        d2, = values[s]
        if not all([eliminate(values, s2, d2) for s2 in peers[s]]):
            return None
    ## Now check the places where d appears in the units of s
    for u in units[s]:
        dplaces = [s for s in u if d in values[s]]
        if len(dplaces) == 0:
            return None
        elif len(dplaces) == 1:
            # d can only be in one place in unit; assign it there
            if not assign(values, dplaces[0], d):
                return None
    return values
                    
def parse_grid(grid):
    "Given a string of 81 digits (or .0-), return a dict of {cell:values}"
    grid = [c for c in grid if c in '0.-123456789']
    values = dict([(s, digits) for s in squares]) ## Each square can be any digit
    for s,d in zip(squares, grid):
        if d in digits and not assign(values, s, d):
            return None
    return values

def solve_file(filename, sep, action): #=lambda x: x):
    "Parse a file into a sequence of 81-char descriptions and solve them."
    results = [action(search(parse_grid(grid)))
               for grid in FILES[filename].strip().split(sep)]
    print("## Got %d out of %d" % (
          sum([(r is not None) for r in results]), len(results)))
    return results

def printboard(values):
    "Used for debugging."
    width = 1+max([len(values[s]) for s in squares])
    line = '\n' + '+'.join(['-'*(width*3)]*3)
    for r in rows:
        print(''.join([values[r+c].center(width) + ('|' if c in '36' else '')
                      for c in cols]) + (line if r in 'CF' else ''))
    print()
    return values

TOP95 = """\
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
52...6.........7.13...........4..8..6......5...........418.........3..2...87.....
6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....
48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....
....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...
......52..8.4......3...9...5.1...6..2..7........3.....6...1..........7.4.......3.
6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....
.524.........7.1..............8.2...3.....6...9.5.....1.6.3...........897........
"""

FILES = {}


def entry_point(argv):
    n = int(argv[1])
    FILES["testdata/top95.txt"] = "\n".join(TOP95.split("\n")[:n])
    solve_file("testdata/top95.txt", '\n', printboard)
    return 0


def target(*args):
    return entry_point, None


## References used:
## http://www.scanraid.com/BasicStrategies.htm
## http://www.krazydad.com/blog/2005/09/29/an-index-of-sudoku-strategies/
## http://www2.warwick.ac.uk/fac/sci/moac/currentstudents/peter_cock/python/sudoku/


if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
