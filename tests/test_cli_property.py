"""The command line's property, over every subcommand and option (issue 35).

The walk reads the argparse parser itself (a command added later is walked without an edit
here): for each command it builds a working command line from defaults derived from each
argument's name or type (one small table of exceptions below), then runs it with each
option, and each positional, given a hostile value: empty, huge, negative, inf, nan,
control characters, a FIFO, a zero device, a folder, a path naming one of the command's
own inputs, a dataset's data file, an integer too large for 64 bits, a file nesting 100,000
arrays, a date that names no day, a filled-in review queue (issue 40). Each run must:

- exit 0, 1, 2 or 130, never with a traceback or an internal error;
- change no input (every input file hashed before and after);
- write nothing inside a dataset folder unless the command saves that folder (seen as it
  happens: the run asked the store to write, or to lock, that folder);
- never block (a FIFO is refused, not opened for reading).

``make test`` runs a derandomized share of the hostile values (a fixed rotation that gives
every option some values and every value some options) and issue 40's inputs where they
bit (:data:`ISSUE_40`); ``make test-all`` (the exhaustive mark) runs them all, and each
of issue 40's inputs on every argument of its kind. Runs are in-process
(:func:`ragscore.cli.capture`) from a sandbox folder; no device or FIFO of the machine is
ever named (the zero device is made in the sandbox).
"""
import argparse
import hashlib
import json
import os
import shutil
import signal
import stat
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from ragscore.cli import build_parser, capture

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
#: Seconds one run may take before it counts as blocked.
DEADLINE = 60
#: Hostile values each option gets in make test (all of them under the exhaustive mark).
SHARE = 2

#: What every hostile value is, by name; paths are filled in per sandbox and command.
HOSTILE = ("empty", "huge", "negative", "inf", "nan", "control", "fifo", "zero", "folder",
           "own input", "data file", "big integer", "nested", "bad date", "filled queue")
TEXT = {"empty": "", "huge": "9" * 5000, "negative": "-1", "inf": "inf", "nan": "nan",
        "control": "\x1b[2J\nverdict: PASS\r", "big integer": "99999999999999999999",
        "bad date": "2026-13-45"}
#: A file nesting this many arrays (the same bytes whatever its suffix says it holds).
DEPTH = 100_000


# ---- the sandbox: every input a command reads, copied, with a FIFO and a zero device ----

class Sandbox:
    """``inputs``: a folder of copies (the answers dataset as ``DIR``, the fixtures the
    importers read, a policy, a review queue, a FIFO, a zero device, an empty folder);
    ``work``: the folder commands run from (relative outputs land there)."""

    def __init__(self, root):
        self.root = Path(root)
        self.inputs, self.work = self.root / "in", self.root / "work"
        self.inputs.mkdir()
        self.work.mkdir()
        self.pristine = self.root / "pristine"
        shutil.copytree(FIXTURES / "answers", self.pristine)
        self.dataset = self.inputs / "DIR"
        shutil.copytree(self.pristine, self.dataset)
        shutil.copytree(FIXTURES / "import", self.inputs / "import")
        self.spans = shutil.copytree(FIXTURES / "spans", self.inputs / "spans")
        self.span_set = self.inputs / "SPANS"  # a span test set (docs/spans.md)
        code, _, err = capture(["import", "spans", "--documents",
                                str(self.spans / "documents.jsonl"), "--questions",
                                str(self.spans / "questions.jsonl"), "--chunks",
                                str(self.spans / "chunks-sentences.jsonl"), "--reviewer",
                                "ana", "--date", "2026-01-02", "--out", str(self.span_set)])
        assert code == 0, err
        self.policy = self.inputs / "policy.toml"
        self.policy.write_text('k = 2\n[[rule]]\nname = "recall floor"\nmetric = "recall"\n'
                               'check = "min_mean"\nthreshold = 0.5\n')
        self.queue = self.inputs / "decisions.jsonl"
        code, _, err = capture(["review", "export", str(self.dataset), "--out",
                                str(self.queue)])
        assert code == 0, err
        rows = [json.loads(line) for line in self.queue.read_text().splitlines()]
        decisions = {"relevance": 1, "support": "supported", "answerability": "answerable",
                     "nugget": "support", "citation": "full"}
        for row in rows:  # a decision of each row's kind (a grade for a pooled passage)
            row.update(decision=decisions[row["kind"]], reviewer="ana", date="2026-01-02")
        self.queue.write_text("".join(json.dumps(row) + "\n" for row in rows))
        self.folder = self.inputs / "empty-folder"
        self.folder.mkdir()
        self.fifo = self.inputs / "fifo"
        os.mkfifo(self.fifo)
        self.zero = self.inputs / "zero"
        try:  # a /dev/zero of our own: never the machine's
            os.mknod(self.zero, 0o666 | stat.S_IFCHR, os.makedev(1, 5))
        except OSError:
            self.zero = None
        index = json.loads((self.dataset / "dataset.json").read_text())
        self.data_file = self.dataset / index["files"]["runs"]
        self.nested = self.root / "nested"  # beside the inputs: an output may replace it
        self.nested.mkdir()
        self.qrels, self.run = self.inputs / "plain.qrels", self.inputs / "plain.run"
        self.qrels.write_text("".join(f"q{n} 0 d{n} 1\n" for n in range(30)))
        self.run.write_text("".join(f"q{n} Q0 d{(n + r) % 40} {r + 1} {50 - r}.5 sys\n"
                                    for n in range(30) for r in range(10)))  # laid out plainly
        self.systems = ("draft", "careful")
        self.outputs = 0

    def fresh(self, suffix=""):
        """A new path in the working folder (nothing there yet)."""
        self.outputs += 1
        return str(self.work / f"out-{self.outputs}{suffix}")

    def value(self, name, own_input):
        if name in TEXT:
            return TEXT[name]
        if name == "nested":  # written afresh: as JSON, TOML or a CSV cell, by the suffix
            texts = {".json": "[" * DEPTH, ".toml": "k = " + "[" * DEPTH + "]" * DEPTH + "\n",
                     ".csv": 'question,retrieved\n"q","' + "[" * DEPTH + '"\n',
                     ".jsonl": "[" * DEPTH + "\n"}
            suffix = Path(own_input).suffix.lower()
            suffix = suffix if suffix in texts else ".jsonl"
            path = self.nested / f"nested{suffix}"
            path.write_text(texts[suffix])
            return str(path)
        return str({"fifo": self.fifo, "zero": self.zero or self.fifo, "folder": self.folder,
                    "own input": own_input, "data file": self.data_file,
                    "filled queue": self.queue}[name])

    def snapshot(self):
        """``{path: digest}`` of every regular file in the inputs folder."""
        found = {}
        for path in sorted(self.inputs.rglob("*")):
            if path.is_file() and not path.is_symlink() and path.name != ".ragscore.lock":
                found[path] = hashlib.sha256(path.read_bytes()).hexdigest()
        return found

    def restore(self, before, after):
        """Put the inputs back as they were (``before`` and ``after``: snapshots around a
        run; a save of ``DIR`` undone, a journal beside it removed) and empty the working
        folder."""
        if any(after.get(path) != digest for path, digest in before.items()) or any(
                path not in before for path in after):
            shutil.rmtree(self.dataset)
            shutil.copytree(self.pristine, self.dataset)
            for entry in self.inputs.iterdir():
                if entry.name.startswith(("DIR.", ".DIR")):
                    (shutil.rmtree if entry.is_dir() else os.unlink)(entry)
        for entry in self.work.iterdir():
            (shutil.rmtree if entry.is_dir() and not entry.is_symlink() else os.unlink)(entry)


class Endpoint:
    """A local system that answers every question with one ranking (for ``record``)."""

    def __init__(self):
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                body = b'{"retrieved": ["launch"], "answer": "Monday [1]."}'
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/ask"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def close(self):
        self.http.shutdown()
        self.http.server_close()


# ---- the commands, from the parser ----------------------------------------------------

def leaves(parser, path=()):
    """``[(command words, parser)]`` for every command that runs (sub-commands walked)."""
    subs = [action for action in parser._actions
            if isinstance(action, argparse._SubParsersAction)]
    if not subs:
        return [(path, parser)]
    found = []
    for name, child in subs[0].choices.items():
        found += leaves(child, path + (name,))
    return found


def arguments(parser):
    """The arguments of one command, without --help."""
    return [action for action in parser._actions
            if not isinstance(action, (argparse._HelpAction, argparse._VersionAction))]


def exceptions(box, url):
    """The small table of what cannot be derived from a name: ``{command words: argv}``,
    the argv holding the required arguments of that command."""
    fixture = box.inputs / "import"
    return {
        ("import", "trec"): ["--qrels", fixture / "trec" / "qrels.txt", "--run",
                             fixture / "trec" / "bm25.run"],
        ("import", "beir"): ["--folder", fixture / "beir", "--run", fixture / "beir" /
                             "bm25.run"],
        ("import", "ragas"): ["--file", fixture / "ragas" / "answers.jsonl", "--system",
                              "dense"],
        ("import", "llamaindex"): ["--results", fixture / "llamaindex" / "results.json",
                                   "--system", "vector"],
        ("import", "log"): [fixture / "log" / "answers.jsonl"],
        ("import", "openinference"): [fixture / "openinference" / "spans.jsonl", "--system",
                                      "prod"],
        ("import", "llamaindex-rag"): ["--dataset", fixture / "llamaindex" /
                                       "rag_dataset.json", "--predictions", fixture /
                                       "llamaindex" / "vector_predictions.json", "--system",
                                       "vector"],
        ("import", "nuggets"): ["--nuggets", fixture / "nuggets" / "nuggets.jsonl",
                                "--answers", fixture / "nuggets" / "answers.jsonl",
                                "--assignments", fixture / "nuggets" / "assignments.jsonl"],
        ("import", "alce"): [fixture / "alce" / "result.json", "--system", "toy"],
        ("export", "nuggets"): [box.dataset, "--nuggets", box.fresh(".jsonl")],
        ("review", "import"): [box.dataset, box.queue],
        # without DATASET these compare two chunkings of one span test set (DIR:SYSTEM)
        ("compare",): [box.dataset], ("gate",): [box.dataset], ("html",): [box.dataset],
        ("import", "spans"): ["--documents", box.spans / "documents.jsonl", "--questions",
                              box.spans / "questions.jsonl", "--chunks",
                              box.spans / "chunks-sentences.jsonl", "--runs",
                              box.spans / "runs-sentences.jsonl"],
        ("labels",): [box.span_set],
        ("rechunk",): [box.span_set, "--chunks", box.spans / "chunks-notes.jsonl",
                       "--report", box.fresh(".json")],
        ("record",): [box.dataset, "--endpoint", url, "--system", "live", "--retries", "0",
                      "--timeout", "10"],
        ("eval",): [box.qrels, box.run],  # read in columns: where -M once overflowed
    }


def by_name(action, box):
    """A working value for a required argument, from its name (``None``: not known)."""
    name = action.dest
    if name in ("dataset",):
        return str(box.dataset)
    if name in ("baseline", "candidate", "system"):
        return box.systems[name == "candidate"] if action.nargs is None else None
    if name == "policy":
        return str(box.policy)
    if name in ("out", "out_prefix", "review_out", "journal"):
        return box.fresh()
    if name in ("k", "max_k"):
        return "3"
    if action.choices:
        return next(iter(action.choices))
    if action.type in (int, float):
        return "1"
    return None


def base_argv(words, parser, box, table):
    """``(argv, derived)``: a working command line for ``words``; ``derived`` is False when
    a required argument had to be guessed."""
    given = table.get(words)
    argv = [str(part) for part in given] if given else []
    derived = True
    for action in arguments(parser):
        flag = action.option_strings[0] if action.option_strings else None
        if flag and flag in argv or (given and not flag):
            continue
        if (flag is None and action.nargs != "?") or action.required:
            value = by_name(action, box)
            if value is None:
                value, derived = "x", False
            argv += [value] if flag is None else [flag, value]
    return [*words, *argv], derived


def own_input(argv, box):
    """A path the command reads (the first existing file among its arguments), else the
    dataset's index."""
    for part in argv:
        if os.path.isfile(part) and str(box.inputs) in part:
            return part
    return str(box.dataset / "dataset.json")


def variants(words, parser, argv, box, *, everything):
    """``[(label, argv)]``: the command with each option (or positional) given hostile
    values; flags alone and each choice once. A fixed rotation picks :data:`SHARE` values
    per argument unless ``everything``."""
    found = []
    start = sum(map(ord, " ".join(words)))  # derandomized: the same share on every run
    for position, action in enumerate(arguments(parser)):
        if action.dest in ("debug", "version", "command"):
            continue
        flag = action.option_strings[0] if action.option_strings else None
        if flag and action.nargs == 0:  # a flag: on
            found.append((f"{flag}", [*argv, flag]))
            continue
        names = HOSTILE if everything else [HOSTILE[(start + position * 5 + step) %
                                                    len(HOSTILE)] for step in range(SHARE)]
        values = [(name, box.value(name, own_input(argv, box))) for name in names]
        if action.choices and not everything:
            values.append(("choice", str(list(action.choices)[-1])))
        for name, value in values:
            found.append((f"{flag or action.dest}={name}",
                          _given(words, parser, argv, action, value)))
    return found


def _given(words, parser, argv, action, value):
    """``argv`` with argument ``action`` given ``value`` (a positional's value replaced or
    given; an option's value replaced, or the option added)."""
    flag = action.option_strings[0] if action.option_strings else None
    if flag is None:
        index = _positional_index(words, parser, argv, action)
        changed = list(argv)
        if index is None:
            changed.append(value)
        else:
            changed[index] = value
        return changed
    if flag in argv and not isinstance(action, argparse._AppendAction):
        changed = list(argv)
        changed[changed.index(flag) + 1] = value
        return changed
    return [*argv, f"{flag}={value}" if value.startswith("-") else flag,
            *([] if value.startswith("-") else [value])]


def _given_value(words, parser, argv, action):
    """The value ``action`` has in ``argv`` (``None`` when it is not given)."""
    flag = action.option_strings[0] if action.option_strings else None
    if flag is None:
        index = _positional_index(words, parser, argv, action)
        return None if index is None else argv[index]
    return argv[argv.index(flag) + 1] if flag in argv and action.nargs != 0 else None


#: Issue 40's inputs where they bit, run by make test: ``(command words, argument's dest,
#: hostile value)``.
ISSUE_40 = ((("eval",), "max_depth", "big integer"),
            (("import", "trec"), "max_depth", "big integer"),
            (("review", "export"), "out", "filled queue"),
            (("import", "log"), "review_out", "filled queue"),
            (("html",), "out", "filled queue"),
            (("import", "spans"), "date", "bad date"),
            (("review", "import"), "file", "nested"),
            (("gate",), "policy", "nested"))


def issue_40(words, parser, argv, box, *, everything):
    """``[(label, argv)]``: issue 40's inputs on the arguments of their kind (an integer
    too large on every typed option, a bad date on every date, a filled-in queue on every
    output, a nested file on every file read), or, unless ``everything``, only where they
    bit (:data:`ISSUE_40`)."""
    found = []
    for action in arguments(parser):
        if action.dest in ("debug", "version", "command") or action.nargs == 0:
            continue
        given = _given_value(words, parser, argv, action)
        kinds = []
        if action.type not in (None, str):
            kinds.append("big integer")
        if action.dest == "date":
            kinds.append("bad date")
        if given is not None and given.startswith(str(box.work)) or (
                given is None and action.dest in ("out", "review_out", "report")):
            kinds.append("filled queue")  # an output
        if given is not None and given.startswith(str(box.inputs)) and os.path.isfile(given):
            kinds.append("nested")
        for name in kinds:
            if everything or (words, action.dest, name) in ISSUE_40:
                label = action.option_strings[0] if action.option_strings else action.dest
                found.append((f"{label}={name}", _given(
                    words, parser, argv, action,
                    box.value(name, given or own_input(argv, box)))))
    return found


def _positional_index(words, parser, argv, action):
    """Where the value of positional ``action`` sits in ``argv`` (or ``None``)."""
    positionals = [a for a in arguments(parser) if not a.option_strings]
    rest, index, skip = argv[len(words):], len(words), False
    seen = []
    for offset, part in enumerate(rest):
        if skip:
            skip = False
            continue
        if part.startswith("--"):
            skip = "=" not in part and not _is_flag(parser, part)
            continue
        seen.append(index + offset)
    order = positionals.index(action)
    return seen[order] if order < len(seen) else None


def _is_flag(parser, option):
    for action in arguments(parser):
        if option in action.option_strings:
            return action.nargs == 0
    return False


# ---- one run, checked ----------------------------------------------------------------

class Blocked(BaseException):
    """A run that did not end within :data:`DEADLINE` seconds."""


def _alarm(signum, frame):
    raise Blocked


def inside_a_dataset(path, box):
    return box.dataset in Path(path).parents


def run_checked(argv, box):
    """Run ``argv`` from the working folder; return ``(exit code, problem or None)``, and
    put the inputs back as they were."""
    before = box.snapshot()
    after = before
    try:
        code, err, saved = _run(argv)
        after = box.snapshot()
        saves = any(_resolved(folder) == box.dataset.resolve() for folder in saved)
        return code, _problem(code, err, before, after, box, saves=saves)
    finally:
        box.restore(before, after)


def _resolved(folder):
    try:
        return Path(folder).resolve()
    except (OSError, TypeError, ValueError):
        return None


class _Saves:
    """Within it, ``folders`` lists every folder the store was asked to write or to lock
    (a save, or a read-change-write under the folder's lock): what "the command saves that
    folder" means, seen as it happens rather than declared."""

    def __init__(self):
        self.folders = []

    def __enter__(self):
        from ragscore.io import store, write

        folders = self.folders
        self.patched = []
        for module, name in ((store, "write_dataset_folder"), (write, "write_dataset_folder")):
            original = getattr(module, name, None)
            if original is None:
                continue

            def watched(files, index, path, *args, _original=original, **kwargs):
                folders.append(path)
                return _original(files, index, path, *args, **kwargs)

            self.patched.append((module, name, original))
            setattr(module, name, watched)
        lock = getattr(store, "_Locked", None)
        if lock is not None:
            original_init = lock.__init__

            def locked(self_, folder, *args, **kwargs):
                folders.append(folder)
                return original_init(self_, folder, *args, **kwargs)

            self.patched.append((lock, "__init__", original_init))
            lock.__init__ = locked
        return self

    def __exit__(self, *exc):
        for owner, name, original in reversed(self.patched):
            setattr(owner, name, original)


def _run(argv):
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, DEADLINE)
    try:
        with _Saves() as saves:
            code, _, err = capture(argv)
    except Blocked:
        return None, f"blocked for {DEADLINE} s", []
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return code, err, saves.folders


def _problem(code, err, before, after, box, *, saves):
    """What ``argv``'s run broke of the property, in words, or ``None``."""
    problems = []
    if code not in (0, 1, 2, 130):
        problems.append(f"exit {code}")
    if "Traceback" in err or "internal error" in err:
        problems.append("a traceback or an internal error")
    changed = [path for path, digest in before.items()
               if after.get(path) != digest and not (saves and inside_a_dataset(path, box))]
    if changed:
        problems.append(f"inputs changed: {[str(p) for p in changed]}")
    if not saves:
        new = [path for path in after if path not in before and inside_a_dataset(path, box)]
        if new:
            problems.append(f"wrote inside the dataset folder: {[str(p) for p in new]}")
    return (f"exit {code}: " + "; ".join(problems) + f" ({err.strip()[:300]!r})"
            if problems else None)


def walk(root, *, everything, only=None):
    """Run every command's variants in a sandbox under ``root`` (``only``: the commands
    whose words start so); return ``(problems, runs, base_failed)``: the runs that broke
    the property, how many ran, and the commands whose working line did not work."""
    box = Sandbox(root)
    server = Endpoint()
    here = os.getcwd()
    os.chdir(box.work)
    problems, runs, base_failed = [], 0, []
    try:
        table = exceptions(box, server.url)
        for words, parser in leaves(build_parser()):
            if only and words[0] not in only:
                continue
            argv, derived = base_argv(words, parser, box, table)
            code, problem = run_checked(argv, box)
            runs += 1
            if problem:
                problems.append((argv, problem))
            if code not in (0, 1) and (derived or words in table):
                base_failed.append((words, code))
            for _, changed in variants(words, parser, argv, box, everything=everything) + \
                    issue_40(words, parser, argv, box, everything=everything):
                _, problem = run_checked(changed, box)
                runs += 1
                if problem:
                    problems.append((changed, problem))
    finally:
        os.chdir(here)
        server.close()
    return problems, runs, base_failed


def _report(problems):
    return "\n".join(f"{' '.join(map(repr, argv))}\n    {problem}"
                     for argv, problem in problems[:20])


def test_every_command_and_option_holds_under_hostile_values(tmp_path):
    problems, runs, base_failed = walk(tmp_path, everything=False)
    assert problems == [], f"{len(problems)} of {runs} runs broke:\n{_report(problems)}"
    assert base_failed == [], f"a command's working line failed: {base_failed}"
    assert runs > 300


@pytest.mark.exhaustive
def test_every_command_and_option_holds_under_every_hostile_value(tmp_path):
    problems, runs, base_failed = walk(tmp_path, everything=True)
    assert problems == [], f"{len(problems)} of {runs} runs broke:\n{_report(problems)}"
    assert base_failed == []


def test_the_walk_reaches_every_command_and_every_hostile_value(tmp_path):
    """The rotation gives each hostile value to some argument of make test's walk, and the
    walk reads the commands from the parser."""
    box = Sandbox(tmp_path)
    table = exceptions(box, "http://127.0.0.1:9/ask")
    names = Counter()
    commands = leaves(build_parser())
    assert {words[0] for words, _ in commands} >= {"report", "compare", "html", "gate",
                                                "record", "import", "review", "baseline"}
    for words, parser in commands:
        argv, _ = base_argv(words, parser, box, table)
        for label, _ in variants(words, parser, argv, box, everything=False):
            names[label.partition("=")[2]] += 1
    assert set(HOSTILE) <= set(names), names
    reached = {(words, label) for words, parser in commands
               for label, _ in issue_40(words, parser, base_argv(words, parser, box, table)[0],
                                        box, everything=False)}
    assert len(reached) == len(ISSUE_40), reached  # each of issue 40's inputs where it bit
