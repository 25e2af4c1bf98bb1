# rpy3-args: 25
"""A tiny two-pass assembler and a register CPU emulator.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys

REGS = ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "sp"]
OPCODES = {
    "halt": 0, "mov": 1, "movi": 2, "add": 3, "sub": 4, "mul": 5,
    "addi": 6, "jmp": 7, "jz": 8, "jnz": 9, "push": 10, "pop": 11,
    "call": 12, "ret": 13, "out": 14, "cmp": 15, "jlt": 16, "load": 17,
    "store": 18, "mod": 19, "div": 20,
}
MNEMONIC = {v: k for k, v in OPCODES.items()}


class AsmError(Exception):
    pass


class CpuFault(Exception):
    def __init__(self, msg, pc):
        Exception.__init__(self, msg)
        self.msg = msg
        self.pc = pc


def parse_operand(text, labels, lineno):
    text = text.strip()
    if text in REGS:
        return REGS.index(text)
    if text.startswith("#"):
        return int(text[1:])
    if text.startswith("0x"):
        return int(text[2:], 16)
    if text in labels:
        return labels[text]
    try:
        return int(text)
    except ValueError:
        raise AsmError("line %d: bad operand '%s'" % (lineno, text))


def assemble(source):
    lines = source.split("\n")
    labels = {}
    cleaned = []
    addr = 0
    # pass 1: labels
    for lineno, raw in enumerate(lines, 1):
        line = raw.split(";")[0].strip()
        if not line:
            continue
        while ":" in line:
            label, _, rest = line.partition(":")
            labels[label.strip()] = addr
            line = rest.strip()
        if line:
            cleaned.append((lineno, line))
            addr += 1
    # pass 2: encode
    code = []
    for lineno, line in cleaned:
        parts = line.split(None, 1)
        mnem = parts[0].lower()
        if mnem not in OPCODES:
            raise AsmError("line %d: unknown mnemonic '%s'" % (lineno, mnem))
        ops = []
        if len(parts) > 1:
            ops = [parse_operand(p, labels, lineno) for p in parts[1].split(",")]
        while len(ops) < 3:
            ops.append(0)
        code.append((OPCODES[mnem], ops[0], ops[1], ops[2]))
    return code, labels


def disassemble(code):
    out = []
    for i, (op, a, b, c) in enumerate(code):
        out.append("%04x: %-5s %d,%d,%d" % (i, MNEMONIC[op], a, b, c))
    return out


class CPU:
    MEMSIZE = 256

    def __init__(self, code):
        self.code = code
        self.regs = [0] * 8
        self.mem = [0] * CPU.MEMSIZE
        self.pc = 0
        self.flag = 0
        self.output = []
        self.steps = 0
        self.regs[7] = CPU.MEMSIZE

    def push(self, v):
        self.regs[7] -= 1
        if self.regs[7] < 128:
            raise CpuFault("stack overflow", self.pc)
        self.mem[self.regs[7]] = v

    def pop(self):
        if self.regs[7] >= CPU.MEMSIZE:
            raise CpuFault("stack underflow", self.pc)
        v = self.mem[self.regs[7]]
        self.regs[7] += 1
        return v

    def step(self):
        if self.pc < 0 or self.pc >= len(self.code):
            raise CpuFault("pc out of range", self.pc)
        op, a, b, c = self.code[self.pc]
        self.pc += 1
        self.steps += 1
        r = self.regs
        match op:
            case 0:
                return False
            case 1:
                r[a] = r[b]
            case 2:
                r[a] = b
            case 3:
                r[a] = r[b] + r[c]
            case 4:
                r[a] = r[b] - r[c]
            case 5:
                r[a] = (r[b] * r[c]) & 0xFFFFFFFF
            case 6:
                r[a] = r[b] + c
            case 7:
                self.pc = a
            case 8:
                if r[a] == 0:
                    self.pc = b
            case 9:
                if r[a] != 0:
                    self.pc = b
            case 10:
                self.push(r[a])
            case 11:
                r[a] = self.pop()
            case 12:
                self.push(self.pc)
                self.pc = a
            case 13:
                self.pc = self.pop()
            case 14:
                self.output.append(r[a])
            case 15:
                self.flag = (r[a] > r[b]) - (r[a] < r[b])
            case 16:
                if self.flag < 0:
                    self.pc = a
            case 17:
                addr = r[b] + c
                if not 0 <= addr < CPU.MEMSIZE:
                    raise CpuFault("bad load address %d" % addr, self.pc - 1)
                r[a] = self.mem[addr]
            case 18:
                addr = r[b] + c
                if not 0 <= addr < CPU.MEMSIZE:
                    raise CpuFault("bad store address %d" % addr, self.pc - 1)
                self.mem[addr] = r[a]
            case 19 | 20:
                if r[c] == 0:
                    raise CpuFault("divide by zero", self.pc - 1)
                r[a] = r[b] % r[c] if op == 19 else r[b] // r[c]
            case _:
                raise CpuFault("illegal opcode %d" % op, self.pc - 1)
        return True

    def run(self, limit=1000000):
        while self.step():
            if self.steps >= limit:
                raise CpuFault("step limit", self.pc)
        return self.output


FIB_PROG = """
; compute fib numbers iteratively and output them
        movi r0, 0
        movi r1, 1
        movi r2, {n}
loop:   out r0
        add r3, r0, r1
        mov r0, r1
        mov r1, r3
        addi r2, r2, -1
        jnz r2, loop
        halt
"""

FACT_PROG = """
        movi r0, {n}
        call fact
        out r1
        halt
fact:   movi r4, 1
        cmp r0, r4
        jlt base
        push r0
        addi r0, r0, -1
        call fact
        pop r0
        mul r1, r1, r0
        ret
base:   movi r1, 1
        ret
"""

SIEVE_PROG = """
        movi r0, 2          ; i
outer:  movi r5, {n}
        cmp r0, r5
        jlt body
        jmp done
body:   load r1, r0, 0
        jnz r1, next
        out r0
        mul r2, r0, r0
inner:  cmp r2, r5
        jlt mark
        jmp next
mark:   movi r3, 1
        store r3, r2, 0
        add r2, r2, r0
        jmp inner
next:   addi r0, r0, 1
        jmp outer
done:   halt
"""

GCD_PROG = """
        movi r0, 1071
        movi r1, 462
again:  jz r1, fin
        mod r2, r0, r1
        mov r0, r1
        mov r1, r2
        jmp again
fin:    out r0
        movi r3, 0
        div r4, r0, r3
        halt
"""

BAD_PROGS = [
    "movi r0, 1\n frob r0\n",
    "movi r9x, 1\n",
    "pop r0\n",
    "loop: push r0\n jmp loop\n",
]


def run_source(name, src):
    try:
        code, labels = assemble(src)
    except AsmError as e:
        print("%s: assembly failed: %s" % (name, e))
        return
    cpu = CPU(code)
    try:
        out = cpu.run()
        shown = out if len(out) <= 12 else out[:6] + out[-6:]
        print("%s: %d instrs, %d steps, out=%s" % (name, len(code), cpu.steps, shown))
    except CpuFault as f:
        print("%s: fault '%s' at pc=%d after %d steps, partial=%s" % (
            name, f.msg, f.pc, cpu.steps, cpu.output))
    lab = sorted(labels.items(), key=lambda kv: kv[1])
    if lab:
        print("   labels:", " ".join(["%s@%d" % (k, v) for k, v in lab]))


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 20
    run_source("fib", FIB_PROG.format(n=n))
    run_source("fact", FACT_PROG.format(n=min(n, 12)))
    run_source("sieve", SIEVE_PROG.format(n=n * 4))
    run_source("gcd", GCD_PROG)
    for i, src in enumerate(BAD_PROGS):
        run_source("bad%d" % i, src)
    code, _ = assemble(FACT_PROG.format(n=5))
    for line in disassemble(code)[:6]:
        print(line)
    total = 0
    for k in range(1, n * 20):
        cpu = CPU(assemble(FIB_PROG.format(n=k % 30 + 1))[0])
        total += sum(cpu.run()) % 1000003
    print("checksum", total)
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
