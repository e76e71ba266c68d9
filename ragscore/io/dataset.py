"""Test sets on disk: a folder of JSON Lines files plus a small JSON manifest.

Layout of a dataset folder (see ``docs/dataset-format.md``)::

    dataset.json   {"format": "ragscore-dataset", "version": 1, "name": ..., "description": ...}
    corpus.jsonl   {"id": "launch", "text": "The release window starts on Monday."}
    cases.jsonl    {"id": "launch", "question": "...", "relevant": ["launch"],
                    "support": {"monday": ["launch"]}}
    runs.jsonl     {"case": "launch", "system": "A", "retrieved": ["launch", "archive"],
                    "claims": [{"claim": "monday", "citations": ["launch"]}]}

One JSON object per line, so a corpus of a million chunks streams and an error names its
line. JSON arrays become tuples on load. Only regular files are read, and each is refused
above ``max_bytes`` (1 GiB by default), counted on the bytes actually read. No pickle and no
eval: only a JSON decoder, with duplicate keys and NaN refused. Every record is validated
with the rules of :mod:`ragscore.core.validation`; an error names the file, the line and the
field.

Two readers share every parsing and validation step: :func:`load_dataset` keeps the whole
test set in memory; :func:`read_counts` streams the runs straight into per-question counts
(what reports need), keeping neither the corpus text nor the runs.
"""
import gc
import json
import os
import re
import stat
from collections import namedtuple
from pathlib import Path

from ..core.counts import Counts, count
from ..core.rules import COURSE, InvalidInputError, show
from ..core.scoring import CountedRuns
from ..core.validation import check_document, validate_case, validate_run

FORMAT = "ragscore-dataset"
VERSION = 1
MAX_FILE_BYTES = 1 << 30
FILES = {"manifest": "dataset.json", "corpus": "corpus.jsonl", "cases": "cases.jsonl",
         "runs": "runs.jsonl"}
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_NAME = NAME_PATTERN.fullmatch
CORPUS_KEYS = frozenset({"id", "text"})
CASE_KEYS = frozenset({"id", "question", "relevant", "support"})
RUN_KEYS = frozenset({"case", "system", "retrieved", "claims"})
CLAIM_KEYS = frozenset({"claim", "citations"})


class Dataset(namedtuple("Dataset", "corpus cases runs name description",
                         defaults=("dataset", ""))):
    """A frozen test set: corpus, cases, and recorded runs as ``runs[case][system]``."""

    __slots__ = ()

    @property
    def systems(self):
        """System names in order of first appearance."""
        return tuple(dict.fromkeys(s for per_case in self.runs.values() for s in per_case))


class DatasetFileError(InvalidInputError):
    """A dataset file that cannot be read: names the file and the line or key path."""


# ---- reading files --------------------------------------------------------------------------

def _refuse_constant(name):
    raise ValueError(f"{name} is not allowed")


def _no_duplicate_keys(pairs):
    record = dict(pairs)
    if len(record) != len(pairs):
        seen = set()
        duplicate = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise ValueError(f"duplicate key {show(duplicate)}")
    return record


_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicate_keys,
                            parse_constant=_refuse_constant)
_SCAN = _DECODER.scan_once
_PLAIN_SCAN = json.JSONDecoder(parse_constant=_refuse_constant).scan_once


def _parse(text, where):
    """One JSON value from ``text``; an error names ``where`` (a string, or a callable
    giving it, so the common path never formats it)."""
    try:
        value, end = _SCAN(text, 0)  # the C scanner directly: most lines start with "{"
    except (StopIteration, ValueError, RecursionError):
        end = -1
    if end == len(text) or (end > 0 and text[end:].isspace()):
        return value
    try:  # leading whitespace, or an error to explain
        return _DECODER.decode(text)
    except (ValueError, RecursionError) as error:
        where = where() if callable(where) else where
        raise DatasetFileError(f"{where}: not valid JSON ({_reason(error)})") from None


def _reason(error):
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return str(error).splitlines()[0][:200]


def _open_regular(path, max_bytes):
    """Open ``path`` for reading in binary if it is a regular file within ``max_bytes``.

    A FIFO, a device, a folder or a socket is refused without blocking on it.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise DatasetFileError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise DatasetFileError(f"{path}: is not a regular file")
        if info.st_size > max_bytes:
            raise DatasetFileError(
                f"{path}: is {info.st_size} bytes, over the limit of {max_bytes}; pass a "
                "larger max_bytes to load_dataset if this file is trusted")
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def _too_big(path, max_bytes):
    return DatasetFileError(f"{path}: grew past the limit of {max_bytes} bytes while being "
                            "read; pass a larger max_bytes to load_dataset if it is trusted")


class _Line:
    """Where a record stands, formatted only when an error needs it."""

    __slots__ = ("path", "number")

    def __init__(self, path, number):
        self.path, self.number = path, number

    def __str__(self):
        return f"{self.path}, line {self.number}"


def _records(path, max_bytes, keys_of=len, span=None):
    """Yield ``(number, object)`` for each non-blank line of a JSON Lines file (only the
    lines of ``span = (start, stop, first line number)`` when given).

    Duplicate keys are refused. The fast path parses without a per-object hook and proves
    there can be none: when every ``:`` on the line directly follows a ``"`` (so each key's
    colon is counted) and the colons number exactly the keys ``keys_of(record)`` finds, no
    key was repeated. Any other line is parsed by the checking decoder.
    """
    read, start, stop, first = 0, *(span or (0, max_bytes + 1, 1))
    with _open_regular(path, max_bytes) as handle:
        handle.seek(start)
        for number, raw in enumerate(handle, start=first):
            if read >= stop - start:
                break
            read += len(raw)
            if read > max_bytes:
                raise _too_big(path, max_bytes)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise DatasetFileError(
                    f"{path}, line {number}: not UTF-8 text ({error.reason})") from None
            colons = line.count(":")
            if colons == line.count('":') and line[:1] == "{":
                try:
                    record, end = _PLAIN_SCAN(line, 0)
                except (StopIteration, ValueError, RecursionError):
                    record, end = None, 0
                if (type(record) is dict and (end == len(line) or line[end:].isspace())
                        and keys_of(record) == colons):
                    yield number, record
                    continue
            if line.isspace() or not line:
                continue
            record = _parse(line, _Line(path, number).__str__)
            if type(record) is not dict:
                raise DatasetFileError(f"{path}, line {number}: expected a JSON object; "
                                       f"got {show(record)}")
            yield number, record


def _case_keys(record):
    """Keys of a case line: its own and those of its ``support`` object."""
    labels = record.get("support")
    return len(record) + (len(labels) if type(labels) is dict else 0)


def _run_keys(record):
    """Keys of a run line: its own and those of each claim object."""
    claims = record.get("claims")
    if type(claims) is not list:
        return len(record)
    return len(record) + sum(len(item) for item in claims if type(item) is dict)


def _take(record, key, kind, where):
    if key not in record:
        raise DatasetFileError(f"{where}: missing key {key!r}")
    value = record[key]
    if type(value) is not kind:
        expected = {str: "a string", list: "an array", dict: "an object"}[kind]
        raise DatasetFileError(f"{where}: key {key!r} must be {expected}; got {show(value)}")
    return value


def _name(record, key, where):
    value = _take(record, key, str, where)
    if not NAME_PATTERN.fullmatch(value):
        raise DatasetFileError(
            f"{where}: key {key!r} must match {NAME_PATTERN.pattern}; got {show(value)}")
    return value


def _only(record, allowed, where):
    if not allowed.issuperset(record):
        extra = sorted(str(key) for key in record if key not in allowed)
        raise DatasetFileError(f"{where}: unknown key {show(extra[0])}; expected only "
                               f"{tuple(sorted(allowed))}")


def _ids_tuple(value, key, where):
    if type(value) is not list:
        raise DatasetFileError(f"{where}: key {key} must be an array of IDs; got {show(value)}")
    return tuple(value)


# ---- the four files -------------------------------------------------------------------------

def _load_manifest(path, max_bytes):
    with _open_regular(path, max_bytes) as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise _too_big(path, max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DatasetFileError(f"{path}: not UTF-8 text ({error.reason})") from None
    manifest = _parse(text, str(path))
    if type(manifest) is not dict:
        raise DatasetFileError(f"{path}: expected a JSON object; got {show(manifest)}")
    if manifest.get("format") != FORMAT:
        raise DatasetFileError(
            f"{path}: key 'format' must be {FORMAT!r}; got {show(manifest.get('format'))}")
    if manifest.get("version") != VERSION:
        raise DatasetFileError(
            f"{path}: key 'version' must be {VERSION}; got {show(manifest.get('version'))}")
    for key in ("name", "description"):
        if type(manifest.get(key, "")) is not str:
            raise DatasetFileError(f"{path}: key {key!r} must be a string")
    return manifest


def _corpus_entries(path, max_bytes, rules):
    """Yield ``(doc, text)`` for each document, each checked where it stands."""
    seen = set()
    for number, record in _records(path, max_bytes):
        doc, text = record.get("id"), record.get("text")
        if len(record) != 2 or type(doc) is not str or type(text) is not str:
            doc, text = _corpus_shape(record, _Line(path, number))
        if doc in seen:
            raise DatasetFileError(f"{_Line(path, number)}: duplicate document id {show(doc)}")
        try:
            check_document(doc, text, rules)
        except InvalidInputError as error:
            raise DatasetFileError(f"{_Line(path, number)}: {error}") from None
        seen.add(doc)
        yield doc, text
    if not seen:
        raise DatasetFileError(f"{path}: holds no documents")


def _corpus_shape(record, where):
    _only(record, CORPUS_KEYS, where)
    return _take(record, "id", str, where), _take(record, "text", str, where)


def _load_cases(path, max_bytes, known, rules):
    """``{name: case}`` and ``{name: (relevant, support)}`` as validated."""
    cases, checked = {}, {}
    for number, record in _records(path, max_bytes, _case_keys):
        where = _Line(path, number)
        name, case = _case_record(record, where)
        if name in cases:
            raise DatasetFileError(f"{where}: duplicate case id {show(name)}")
        try:
            checked[name] = validate_case(case, known, rules=rules)
        except InvalidInputError as error:
            raise DatasetFileError(f"{where} (case {show(name)}): {error}") from None
        cases[name] = case
    if not cases:
        raise DatasetFileError(f"{path}: holds no cases")
    return cases, checked


def _case_record(record, where):
    """``(name, case)`` from a case line, its shape checked (IDs are validated later)."""
    name, relevant, labels = record.get("id"), record.get("relevant"), record.get("support")
    question = record.get("question", "")
    if (len(record) == 3 + ("question" in record) and type(name) is str
            and type(question) is str and type(relevant) is list and type(labels) is dict
            and _NAME(name) and all(type(sources) is list for sources in labels.values())):
        return name, {"question": question, "relevant": tuple(relevant),
                      "support": {claim: tuple(sources) for claim, sources in labels.items()}}
    _only(record, CASE_KEYS, where)
    name = _name(record, "id", where)
    if type(question) is not str:
        raise DatasetFileError(f"{where}: key 'question' must be a string")
    labels = _take(record, "support", dict, where)
    return name, {
        "question": question,
        "relevant": _ids_tuple(_take(record, "relevant", list, where), "'relevant'", where),
        "support": {claim: _ids_tuple(sources, f"'support.{claim}'", where)
                    for claim, sources in labels.items()},
    }


def _run_record(record, where):
    """``(case, system, run)`` from a run line, its shape checked (IDs are validated later)."""
    case_name, system = record.get("case"), record.get("system")
    retrieved, claims = record.get("retrieved"), record.get("claims")
    if (len(record) == 4 and type(case_name) is str and type(system) is str
            and type(retrieved) is list and type(claims) is list and _NAME(case_name)
            and _NAME(system)):
        pairs = []
        for item in claims:
            if type(item) is not dict or len(item) != 2:
                break
            claim, citations = item.get("claim"), item.get("citations")
            if type(claim) is not str or type(citations) is not list:
                break
            pairs.append((claim, tuple(citations)))
        else:
            return case_name, system, {"retrieved": tuple(retrieved), "claims": tuple(pairs)}
    _only(record, RUN_KEYS, where)
    case_name = _name(record, "case", where)
    system = _name(record, "system", where)
    return case_name, system, {
        "retrieved": _ids_tuple(_take(record, "retrieved", list, where), "'retrieved'", where),
        "claims": _claims_tuple(_take(record, "claims", list, where), where),
    }


def _claims_tuple(value, where):
    pairs = []
    for position, item in enumerate(value):
        if type(item) is not dict:
            raise DatasetFileError(f"{where}: claims[{position}] must be an object with "
                                   f"'claim' and 'citations'; got {show(item)}")
        at = f"{where}: claims[{position}]"
        _only(item, CLAIM_KEYS, at)
        claim = _take(item, "claim", str, at)
        citations = _take(item, "citations", list, at)
        pairs.append((claim, tuple(citations)))
    return tuple(pairs)


def _runs(path, max_bytes, known, cases, rules, span=None):
    """Yield ``(case, system, retrieved, claims, line number)`` for each run, validated."""
    seen = set()
    for number, record in _records(path, max_bytes, _run_keys, span):
        where = _Line(path, number)
        case_name, system, run = _run_record(record, where)
        if case_name not in cases:
            raise DatasetFileError(f"{where}: case {show(case_name)} is not in cases.jsonl")
        if (case_name, system) in seen:
            raise DatasetFileError(f"{where}: duplicate run for case {show(case_name)}, "
                                   f"system {show(system)}")
        seen.add((case_name, system))
        try:
            retrieved, claims = validate_run(run, known, rules=rules)
        except InvalidInputError as error:
            raise DatasetFileError(f"{where} (case {show(case_name)}, system {show(system)}): "
                                   f"{error}") from None
        yield case_name, system, retrieved, claims, number


def _folder(path):
    folder = Path(path)
    if not folder.is_dir():
        raise DatasetFileError(f"{folder}: no dataset folder there (expected a folder holding "
                               f"{', '.join(FILES.values())})")
    return folder


class _NoCollection:
    """Pause the cyclic garbage collector while many small acyclic records are built."""

    def __enter__(self):
        self.enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *_):
        if self.enabled:
            gc.enable()


def load_dataset(path, *, max_bytes=MAX_FILE_BYTES):
    """Read and validate the dataset folder at ``path``; return a :class:`Dataset`.

    Raises :class:`DatasetFileError` (a ``ValueError``) naming the file and line of the
    first problem. Files larger than ``max_bytes`` are refused.

    >>> from ragscore.io.course import COURSE_PATH
    >>> load_dataset(COURSE_PATH).systems
    ('A', 'B')
    """
    folder = _folder(path)
    rules = COURSE
    with _NoCollection():
        manifest = _load_manifest(folder / FILES["manifest"], max_bytes)
        corpus = dict(_corpus_entries(folder / FILES["corpus"], max_bytes, rules))
        known = frozenset(corpus)
        cases, _ = _load_cases(folder / FILES["cases"], max_bytes, known, rules)
        runs = {}
        for case_name, system, retrieved, claims, _ in _runs(folder / FILES["runs"],
                                                             max_bytes, known, cases, rules):
            runs.setdefault(case_name, {})[system] = {"retrieved": retrieved,
                                                      "claims": claims}
    return Dataset(corpus=corpus, cases=cases, runs=runs,
                   name=manifest.get("name", folder.name),
                   description=manifest.get("description", ""))


#: Runs files at least this large are read by two processes when ``jobs=2``.
PARALLEL_BYTES = 8 << 20


def read_counts(path, *, max_bytes=MAX_FILE_BYTES, jobs=1):
    """Read, validate and count the dataset folder at ``path`` in one streaming pass.

    Returns the :class:`~ragscore.core.scoring.CountedRuns` of every run, grouped by case
    as :func:`load_dataset` groups ``runs``: all a report needs, without keeping the corpus
    text or the runs in memory. Errors are those of :func:`load_dataset`. With ``jobs=2``
    (what the command line uses) a large runs file is read in two halves by two processes
    on systems that can fork; the result and the first error reported are the same.

    >>> from ragscore.io.course import COURSE_PATH
    >>> read_counts(COURSE_PATH).keys[:2]
    [('launch', 'A'), ('launch', 'B')]
    """
    folder = _folder(path)
    rules = COURSE
    with _NoCollection():
        _load_manifest(folder / FILES["manifest"], max_bytes)
        known = frozenset(doc for doc, _ in _corpus_entries(folder / FILES["corpus"],
                                                            max_bytes, rules))
        cases, checked = _load_cases(folder / FILES["cases"], max_bytes, known, rules)
        runs_path = folder / FILES["runs"]

        def counted_runs(span=None):
            for case_name, system, retrieved, claims, number in _runs(
                    runs_path, max_bytes, known, cases, rules, span):
                yield number, case_name, system, count(*checked[case_name], retrieved, claims)

        rows = _in_two(runs_path, counted_runs) if jobs > 1 else list(counted_runs())
    keys = [(case_name, system) for _, case_name, system, _ in rows]
    return CountedRuns(*_grouped_by_case(keys, [counts for *_, counts in rows]))


def _in_two(path, counted_runs):
    """``list(counted_runs())``, with the second half of the file read by a forked child.

    The child sends its rows back as JSON over a pipe (plain data, no pickle); the parent
    reads the first half meanwhile. An error in the first half wins (it comes first in the
    file); a run of the second half that repeats one of the first is refused as in a single
    pass.
    """
    size = os.stat(path).st_size
    if size < PARALLEL_BYTES or not hasattr(os, "fork"):
        return list(counted_runs())
    spans = _halves(path, size)
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (runs in the child process)
        os.close(reader)
        code = 0
        try:
            payload = {"rows": [[number, case_name, system, *counts]
                                for number, case_name, system, counts
                                in counted_runs(spans[1])]}
        except InvalidInputError as error:
            payload = {"error": str(error)}
        except BaseException as error:  # reported by the parent, never swallowed
            payload, code = {"crash": f"{type(error).__name__}: {error}"}, 1
        with os.fdopen(writer, "w", encoding="utf-8") as pipe:
            json.dump(payload, pipe)
        os._exit(code)
    os.close(writer)
    try:
        mine = list(counted_runs(spans[0]))
    except BaseException:
        os.kill(child, 9)
        os.close(reader)
        os.waitpid(child, 0)
        raise
    with os.fdopen(reader, encoding="utf-8") as pipe:
        payload = json.load(pipe)
    os.waitpid(child, 0)
    if "error" in payload:
        raise DatasetFileError(payload["error"])
    if "crash" in payload:
        raise RuntimeError(f"reading {path} in a second process failed: {payload['crash']}")
    seen = {(case_name, system) for _, case_name, system, _ in mine}
    for number, case_name, system, *counts in payload["rows"]:
        if (case_name, system) in seen:
            raise DatasetFileError(f"{path}, line {number}: duplicate run for case "
                                   f"{show(case_name)}, system {show(system)}")
        mine.append((number, case_name, system, _counts_from_json(counts)))
    return mine


def _counts_from_json(values):
    ranks, n_relevant, cutoffs, *rest = values
    return Counts(tuple(ranks), n_relevant, tuple(cutoffs), *rest)


def _halves(path, size):
    """Two ``(start, stop, first line number)`` spans of a file, split at a line break."""
    with open(path, "rb") as handle:
        handle.seek(size // 2)
        handle.readline()  # finish the line the middle falls in
        middle = handle.tell()
        handle.seek(0)
        newlines, left = 0, middle
        while left:
            block = handle.read(min(left, 1 << 22))
            if not block:
                break
            newlines += block.count(b"\n")
            left -= len(block)
    return (0, middle, 1), (middle, size, newlines + 1)


def _grouped_by_case(keys, counted):
    """Reorder ``keys`` and ``counts`` so each case's runs sit together, cases in order of
    first appearance (the order :func:`load_dataset` gives ``runs``)."""
    closed, previous = set(), None
    for case_name, _ in keys:
        if case_name != previous:
            if case_name in closed:
                break  # a case comes back after another: regroup
            closed.add(case_name)
            previous = case_name
    else:
        return keys, counted
    order = {}
    for position, (case_name, _) in enumerate(keys):
        order.setdefault(case_name, []).append(position)
    positions = [position for group in order.values() for position in group]
    return [keys[p] for p in positions], [counted[p] for p in positions]


# ---- writing --------------------------------------------------------------------------------

def _lines(records):
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def dataset_files(dataset):
    """The file names and texts that :func:`save_dataset` writes for ``dataset``."""
    manifest = {"format": FORMAT, "version": VERSION, "name": dataset.name,
                "description": dataset.description}
    corpus = ({"id": doc, "text": text} for doc, text in dataset.corpus.items())
    cases = ({"id": name, "question": case.get("question", ""),
              "relevant": list(case["relevant"]),
              "support": {claim: list(sources) for claim, sources in case["support"].items()}}
             for name, case in dataset.cases.items())
    runs = ({"case": case_name, "system": system, "retrieved": list(run["retrieved"]),
             "claims": [{"claim": claim, "citations": list(citations)}
                        for claim, citations in run["claims"]]}
            for case_name, per_case in dataset.runs.items()
            for system, run in per_case.items())
    return {
        FILES["manifest"]: json.dumps(manifest, indent=2, ensure_ascii=False) + "\n",
        FILES["corpus"]: _lines(corpus),
        FILES["cases"]: _lines(cases),
        FILES["runs"]: _lines(runs),
    }


def save_dataset(dataset, path, *, overwrite=False):
    """Write ``dataset`` as a dataset folder at ``path``, atomically.

    The folder is written beside its destination under a temporary name, then renamed into
    place, so a reader never sees half a dataset and a failed write leaves the old one intact.
    Refuses to replace an existing folder unless ``overwrite=True``. Returns the path.
    """
    import shutil
    import tempfile

    target = Path(path)
    if target.exists() and not overwrite:
        raise InvalidInputError(f"{target}: already exists; pass overwrite=True to replace it")
    target.parent.mkdir(parents=True, exist_ok=True)
    files = dataset_files(dataset)
    scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for name, text in files.items():
            with open(scratch / name, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
        if target.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
            os.replace(target, retired / target.name)
            os.replace(scratch, target)
            shutil.rmtree(retired)
        else:
            os.replace(scratch, target)
    finally:
        if scratch.exists():
            shutil.rmtree(scratch)
    return target
