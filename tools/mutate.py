"""Mutation testing of the scoring core: does the suite notice when the code is wrong?

Each mutant changes one thing in one module of ``ragscore/`` (a swapped comparison or
arithmetic operator, a constant nudged by one, a ``raise`` turned into ``pass``, a negated
condition, a returned value replaced by ``None``), is written into a scratch copy of the
project, and the core's tests (``tests/core``, plus the widget-logic tests that explain claims) run
against it. A mutant the suite still passes
"survives". Survivors judged equivalent (same behaviour, only slower or unreachable) are
listed in ``EQUIVALENT`` with the reason; any other survivor makes this script exit 1.

    python tools/mutate.py            # every mutant, two at a time
    python tools/mutate.py --list     # just list the mutants
    python tools/mutate.py --sample 80 --jobs 1   # a seeded random sample of 80 mutants
"""
import argparse
import ast
import concurrent.futures
import copy
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "ragscore" / "core").rglob("*.py")
              if path.name != "__init__.py" or path.parent.name == "metrics")
TESTS = ["tests/core", "tests/workbook/test_explore.py"]
COMPARE_SWAPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
                 ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
                 ast.In: ast.NotIn, ast.NotIn: ast.In}
ARITHMETIC_SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
                    ast.FloorDiv: ast.Div, ast.Mod: ast.Mult}

# "file:line:description" -> why the mutant cannot change any result.
EQUIVALENT = {}


def _docstring_nodes(tree):
    nodes = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                nodes.add(id(first.value))
    return nodes


def _inside_fstring(tree):
    nodes = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            nodes.update(id(child) for child in ast.walk(node))
    return nodes


def _sites(tree):
    skip = _docstring_nodes(tree) | _inside_fstring(tree)
    return [node for node in ast.walk(tree) if id(node) not in skip]


def mutants(path):
    """Yield ``(description, line, (path, site, change))`` for every single-point mutant of
    ``path``; :func:`mutant_source` turns the last item into the mutated source."""
    for site, node in enumerate(_sites(ast.parse((ROOT / path).read_text()))):
        for change, (description, _) in enumerate(_changes(node)):
            yield f"{path}:{node.lineno}:{description}", node.lineno, (path, site, change)


def mutant_source(path, site, change):
    """The source of ``path`` with the ``change``-th mutation of its ``site``-th node."""
    tree = ast.parse((ROOT / path).read_text())
    target = _sites(tree)[site]
    _, mutate = list(_changes(target))[change]
    mutate(target)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree)


def _changes(node):
    """The mutations that apply to one AST node, as (description, function) pairs."""
    if isinstance(node, ast.Compare):
        for position, op in enumerate(node.ops):
            if type(op) in COMPARE_SWAPS:
                new = COMPARE_SWAPS[type(op)]

                def swap(n, position=position, new=new):
                    n.ops[position] = new()
                yield f"{type(op).__name__}->{new.__name__}", swap
    if isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC_SWAPS:
        new = ARITHMETIC_SWAPS[type(node.op)]

        def swap_arith(n, new=new):
            n.op = new()
        yield f"{type(node.op).__name__}->{new.__name__}", swap_arith
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        for delta in (1, -1):
            def nudge(n, delta=delta):
                n.value = n.value + delta
            yield f"constant {node.value!r}{delta:+d}", nudge
    if isinstance(node, ast.Raise):
        def to_pass(n):
            n.__class__ = ast.Pass
            for name in ("exc", "cause"):
                if hasattr(n, name):
                    delattr(n, name)
        yield "raise->pass", to_pass
    if isinstance(node, (ast.If, ast.While, ast.IfExp)):
        def negate(n):
            n.test = ast.UnaryOp(op=ast.Not(), operand=n.test)
        yield "negate condition", negate
    if isinstance(node, ast.Return) and node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None):
        def to_none(n):
            n.value = ast.Constant(value=None)
        yield "return->None", to_none


def _scratch():
    from ragscore.workbook.selfcheck import scratch_copy

    return scratch_copy(tempfile.mkdtemp(prefix="ragscore-mutant-"), source=ROOT)


def run_suite(scratch, tests=TESTS, *, stop_early=True):
    """Run ``tests`` in ``scratch``; return (exit code, output)."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:nbval",
               "--no-header", "-o", "addopts=", "--doctest-modules", *tests,
               *[path for path in CORE]]
    if stop_early:
        command.insert(4, "-x")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(scratch))
    result = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True,
                            timeout=600)
    return result.returncode, result.stdout + result.stderr


def _try(item):
    description, path, where = item
    scratch = _scratch()
    try:
        (scratch / path).write_text(mutant_source(*where))
        code, output = run_suite(scratch)
        return description, code, output
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--only", default="", help="only mutants whose description has this")
    parser.add_argument("--sample", type=int, default=0,
                        help="a random sample of this many mutants (0: every mutant)")
    parser.add_argument("--seed", type=int, default=20, help="seed of --sample (default 20)")
    args = parser.parse_args(argv)
    items = [(description, path, where) for path in CORE
             for description, _, where in mutants(path) if args.only in description]
    if 0 < args.sample < len(items):
        items = random.Random(args.seed).sample(items, args.sample)
    if args.list:
        print("\n".join(description for description, _, _ in items))
        print(f"{len(items)} mutants")
        return 0
    killed, survived = 0, []
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for number, (description, code, output) in enumerate(pool.map(_try, items), start=1):
            if code == 0:
                survived.append(description)
            else:
                killed += 1
            print(f"[{number}/{len(items)}] {'survived' if code == 0 else 'killed  '} "
                  f"{description}", flush=True)
    unexplained = [d for d in survived if d not in EQUIVALENT]
    print(f"\n{len(items)} mutants: {killed} killed, {len(survived)} survived "
          f"({len(survived) - len(unexplained)} judged equivalent)")
    for description in survived:
        print(f"  survived: {description}  -- {EQUIVALENT.get(description, 'NOT EXPLAINED')}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
