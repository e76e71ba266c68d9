"""Checking a dataset: an in-memory :class:`~ragscore.io.format.Dataset` before it is saved
(:func:`check_dataset`), and a folder against the shipped JSON Schemas
(:func:`validate_folder`, ``ragscore validate``).

Both apply the rules a reading applies (:mod:`ragscore.core.validation`,
:mod:`ragscore.io.read`): what a save accepts, a reading accepts.
"""
from pathlib import Path

from ..core.labels import check_record
from ..core.rules import InvalidInputError, show
from ..core.trials import trial_runs
from ..core.validation import validate_corpus, validate_delivered, validate_labels, \
    validate_reviews, validate_run
from .content import checked_reading
from .format import INDEX, NAME_PATTERN, Dataset, check_index, dataset_index, \
    dataset_records, needed_version, rules_of, uses_version_3
from .jsonl import MAX_FILE_BYTES, DatasetFileError, records, where
from .read import close_all, load_dataset, open_version
from .records import Reader, Trials, run_extras
from .schemas import check_manifests, schema_errors
from .store import snapshot

__all__ = ["check_dataset", "validate_folder"]

_NAME = NAME_PATTERN.fullmatch


def check_dataset(dataset):
    """Raise :class:`~ragscore.core.rules.InvalidInputError` unless ``dataset`` is valid:
    what :func:`load_dataset` would accept after :func:`save_dataset`."""
    if not isinstance(dataset, Dataset):
        raise InvalidInputError(f"dataset must be a ragscore Dataset; got {show(dataset)}")
    rules_of(dataset.ids)  # its type first: an object posing as "course" is refused
    _, rules, _ = check_index(dataset_index(dataset), "dataset")
    known = validate_corpus(dataset.corpus, rules=rules)  # frozenset(corpus), built once
    _check_records(dataset, rules, known)


def _check_records(dataset, rules, known):
    """Check the corpus's companions, the cases and the runs against the corpus IDs
    ``known``, as loading them back would."""
    _check_chunks(dataset, rules)
    if type(dataset.cases) is not dict:
        raise InvalidInputError(f"dataset.cases must be a dict; got {show(dataset.cases)}")
    for name in dataset.cases:
        if not (rules.is_id(name) if rules.open_labels else
                type(name) is str and _NAME(name)):
            raise InvalidInputError(f"case name must be {rules.expected}; got {show(name)}")
    if type(dataset.runs) is dict:
        for per_case in dataset.runs.values():
            for system in (per_case if type(per_case) is dict else ()):
                if not (rules.is_id(system) if rules.open_labels else
                        type(system) is str and _NAME(system)):
                    raise InvalidInputError(f"system name must be {rules.expected}; "
                                            f"got {show(system)}")
    sources = dataset.sources or {}
    label_ids = known | frozenset(sources.values()) if sources else known
    for name, case in dataset.cases.items():
        try:
            validate_labels(case, label_ids, rules=rules, min_relevance=dataset.min_relevance)
            validate_reviews(case, label_ids)
        except InvalidInputError as error:
            raise InvalidInputError(f"case {show(name)}: {error}") from None
    if type(dataset.runs) is not dict:
        raise InvalidInputError(f"dataset.runs must be a dict; got {show(dataset.runs)}")
    for case_name, per_case in dataset.runs.items():
        if case_name not in dataset.cases:
            raise InvalidInputError(f"runs[{show(case_name)}] names a case that is not in "
                                    "cases")
        if type(per_case) is not dict:
            raise InvalidInputError(f"runs[{show(case_name)}] must be a dict; got "
                                    f"{show(per_case)}")
        for system, trials in per_case.items():
            if type(trials) is list or type(trials) is tuple:
                if not trials or not all(type(run) is dict and type(run.get("trial")) is int
                                         for run in trials):
                    raise InvalidInputError(
                        f"case {show(case_name)}, system {show(system)}: repeated trials must "
                        f"be a non-empty list of runs, each with an int 'trial'; got "
                        f"{show(trials)}")
            for run in trial_runs(trials):
                try:
                    validate_run(run, known, rules=rules)
                    validate_delivered(run, known, rules=rules)
                except InvalidInputError as error:
                    raise InvalidInputError(f"case {show(case_name)}, system {show(system)}: "
                                            f"{error}") from None
    if uses_version_3(dataset):
        _check_version_3(dataset, rules)
    if type(dataset.judgements) is not tuple:
        raise InvalidInputError(f"dataset.judgements must be a tuple of judgement records; "
                                f"got {show(dataset.judgements)}")
    for position, record in enumerate(dataset.judgements):
        check_record(record, f"dataset.judgements[{position}]", is_id=rules.is_id)
    if dataset.documents or dataset.positions:
        _check_spans(dataset, rules)


def _check_spans(dataset, rules):
    """A span test set's documents and chunk places, as reading them back would check."""
    from .documents import Placed, check_chunking

    documents, positions = dataset.documents, dataset.positions
    if not rules.open_labels:
        raise InvalidInputError("dataset.ids must be 'open' in a span test set (its derived "
                                "labels are graded)")
    if type(documents) is not dict or not documents or not all(
            rules.is_id(doc) and type(found) is tuple and len(found) == 2
            and type(found[0]) is str and found[0].strip() and type(found[1]) is str
            and found[1].strip() for doc, found in documents.items()):
        raise InvalidInputError(f"dataset.documents must map document IDs to (version, text) "
                                f"pairs of non-blank strings; got {show(documents)}")
    if type(positions) is not dict or set(positions) != set(dataset.corpus):
        raise InvalidInputError("dataset.positions must place every chunk of the corpus: "
                                "{chunk: (document, start, end)}")
    placed = {}
    for chunk, place in positions.items():
        if type(place) is not tuple or len(place) != 3:
            raise InvalidInputError(f"dataset.positions[{show(chunk)}] must be (document, "
                                    f"start, end); got {show(place)}")
        placed[chunk] = Placed(*place, (dataset.versions or {}).get(chunk),
                               dataset.corpus[chunk], f"corpus {show(chunk)}")
        if (dataset.sources or {}).get(chunk) != place[0]:
            raise InvalidInputError(f"corpus {show(chunk)}: its source must be the document "
                                    f"it is placed in, {show(place[0])}")
    check_chunking(placed, documents, overlapping=dataset.overlapping_chunks)
    if type(dataset.min_overlap) is not int or dataset.min_overlap < 1:
        raise InvalidInputError(f"dataset.min_overlap must be a whole number of at least 1; "
                                f"got {show(dataset.min_overlap)}")


def _check_version_3(dataset, rules):
    """Check what only version 3 says the way loading it back would."""
    if dataset.manifests is not None:
        check_manifests(dataset.manifests, "dataset.manifests")
    if dataset.rubric is not None and (type(dataset.rubric) is not str
                                       or not dataset.rubric.strip()):
        raise InvalidInputError(f"dataset.rubric must be a non-blank str; got "
                                f"{show(dataset.rubric)}")
    groups, superseded = dataset.groups or {}, dataset.superseded or frozenset()
    if type(groups) is not dict or not all(
            doc in dataset.corpus and isinstance(allowed, (set, frozenset, tuple, list))
            and all(type(group) is str for group in allowed) for doc, allowed in groups.items()):
        raise InvalidInputError(f"dataset.groups must map corpus IDs to sets of group names; "
                                f"got {show(groups)}")
    if not isinstance(superseded, (set, frozenset)) or not all(
            type(doc) is str and doc in dataset.corpus for doc in superseded):
        raise InvalidInputError(f"dataset.superseded must be a set of corpus IDs; got "
                                f"{show(superseded)}")
    reader = Reader(max(needed_version(dataset), 3), rules, MAX_FILE_BYTES)
    records_ = dataset_records(dataset)
    for record in records_["corpus"]:
        reader.access(record, record["id"], f"corpus {show(record['id'])}")
    for record in records_["cases"]:
        reader.case(record, f"case {show(record['id'])}")
    trials = Trials()
    for record in records_["runs"]:
        place = f"case {show(record['case'])}, system {show(record['system'])}"
        run = {}
        run_extras(record, run, place)
        problem = trials.add(record["case"], record["system"], run.get("trial"))
        if problem:
            raise InvalidInputError(problem)


def _check_chunks(dataset, rules):
    """``sources`` and ``versions``: ``None`` or a dict keyed by corpus IDs, each value what
    the corpus reader accepts (a source an ID or a name, a version a non-blank string)."""
    for key in ("sources", "versions"):
        mapping = getattr(dataset, key)
        if mapping is None:
            continue
        if type(mapping) is not dict:
            raise InvalidInputError(f"dataset.{key} must be a dict of corpus ID to str or "
                                    f"None; got {show(mapping)}")
        for doc, value in mapping.items():
            if type(doc) is not str or doc not in dataset.corpus:
                raise InvalidInputError(f"dataset.{key} key must be an ID in the corpus; got "
                                        f"{show(doc)}")
            fits = (rules.is_id(value) or type(value) is str and _NAME(value)
                    if key == "sources" else type(value) is str and value.strip())
            if not fits:
                expected = rules.expected if key == "sources" else "a non-blank string"
                raise InvalidInputError(f"dataset.{key}[{show(doc)}] must be {expected}; got "
                                        f"{show(value)}")


_RECORD_SCHEMAS = {"corpus": "corpus-record", "cases": "case-record", "runs": "run-record"}


def validate_folder(path, *, max_bytes=None, codec=None):
    """Check every file of a dataset folder against the shipped JSON Schemas, record by record
    (the index against ``dataset-index``, each line against its record schema, each row of a
    version 5 runs file as the record it holds), then load it. ``codec``: the Parquet runs
    codec a version 5 folder needs (:func:`ragscore.folders.validate_folder` passes it).

    Slower than :func:`~ragscore.io.read.load_dataset` (which enforces the same rules by
    hand while it streams); useful when a file comes from another tool. Returns the number of
    records checked per file kind; raises :class:`~ragscore.io.jsonl.DatasetFileError` naming
    the file, the line (or row) and the field of the first problem.
    """
    limit = MAX_FILE_BYTES if max_bytes is None else max_bytes
    index, opened = snapshot(path, limit)
    close_all(opened)
    for field, message in schema_errors(index, "dataset-index")[:1]:
        raise DatasetFileError(f"{Path(path) / INDEX}: {field}: {message}")
    _, index, opened, reader, _ = open_version(path, limit, codec)
    checked = {}
    try:
        with checked_reading(opened):  # each file against the hash its name carries too
            documents = []
            for kind in opened:  # version 5's judgements: checked record by record on loading
                file_path, handle = opened[kind]
                checked[kind] = 0
                unit, found = ("line", records(handle, file_path, limit)) if kind != "runs" \
                    else reader.run_records(file_path, handle, documents)
                for number, record in found:
                    errors = schema_errors(record, _RECORD_SCHEMAS[kind]) \
                        if kind in _RECORD_SCHEMAS else ()
                    if errors:
                        field, message = errors[0]
                        raise DatasetFileError(f"{where(file_path, number, unit)}: {field}: "
                                               f"{message}")
                    if kind == "corpus" and type(record.get("id")) is str:
                        documents.append(record["id"])
                    checked[kind] += 1
    finally:
        close_all(opened)
    load_dataset(path, max_bytes=limit, codec=codec)
    return checked
