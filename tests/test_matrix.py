"""Every kind of test set through every command (issue 41, item 5), generated from the
registries: the kinds of tests/kinds.py and the commands of ``ragscore``'s own parser (every
command that reads a dataset folder, each of its ``--format`` choices, both pairings of two
systems), so a new kind or a new command joins without an edit here.

Each cell must end in exit 0 (or 1 for a verdict that failed, a baseline that differs) with
the same output from both engines where the command has ``--engine``, or in exit 2 with one
line saying why this kind does not apply. Never exit 3, never a traceback.

``make test`` runs a rotation (a different 24th of the cells each day); ``make test-all``
runs them all.
"""
import argparse
import datetime
import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from kinds import KINDS, NOT_FOLDERS
from ragscore.cli import build_parser, capture

#: The options a matrix cell fills by their destination; a command whose required option is
#: not here fails the matrix, naming it (give it a recipe here).
FILLED = {"dataset", "target", "baseline", "candidate", "policy", "out", "out_prefix",
          "system", "max_k", "file", "chunks", "report"}
#: Commands that need something no folder holds: a running system to call.
NEEDS_A_SYSTEM = {("record",)}
#: Commands that apply to every dataset folder, whatever it holds: exit 0 on each kind that
#: is one (a refusal there is a bug, such as a folder ragscore wrote that its own validate
#: refused).
EVERY_FOLDER = {("validate",), ("manifest",), ("report",), ("audit",), ("sweep",),
                ("claims",), ("review", "export"), ("baseline", "save"), ("upgrade",)}
#: How many slices the rotation of ``make test`` cuts the matrix into.
SLICES = 24
POLICY = """k = 2

[[rule]]
name = "no support regression"
metric = "support"
check = "no_regression"

[[rule]]
name = "mean recall"
metric = "recall"
check = "min_mean"
threshold = 0.5
"""


def _leaves(parser, path=()):
    """``(command path, parser)`` of every command that runs (sub-commands followed)."""
    for action in parser._actions:  # noqa: SLF001 (argparse keeps its sub-commands here)
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for name, sub in action.choices.items():
                yield from _leaves(sub, (*path, name))
            return
    if path:
        yield path, parser


def _reads_a_folder(parser):
    return any(not action.option_strings and action.dest in ("dataset", "target")
               for action in parser._actions)  # noqa: SLF001


def commands():
    """``{command path: parser}`` of the commands that read a dataset folder."""
    return {path: parser for path, parser in _leaves(build_parser())
            if _reads_a_folder(parser) and path not in NEEDS_A_SYSTEM}


def _formats(parser):
    for action in parser._actions:  # noqa: SLF001
        if "--format" in action.option_strings:
            return [name for name in action.choices]
    return [None]


def _has(parser, flag):
    return any(flag in action.option_strings for action in parser._actions)  # noqa: SLF001


def _required(parser):
    return [action.dest for action in parser._actions  # noqa: SLF001
            if (action.required or not action.option_strings)
            and action.dest not in ("help",) and action.nargs != 0]


def cells():
    """Every (kind, command, variant, format) of the matrix, as pytest parameters."""
    found = []
    for path, parser in commands().items():
        unknown = [dest for dest in _required(parser) if dest not in FILLED]
        assert not unknown, f"ragscore {' '.join(path)}: give {unknown} a recipe in FILLED"
        variants = ["first-second", "second-first"] if _has(parser, "--candidate") else ["-"]
        if path == ("gate",):
            variants += ["baseline-file"]
        for kind in KINDS:
            for variant in variants:
                for fmt in _formats(parser):
                    found.append((kind, path, variant, fmt))
    return found


def _slice_of(cell):
    text = json.dumps([cell[0], list(cell[1]), cell[2], cell[3]])
    return int(hashlib.sha256(text.encode()).hexdigest(), 16) % SLICES


TODAY = (datetime.date.today() - datetime.date(2026, 1, 1)).days % SLICES
ALL = cells()


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """Each kind's folder, built once (on first use) for the whole session."""
    folders = {}

    def get(kind):
        if kind not in folders:
            folders[kind] = KINDS[kind](tmp_path_factory.mktemp(kind))
        return folders[kind]
    return get


def _systems(folder):
    try:
        from ragscore import load_dataset

        found = load_dataset(folder).systems
    except ValueError:
        found = ()
    first = found[0] if found else "A"
    return first, found[1] if len(found) > 1 else first


def _argv(path, parser, folder, variant, fmt, tmp):
    """The command line of one cell: the command, the folder, its options filled."""
    first, second = _systems(folder)
    policy = tmp / "gate.toml"
    policy.write_text(POLICY)
    values = {"baseline": first, "candidate": second, "policy": policy, "system": first,
              "max_k": "5", "out_prefix": tmp / "export" / "trec",
              "chunks": Path(__file__).resolve().parents[1] / "fixtures" / "spans"
              / "chunks-sentences.jsonl", "report": tmp / "report.json"}
    if variant == "second-first":
        values.update(baseline=second, candidate=first)
    outs = {("html",): "page.html", ("baseline", "save"): "baseline.json",
            ("export", "alce"): "alce.json", ("review", "export"): "queue.jsonl"}
    values["out"] = tmp / outs.get(path, "out")
    setup = []
    if path == ("baseline", "verify") or variant == "baseline-file":
        setup.append(["baseline", "save", str(folder), "--system", first, "--out",
                      str(tmp / "saved.json")])
        values["file"] = tmp / "saved.json"
    if path == ("review", "import"):
        setup.append(["review", "export", str(folder), "--out", str(tmp / "queue.jsonl")])
        values["file"] = tmp / "queue.jsonl"
    argv = [*path]
    for action in parser._actions:  # noqa: SLF001
        dest = action.dest
        if not action.option_strings and dest in ("dataset", "target"):
            argv.append(str(folder))
        elif not action.option_strings and dest == "file":
            argv.insert(len(path), str(values["file"])) if path == ("baseline", "verify") \
                else argv.append(str(values["file"]))
        elif action.required and dest in values:
            argv += [action.option_strings[0], str(values[dest])]
    if path == ("gate",):  # against a system of the folder, or its saved baseline
        argv += (["--baseline-file", str(values["file"])] if variant == "baseline-file"
                 else ["--baseline", values["baseline"]])
    if fmt is not None:
        argv += ["--format", fmt]
    if path in (("export", "nuggets"),):
        argv += ["--nuggets", str(tmp / "nuggets.jsonl")]
    return setup, argv


def _run(setup, argv):
    for step in setup:
        capture(step)  # a step that fails makes the cell's own command say why
    return capture(argv)


def _check(cell, built, tmp_path):
    kind, path, variant, fmt = cell
    parser = commands()[path]
    source = built(kind)
    results = {}
    for engine in ("columnar", "reference") if _has(parser, "--engine") else (None,):
        folder = tmp_path / f"{engine}-folder"
        shutil.copytree(source, folder)  # a command that writes (upgrade) writes a copy
        work = tmp_path / f"{engine}-work"
        work.mkdir()
        setup, argv = _argv(path, parser, folder, variant, fmt, work)
        if engine is not None:
            argv += ["--engine", engine]
            setup = [step + ["--engine", engine] if step[:2] == ["baseline", "save"] else step
                     for step in setup]
        code, out, err = _run(setup, argv)
        assert code in (0, 1, 2), (argv, code, err)
        if path in EVERY_FOLDER and kind not in NOT_FOLDERS:
            assert code == 0, (argv, err)
        assert "Traceback" not in err and "internal error" not in err, (argv, err)
        if code == 2:
            assert out == "" and len(err.splitlines()) == 1 and err.startswith(
                ("ragscore: error: ", "ragscore ")), (argv, err)
        written = sorted((str(file.relative_to(work)), file.read_bytes())
                         for file in work.rglob("*") if file.is_file()
                         and file.name != "gate.toml")
        results[engine] = (code, out.replace(str(folder), "FOLDER").replace(str(work), "WORK"),
                           [(name, data.replace(str(folder).encode(), b"FOLDER")
                             .replace(str(work).encode(), b"WORK")) for name, data in written])
    if len(results) == 2:  # the same numbers from both engines
        assert results["columnar"] == results["reference"], (kind, path, variant, fmt)


@pytest.mark.parametrize("cell", [cell for cell in ALL if _slice_of(cell) == TODAY],
                         ids=lambda cell: f"{cell[0]}-{'-'.join(cell[1])}-{cell[2]}-{cell[3]}")
def test_todays_slice_of_the_matrix(cell, built, tmp_path):
    _check(cell, built, tmp_path)


@pytest.mark.exhaustive
@pytest.mark.parametrize("cell", ALL, ids=lambda cell: f"{cell[0]}-{'-'.join(cell[1])}-"
                                                       f"{cell[2]}-{cell[3]}")
def test_every_kind_through_every_command(cell, built, tmp_path):
    _check(cell, built, tmp_path)


def test_the_matrix_covers_every_command_that_reads_a_folder():
    found = {path for _, path, _, _ in ALL}
    for expected in [("report",), ("compare",), ("audit",), ("sweep",), ("baseline", "save"),
                     ("baseline", "verify"), ("gate",), ("html",), ("export", "trec"),
                     ("export", "nuggets"), ("export", "alce"), ("manifest",), ("validate",),
                     ("claims",), ("labels",), ("review", "export")]:
        assert expected in found, expected
    assert len(ALL) >= len(KINDS) * 40
