"""Test sets on disk: a folder of JSON Lines files plus a small JSON manifest.

Layout of a dataset folder (see ``docs/dataset-format.md``)::

    dataset.json   {"format": "ragscore-dataset", "version": 1, "name": ..., "description": ...}
    corpus.jsonl   {"id": "launch", "text": "The release window starts on Monday."}
    cases.jsonl    {"id": "launch", "question": "...", "relevant": ["launch"],
                    "support": {"monday": ["launch"]}}
    runs.jsonl     {"case": "launch", "system": "A", "retrieved": ["launch", "archive"],
                    "claims": [{"claim": "monday", "citations": ["launch"]}]}

One JSON object per line, so a corpus of a million chunks streams and an error names its line.
JSON arrays become tuples on load. Each file is refused above ``max_bytes`` (1 GiB by default).
No pickle and no eval: only :func:`json.loads`, with duplicate keys and NaN refused.
Every record is validated with the rules of :mod:`ragscore.core.validation`; an error names the
file, the line and the field.
"""
import json
import os
import re
from collections import namedtuple
from pathlib import Path

from ..core.rules import InvalidInputError, show
from ..core.validation import validate_case, validate_corpus, validate_run

FORMAT = "ragscore-dataset"
VERSION = 1
MAX_FILE_BYTES = 1 << 30
FILES = {"manifest": "dataset.json", "corpus": "corpus.jsonl", "cases": "cases.jsonl",
         "runs": "runs.jsonl"}
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


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


def _where(path, line=None):
    return f"{path}" if line is None else f"{path}, line {line}"


def _refuse_constant(name):
    raise ValueError(f"{name} is not allowed")


def _no_duplicate_keys(pairs):
    result = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


def _parse(text, where):
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys,
                          parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as error:
        raise DatasetFileError(f"{where}: not valid JSON ({error})") from None


def _check_size(path, max_bytes):
    try:
        size = path.stat().st_size
    except OSError as error:
        raise DatasetFileError(f"{path}: cannot be read ({error.strerror})") from None
    if size > max_bytes:
        raise DatasetFileError(
            f"{path}: is {size} bytes, over the limit of {max_bytes}; pass a larger max_bytes "
            "to load_dataset if this file is trusted")


def _records(path, max_bytes):
    """Yield ``(line_number, object)`` for each non-blank line of a JSON Lines file."""
    _check_size(path, max_bytes)
    try:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                record = _parse(line, _where(path, number))
                if type(record) is not dict:
                    raise DatasetFileError(
                        f"{_where(path, number)}: expected a JSON object; got {show(record)}")
                yield number, record
    except UnicodeDecodeError as error:
        raise DatasetFileError(f"{path}: not UTF-8 text ({error.reason})") from None


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


def _unexpected(record, allowed, where):
    extra = sorted(set(record) - set(allowed))
    if extra:
        raise DatasetFileError(f"{where}: unknown key {extra[0]!r}; expected only {allowed}")


def _ids_tuple(value, key, where):
    if type(value) is not list:
        raise DatasetFileError(f"{where}: key {key} must be an array of IDs; got {show(value)}")
    return tuple(value)


def _load_manifest(path, max_bytes):
    _check_size(path, max_bytes)
    try:
        manifest = _parse(path.read_text(encoding="utf-8"), _where(path))
    except UnicodeDecodeError as error:
        raise DatasetFileError(f"{path}: not UTF-8 text ({error.reason})") from None
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


def _load_corpus(path, max_bytes):
    corpus = {}
    for number, record in _records(path, max_bytes):
        where = _where(path, number)
        _unexpected(record, ("id", "text"), where)
        doc = _take(record, "id", str, where)
        text = _take(record, "text", str, where)
        if doc in corpus:
            raise DatasetFileError(f"{where}: duplicate document id {doc!r}")
        corpus[doc] = text
    if not corpus:
        raise DatasetFileError(f"{path}: holds no documents")
    try:
        known = validate_corpus(corpus)
    except InvalidInputError as error:
        raise DatasetFileError(f"{path}: {error}") from None
    return corpus, known


def _load_cases(path, max_bytes, known):
    cases = {}
    for number, record in _records(path, max_bytes):
        where = _where(path, number)
        _unexpected(record, ("id", "question", "relevant", "support"), where)
        name = _name(record, "id", where)
        if name in cases:
            raise DatasetFileError(f"{where}: duplicate case id {name!r}")
        question = record.get("question", "")
        if type(question) is not str:
            raise DatasetFileError(f"{where}: key 'question' must be a string")
        labels = _take(record, "support", dict, where)
        case = {
            "question": question,
            "relevant": _ids_tuple(_take(record, "relevant", list, where), "'relevant'", where),
            "support": {claim: _ids_tuple(sources, f"'support.{claim}'", where)
                        for claim, sources in labels.items()},
        }
        try:
            validate_case(case, known)
        except InvalidInputError as error:
            raise DatasetFileError(f"{where} (case {name!r}): {error}") from None
        cases[name] = case
    if not cases:
        raise DatasetFileError(f"{path}: holds no cases")
    return cases


def _claims_tuple(value, where):
    pairs = []
    for position, item in enumerate(value):
        at = f"{where}: claims[{position}]"
        if type(item) is not dict:
            raise DatasetFileError(f"{at} must be an object with 'claim' and 'citations'; "
                                   f"got {show(item)}")
        _unexpected(item, ("claim", "citations"), at)
        claim = _take(item, "claim", str, at)
        citations = _take(item, "citations", list, at)
        pairs.append((claim, tuple(citations)))
    return tuple(pairs)


def _load_runs(path, max_bytes, known, cases):
    runs = {}
    for number, record in _records(path, max_bytes):
        where = _where(path, number)
        _unexpected(record, ("case", "system", "retrieved", "claims"), where)
        case_name = _name(record, "case", where)
        system = _name(record, "system", where)
        if case_name not in cases:
            raise DatasetFileError(f"{where}: case {case_name!r} is not in cases.jsonl")
        per_case = runs.setdefault(case_name, {})
        if system in per_case:
            raise DatasetFileError(
                f"{where}: duplicate run for case {case_name!r}, system {system!r}")
        run = {
            "retrieved": _ids_tuple(_take(record, "retrieved", list, where), "'retrieved'",
                                    where),
            "claims": _claims_tuple(_take(record, "claims", list, where), where),
        }
        try:
            validate_run(run, known)
        except InvalidInputError as error:
            raise DatasetFileError(
                f"{where} (case {case_name!r}, system {system!r}): {error}") from None
        per_case[system] = run
    return runs


def load_dataset(path, *, max_bytes=MAX_FILE_BYTES):
    """Read and validate the dataset folder at ``path``; return a :class:`Dataset`.

    Raises :class:`DatasetFileError` (a ``ValueError``) naming the file and line of the
    first problem. Files larger than ``max_bytes`` are refused before they are read.

    >>> from ragscore.io.course import COURSE_PATH
    >>> load_dataset(COURSE_PATH).systems
    ('A', 'B')
    """
    folder = Path(path)
    if not folder.is_dir():
        raise DatasetFileError(f"{folder}: no dataset folder there (expected a folder holding "
                               f"{', '.join(FILES.values())})")
    manifest = _load_manifest(folder / FILES["manifest"], max_bytes)
    corpus, known = _load_corpus(folder / FILES["corpus"], max_bytes)
    cases = _load_cases(folder / FILES["cases"], max_bytes, known)
    runs = _load_runs(folder / FILES["runs"], max_bytes, known, cases)
    return Dataset(corpus=corpus, cases=cases, runs=runs,
                   name=manifest.get("name", folder.name),
                   description=manifest.get("description", ""))


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
