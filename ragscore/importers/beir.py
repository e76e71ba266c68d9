"""A BEIR (or MTEB retrieval) folder as a dataset, with TREC run files as its runs.

The folder holds ``corpus.jsonl`` (``{"_id", "title", "text"}`` per line),
``queries.jsonl`` (``{"_id", "text"}``) and ``qrels/<split>.tsv`` (tab separated, under the
header ``query-id	corpus-id	score``). Other keys of a JSON line (``metadata``) are
ignored. Runs are TREC run files, read and ordered as :mod:`.trec` reads them.
"""
import re
from pathlib import Path

from ..core.rules import OPEN, InvalidInputError, show
from ..io.format import Dataset
from ..io.jsonl import MAX_FILE_BYTES, DatasetFileError, Line, records, where
from ._common import (assemble_runs, check_id, check_options, document_text,
                      fail_at, file_names, is_grade, lines, open_input, paths_of, stem,
                      unicode_problem)
from .trec import ORDER_NOTES, RunReader

__all__ = ["import_beir"]

QRELS_HEADER = ["query-id", "corpus-id", "score"]
_SPLIT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*").fullmatch


def import_beir(folder, *, split="test", runs=(), min_relevance=1, missing_run="zero",
                name=None, max_bytes=MAX_FILE_BYTES):
    """Import a BEIR folder and, optionally, TREC run files; return ``(dataset, notes)``.

    Each query of ``qrels/<split>.tsv`` becomes a case: its question is the query's text,
    its ``relevant`` maps each judged corpus-id to the score (an integer grade, judged
    relevant at ``min_relevance`` or more). Queries of other splits are not imported. A
    document's text is ``title``, a blank line and ``text`` when the title is not blank,
    else ``text`` (a blank text leaves the document without text). Runs are TREC run
    files; their documents must be in the corpus. ``notes`` counts, per system, the run
    questions dropped for not being in the split and the questions of the split a run
    lacks, filled by ``missing_run`` as in :func:`~.trec.import_trec`.

    >>> import json, pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp()) / "toy"
    >>> (folder / "qrels").mkdir(parents=True)
    >>> _ = (folder / "corpus.jsonl").write_text(
    ...     '{"_id": "d1", "title": "Tides", "text": "Two a day."}\\n'
    ...     '{"_id": "d2", "title": "", "text": "Moon phases."}\\n')
    >>> _ = (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "How many tides?"}\\n')
    >>> _ = (folder / "qrels" / "test.tsv").write_text(
    ...     "query-id\\tcorpus-id\\tscore\\nq1\\td1\\t1\\n")
    >>> dataset, notes = import_beir(folder)
    >>> dataset.corpus["d1"], dataset.cases["q1"]
    ('Tides\\n\\nTwo a day.', {'question': 'How many tides?', 'relevant': {'d1': 1}})
    >>> shutil.rmtree(folder.parent)
    """
    folder = Path(folder)
    name = check_options(name=name, default_name=stem(folder), missing_run=missing_run,
                         min_relevance=min_relevance)
    if type(split) is not str or not _SPLIT(split):
        raise InvalidInputError(f"split must be a name like 'test'; got {show(split)}")
    run_paths = paths_of(runs, "runs")
    if not folder.is_dir():
        raise DatasetFileError(f"{where(folder)}: no BEIR folder there (expected corpus.jsonl, "
                               f"queries.jsonl and qrels/{split}.tsv)")
    qrels_path = folder / "qrels" / f"{split}.tsv"
    if not qrels_path.exists():
        found = sorted(path.stem for path in (folder / "qrels").glob("*.tsv"))
        raise DatasetFileError(f"{where(qrels_path)}: cannot be read (No such file or "
                               f"directory); splits found: {', '.join(found) or 'none'}")
    corpus = read_corpus(folder / "corpus.jsonl", max_bytes)
    judged, first_lines = read_qrels_tsv(qrels_path, corpus, max_bytes)
    questions = read_queries(folder / "queries.jsonl", judged, max_bytes)
    for qid, number in first_lines.items():
        if qid not in questions:
            fail_at(qrels_path, number, f"query-id {show(qid)} is not in queries.jsonl")
    cases = {qid: {"question": questions[qid], "relevant": grades}
             for qid, grades in judged.items()}
    reader = RunReader(cases, {doc: doc for doc in corpus} if run_paths else {},
                       known_as="corpus.jsonl", max_bytes=max_bytes)
    for path in run_paths:
        reader.read(path)
    imported, notes = assemble_runs(cases, reader.rankings, reader.unjudged, missing_run)
    if run_paths:
        notes["ranking order"] = ORDER_NOTES["score"]
    description = f"Imported from the BEIR folder {folder.name!r}, split {split!r}"
    if run_paths:
        description += f", with runs {file_names(run_paths)}"
    dataset = Dataset(corpus=corpus, cases=cases, runs=imported, name=name,
                      description=description, ids="open", min_relevance=min_relevance,
                      sources={}, versions={})
    return dataset, notes


def _string(record, key, place, *, required=True):
    value = record.get(key)
    if value is None and not required:
        return ""
    if type(value) is not str:
        if key not in record:
            raise DatasetFileError(f"{place}: missing key {key!r}")
        raise DatasetFileError(f"{place}: key {key!r} must be a string; got {show(value)}")
    problem = unicode_problem(value)
    if problem:
        raise DatasetFileError(f"{place}: key {key!r} {problem}")
    return value


def read_corpus(path, max_bytes=MAX_FILE_BYTES):
    """``{_id: text}`` from a BEIR ``corpus.jsonl`` (text ``None`` when blank)."""
    corpus = {}
    with open_input(path, max_bytes) as handle:
        for number, record in records(handle, path, max_bytes):
            place = Line(path, number)
            doc = check_id(_string(record, "_id", place), "key '_id'", path, number)
            title = _string(record, "title", place, required=False)
            text = _string(record, "text", place)
            if doc in corpus:
                raise DatasetFileError(f"{place}: duplicate document id {show(doc)}")
            corpus[doc] = document_text(f"{title}\n\n{text}" if title.strip() else text)
    if not corpus:
        raise DatasetFileError(f"{where(path)}: holds no documents")
    return corpus


def read_qrels_tsv(path, corpus, max_bytes=MAX_FILE_BYTES):
    """``({query-id: {corpus-id: score}}, {query-id: first line})`` from a BEIR qrels file."""
    judged, first_lines, header = {}, {}, False
    for number, line in lines(path, max_bytes):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        fields = line.split("\t")
        if not header:
            if [field.strip() for field in fields] != QRELS_HEADER:
                fail_at(path, number, "expected the header query-id<TAB>corpus-id<TAB>score; "
                                      f"got {show(line)}")
            header = True
            continue
        if len(fields) != 3:
            fail_at(path, number, "expected 3 tab-separated fields (query-id corpus-id "
                                  f"score); got {len(fields)}")
        qid, doc, score = fields
        grades = judged.get(qid)
        if grades is None:
            grades = judged[check_id(qid, "query-id", path, number)] = {}
            first_lines[qid] = number
        if doc in grades:
            first = next(n for n, other in lines(path, max_bytes)
                         if other.rstrip("\r").split("\t")[:2] == [qid, doc])
            fail_at(path, number, f"query {show(qid)} judges document {show(doc)} twice "
                                  f"(first on line {first})")
        if len(grades) == OPEN.max_ids:
            fail_at(path, number, f"query {show(qid)} judges more than {OPEN.max_ids:,} "
                                  "documents, the most a case may hold")
        if doc not in corpus:
            check_id(doc, "corpus-id", path, number)
            fail_at(path, number, f"corpus-id {show(doc)} is not in corpus.jsonl")
        if not is_grade(score.strip()):
            fail_at(path, number, f"score must be an integer grade; got {show(score)}")
        grades[doc] = int(score)
    if not judged:
        raise DatasetFileError(f"{where(path)}: holds no judgements")
    return judged, first_lines


def read_queries(path, wanted, max_bytes=MAX_FILE_BYTES):
    """``{_id: text}`` for the queries of ``queries.jsonl`` that are in ``wanted``."""
    questions = {}
    with open_input(path, max_bytes) as handle:
        for number, record in records(handle, path, max_bytes):
            place = Line(path, number)
            qid = _string(record, "_id", place)
            if qid not in wanted:
                continue
            if qid in questions:
                raise DatasetFileError(f"{place}: duplicate query id {show(qid)}")
            questions[qid] = _string(record, "text", place)
    return questions
