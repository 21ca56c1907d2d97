#!/usr/bin/env python3
"""The speed gate: instructions and heap allocations per operation, counted by callgrind.

Runs `Benchmarks --gate` (a release build) under valgrind's callgrind, which counts exactly the
instructions the gated cases execute; the binary counts their allocations itself (an interposed
allocator). The figures repeat from run to run on any x86-64 glibc machine, however noisy, except
in a case whose measured work waits for another thread (changes(of:)): valgrind's scheduling of the
threads can add instructions to it, so a case over budget is measured once more and its lower
figures kept (a real regression is over budget in both runs). Each
case's counts are compared with its budget in Benchmarks/speed-budgets.tsv; the gate fails when one is
more than 3% above budget. A budget is lowered (`--lower`) in the commit that earns it; raising one is
an edit that its commit message must justify.

The budgets are counts of one toolchain's code, named in the budgets file (`# toolchain:`): another
compiler makes other code, so with any other toolchain (or on another architecture) the gate says
so and checks nothing; recount the budgets with `--recount` on the toolchain that is to gate.

usage: .ci/speed-gate.py [--binary PATH] [--budgets PATH] [--lower | --recount]
"""
import argparse, glob, os, platform, subprocess, sys, tempfile

TOLERANCE = 1.03


def counted_instructions(path):
    """The instructions a callgrind dump counted."""
    with open(path) as lines:
        for line in lines:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    sys.exit(f"no instruction total in {path}")


def read_budgets(path):
    budgets = {}
    with open(path) as lines:
        for line in lines:
            if line.strip() and not line.startswith("#"):
                case, instructions, allocations = line.rstrip("\n").split("\t")
                budgets[case] = (float(instructions), float(allocations))
    return budgets


def toolchain():
    """This machine's toolchain as the budgets name theirs: `swift --version`'s first line, the architecture."""
    version = subprocess.run(["swift", "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return f"{version.stdout.splitlines()[0].strip()}, {platform.machine()}"


def budgets_toolchain(path):
    with open(path) as lines:
        for line in lines:
            if line.startswith("# toolchain: "):
                return line[len("# toolchain: "):].strip()
    sys.exit(f"{path} names no toolchain (a '# toolchain: ' line)")


def write_budgets(path, budgets, toolchain_line=None):
    with open(path) as lines:
        header = [line for line in lines if line.startswith("#")]
    if toolchain_line:
        header = [f"# toolchain: {toolchain_line}\n" if line.startswith("# toolchain: ") else line for line in header]
    with open(path, "w") as out:
        out.writelines(header)
        for case, (instructions, allocations) in budgets.items():
            out.write(f"{case}\t{instructions:.1f}\t{allocations:.2f}\n")


def measure(binary_path):
    """Instructions and allocations per operation of each gated case, from one run under callgrind."""
    with tempfile.TemporaryDirectory() as scratch:
        # valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 emits; the symbols are enough.
        binary = os.path.join(scratch, "Benchmarks")
        subprocess.run(["objcopy", "--strip-debug", binary_path, binary], check=True)
        out = os.path.join(scratch, "callgrind.out")
        # The measured function by its mangled symbol (callgrind matches names, and the Swift name is
        # inside the mangled one), found rather than spelled, so that no attribute fixes the symbol.
        symbols = subprocess.run(["nm", binary], check=True, stdout=subprocess.PIPE, text=True).stdout
        measured_symbol = next(
            (line.split()[-1] for line in symbols.splitlines() if "observableCoreGateMeasured" in line), None)
        if measured_symbol is None:
            sys.exit("the benchmarks have no observableCoreGateMeasured symbol")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, "--collect-atstart=no",
             "--toggle-collect=" + measured_symbol, "--dump-after=" + measured_symbol,
             binary, "--gate"],
            env=dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1"),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            sys.exit(f"the gated benchmarks failed under callgrind:\n{run.stderr}")
        cases = [line.split("\t")[1:] for line in run.stdout.splitlines() if line.startswith("gate\t")]
        dumps = sorted(glob.glob(out + ".*"), key=lambda path: int(path.rsplit(".", 1)[1]))
        if len(dumps) < len(cases):
            sys.exit(f"expected {len(cases)} callgrind profiles, found {len(dumps)}")
        measured = {}
        for (case, iterations, allocations), dump in zip(cases, dumps):
            if int(allocations) < 0:
                sys.exit("allocations cannot be counted on this platform (glibc is needed)")
            measured[case] = (counted_instructions(dump) / int(iterations), int(allocations) / int(iterations))
    return measured


def is_over(figures, budget):
    """Whether `figures` (instructions, allocations) exceed `budget` by more than the tolerance."""
    (instructions, allocations), (instruction_budget, allocation_budget) = figures, budget
    return instructions > instruction_budget * TOLERANCE or allocations > allocation_budget * TOLERANCE + 0.005


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(root, "Benchmarks/.build/release/Benchmarks"))
    parser.add_argument("--budgets", default=os.path.join(root, "Benchmarks/speed-budgets.tsv"))
    parser.add_argument("--lower", action="store_true", help="lower each budget its case now beats")
    parser.add_argument("--recount", action="store_true", help="replace every budget with this toolchain's counts")
    arguments = parser.parse_args()

    counted_on, here = budgets_toolchain(arguments.budgets), toolchain()
    if arguments.recount:
        measured = measure(arguments.binary)
        write_budgets(arguments.budgets, {case: (round(i, 1), round(a, 2)) for case, (i, a) in measured.items()}, here)
        print(f"budgets recounted on {here}")
        return
    if counted_on != here:
        print(f"speed gate not checked: its budgets were counted on {counted_on}; this is {here}.")
        print("Counts of instructions are a compiler's code: recount them (--recount) where the gate is to run.")
        return

    measured = measure(arguments.binary)
    budgets = read_budgets(arguments.budgets)
    over = [case for case, figures in measured.items() if case in budgets and is_over(figures, budgets[case])]
    if over:
        print(f"over budget in the first run, measured again: {', '.join(over)}")
        again = measure(arguments.binary)
        for case in over:
            measured[case] = tuple(map(min, measured[case], again[case]))

    failures = []
    print("| case | instructions/op | budget | allocations/op | budget | verdict |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for case, (instructions, allocations) in measured.items():
        if case not in budgets:
            failures.append(f"'{case}' has no budget in {arguments.budgets}")
            print(f"| {case} | {instructions:.1f} | — | {allocations:.2f} | — | NO BUDGET |")
            continue
        instruction_budget, allocation_budget = budgets[case]
        over = is_over((instructions, allocations), budgets[case])
        under = instructions < instruction_budget / TOLERANCE or allocations < allocation_budget - 0.005
        verdict = "OVER BUDGET" if over else ("under: lower the budget" if under else "ok")
        print(f"| {case} | {instructions:.1f} | {instruction_budget:.1f} | {allocations:.2f} | {allocation_budget:.2f} | {verdict} |")
        if over:
            failures.append(f"'{case}' is over budget by more than {round((TOLERANCE - 1) * 100)}%")
        if arguments.lower:
            budgets[case] = (min(instruction_budget, round(instructions, 1)), min(allocation_budget, round(allocations, 2)))
    for case in budgets.keys() - measured.keys():
        failures.append(f"the budget '{case}' names no gated case")
    if arguments.lower:
        write_budgets(arguments.budgets, budgets)
    if failures:
        sys.exit("speed gate failed:\n  " + "\n  ".join(failures))


if __name__ == "__main__":
    main()
