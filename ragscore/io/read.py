"""Reading a dataset folder record by record: the reference reader.

Every record is checked against the format (:mod:`ragscore.io.format`) and the rules of
:mod:`ragscore.core.validation` as it is read; the first problem raises
:class:`~ragscore.io.jsonl.DatasetFileError` naming the file, the line and the field (data
only: no pickle, no eval). :func:`load_dataset` keeps the whole test set in memory;
the columnar engine reads a folder in bulk (:mod:`ragscore.engine.columnar`) and, on any
problem, hands the folder to this reader so that every error is worded once, here.

The runs of format version 5 are a Parquet file, which this layer does not parse (io reads
and writes files with the standard library): a reading takes a ``codec``, the engine's
Parquet runs codec (:mod:`ragscore.engine.parquet`, passed in by
:func:`ragscore.folders.load_dataset` and the engines), which turns each row back into the
record a JSON line would hold, and every rule below applies to it as to a line.
"""
from ..core.rules import InvalidInputError
from ..core.validation import validate_delivered, validate_labels, validate_reviews, \
    validate_run
from .content import checked_reading
from .documents import read_chunking
from .format import Dataset, check_index
from .judgements import read_judgements
from .jsonl import MAX_FILE_BYTES, DatasetFileError, as_path, where
from .records import Reader
from .store import INDEX, LAYOUTS, snapshot

__all__ = ["close_all", "load_dataset", "open_version", "read_prepared"]


# ---- reading a folder ------------------------------------------------------------------

def _folder(path):
    folder = as_path(path)
    try:
        is_dir = folder.is_dir()
    except OSError as error:  # a name too long, a loop of links
        raise DatasetFileError(f"{where(folder)}: cannot be read ({error.strerror})") from None
    if not is_dir:
        raise DatasetFileError(f"{where(folder)}: no dataset folder there (expected a folder "
                               f"holding {INDEX} and its corpus, cases and runs files)")
    return folder


def open_version(path, max_bytes, codec=None):
    """``(folder, index, opened files, reader, min_relevance)`` for one consistent version
    of a folder (every file opened before any is read; see :mod:`ragscore.io.store`).
    ``codec``: the Parquet runs codec a version 5 folder needs (see the module docstring)."""
    folder = _folder(path)
    index, opened = snapshot(folder, max_bytes)
    try:
        try:
            version, rules, minimum = check_index(index, where(folder / INDEX))
        except DatasetFileError:
            raise
        except InvalidInputError as error:
            raise DatasetFileError(str(error)) from None
        if LAYOUTS[version]["runs"] != ".jsonl" and codec is None:
            raise DatasetFileError(
                f"{where(opened['runs'][0])}: format version {version} keeps its runs in "
                "Parquet; read the folder with ragscore.load_dataset (ragscore.folders), "
                "which reads Parquet with pyarrow")
    except BaseException:
        close_all(opened)
        raise
    return folder, index, opened, Reader(version, rules, max_bytes, codec), minimum


def close_all(opened):
    for _, handle in opened.values():
        handle.close()


def load_dataset(path, *, max_bytes=MAX_FILE_BYTES, codec=None):
    """Read and validate the dataset folder at ``path``; return a :class:`Dataset`.

    Raises :class:`~ragscore.io.jsonl.DatasetFileError` (a ``ValueError``) naming the file
    and line of the first problem. Files larger than ``max_bytes`` are refused. Reads one
    consistent version even while another process saves the folder. ``codec``: see
    :func:`open_version` (:func:`ragscore.folders.load_dataset` passes it).

    >>> from ragscore.io.course import COURSE_PATH
    >>> load_dataset(COURSE_PATH).systems
    ('A', 'B')
    """
    folder, index, opened, reader, minimum = open_version(path, max_bytes, codec)
    rules = reader.rules
    try:
        with checked_reading(opened):
            corpus, sources, versions = {}, {}, {}
            for doc, text, source, version in reader.corpus(*opened["corpus"]):
                corpus[doc] = text
                if source is not None:
                    sources[doc] = source
                if version is not None:
                    versions[doc] = version
            known = frozenset(corpus)
            label_ids = known | frozenset(sources.values())  # chunks or their documents
            chunking = read_chunking(reader, opened, index, corpus, sources, versions)

            def check_case(case):
                validate_reviews(case, label_ids)
                return validate_labels(case, label_ids, rules=rules, min_relevance=minimum)

            cases, _ = reader.cases(*opened["cases"], check_case)
            runs, trials = {}, {}

            def check(case_name, run):
                validated = validate_run(run, known, rules=rules)
                validate_delivered(run, known, rules=rules)
                return validated

            for number, case_name, system, run, _ in reader.runs(*opened["runs"], cases,
                                                                 check, list(corpus)):
                if "trial" in run:
                    trials.setdefault((case_name, system), []).append((number, run))
                runs.setdefault(case_name, {})[system] = run
            _group_trials(runs, trials)
            judgements = read_judgements(*opened["judgements"], rules=rules,
                                         max_bytes=max_bytes) if "judgements" in opened else ()
    finally:
        close_all(opened)
    return Dataset(corpus=corpus, cases=cases, runs=runs, name=index.get("name", folder.name),
                   description=index.get("description", ""), ids=rules.name,
                   min_relevance=minimum, sources=sources, versions=versions,
                   notes=tuple(index.get("notes", ())), groups=reader.groups or None,
                   superseded=frozenset(reader.superseded), rubric=index.get("rubric"),
                   manifests=index.get("manifests"), judgements=judgements, **chunking)


def read_prepared(path, *, unit="chunk", dedupe=False, max_bytes=MAX_FILE_BYTES, codec=None):
    """Read the dataset folder at ``path`` record by record, each run validated and made
    ready to count as it is read (:meth:`~ragscore.core.scoring.Counter.prepare`); corpus
    texts are not kept. Returns ``(index, counter, cases, labels, grouped)``: ``grouped``
    maps a case, then a system, to ``[(trial, prepared run, run record)]`` in trial order,
    cases in order of first appearance in the runs file (as :func:`load_dataset` groups
    ``runs``). Both engines read a folder through this when they read it record by record.
    """
    from ..core.scoring import Counter

    folder, index, opened, reader, minimum = open_version(path, max_bytes, codec)
    try:
        with checked_reading(opened):
            known, sources = {}, {}
            for doc, _, source, _ in reader.corpus(*opened["corpus"]):
                known[doc] = None
                if source is not None:
                    sources[doc] = source
            if unit == "document" and not sources:
                raise InvalidInputError(
                    f"{where(folder)}: unit 'document' (--unit document) projects chunks onto "
                    "the documents their corpus entries name as 'source', and no entry names "
                    "one; add \"source\": DOCUMENT_ID to the chunks of corpus.jsonl "
                    "(docs/dataset-format.md) or score the rankings as recorded (--unit "
                    "chunk, the default)")
            counter = Counter(frozenset(known), rules=reader.rules, min_relevance=minimum,
                              unit=unit, dedupe=dedupe, sources=sources, groups=reader.groups,
                              superseded=reader.superseded)
            cases, labels = reader.cases(*opened["cases"], counter.labels)
            grouped = {}
            for _, case_name, system, run, prepared in reader.runs(
                    *opened["runs"], cases,
                    lambda case_name, run: counter.prepare(labels[case_name], run), list(known)):
                grouped.setdefault(case_name, {}).setdefault(system, []).append(
                    (run.get("trial"), prepared, run))
    finally:
        close_all(opened)
    for per_case in grouped.values():
        for trials in per_case.values():
            trials.sort(key=lambda item: item[0] or 0)
    return index, counter, cases, labels, grouped


def _group_trials(runs, trials):
    """Replace each run recorded with trial numbers by the list of its trials, in trial
    order (the reader has refused a mix of numbered and unnumbered records)."""
    for (case_name, system), numbered in trials.items():
        numbered.sort(key=lambda item: item[1]["trial"])
        runs[case_name][system] = [run for _, run in numbered]
