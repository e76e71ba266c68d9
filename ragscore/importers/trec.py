"""TREC qrels and run files (trec_eval, pytrec_eval, ir_measures, ranx) read as trec_eval
reads them, and turned into a dataset.

Qrels lines are ``qid iter docno rel`` (``iter`` ignored; ``rel`` an integer grade, zero or
negative allowed); run lines are ``qid Q0 docno rank score tag`` (``Q0`` and ``rank``
ignored, as trec_eval ignores them; ``tag`` names the system; text after the sixth field is
ignored, as trec_eval ignores it). Fields are separated by the bytes C's ``isspace``
accepts (space, tab, CR, LF, VT, FF); blank lines and lines whose first field starts with
``#`` are skipped.

Each system's ranking of a question is ordered exactly as trec_eval (9.0.8, the version
inside pytrec_eval) orders it: the score is read as C's ``strtod`` reads a whole number
(ASCII digits; decimal, hexadecimal or infinite), stored as a C ``float`` (so ``0.50000001``
and ``0.5`` tie), and ranked descending; ties are broken by docno descending, comparing the
bytes. A score that is not wholly such a number (``1_0``, ``high``, Arabic-Indic digits) is
refused with its line, and so is ``nan``, which trec_eval cannot order. ``max_depth`` keeps
each ranking's best N, as ``trec_eval -M N`` does (after ordering). See ``docs/import.md``.

Two readers give the same rankings: a line-by-line reader, the specification, which names
the first problem with its line; and a columnar one (pyarrow's CSV reader and array
operations) for files laid out plainly (one separator byte between fields, six fields a
line), which hands any file it cannot read cleanly to the line reader.
"""
import re
from math import inf

from ..core.rules import OPEN, fail, show
from ..core.validation import GRADE_RANGE, MAX_GRADE, MIN_GRADE
from ..io.jsonl import MAX_FILE_BYTES, DatasetFileError, where
from ..io.format import Dataset
from ._common import MISSING_NOTE, UNJUDGED_NOTE, assemble_runs, check_max_depth, check_options, \
    fail_at, file_names, open_input, paths_of, stem

__all__ = ["RunReader", "count_trec", "count_trec_noted", "import_trec", "import_trec_columns", "read_qrels",
           "score_of", "trec_float"]

RUN_FIELDS = "qid Q0 docno rank score tag"
#: How a run's lines are ordered into a ranking: by score as trec_eval (the default), or by
#: the rank column (ascending; a tied rank keeps the file's line order).
ORDERS = ("score", "rank")
#: The sentence a dataset's notes keep for each order.
ORDER_NOTES = {
    "score": "score, as trec_eval (descending, as C floats; ties by docno descending)",
    "rank": "rank column (ascending; a tied rank keeps the file's line order), not score"}
QRELS_FIELDS = "qid iter docno rel"
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_HEXADECIMAL = re.compile(r"[+-]?0[xX](?:[0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)"
                          r"(?:[pP][+-]?[0-9]+)?")
_INFINITE = re.compile(r"([+-]?)inf(?:inity)?", re.IGNORECASE)
_NOT_A_NUMBER = re.compile(r"[+-]?nan(?:\([0-9A-Za-z_]*\))?", re.IGNORECASE)
_PREFIX = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F.]+|[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
_INTEGER = re.compile(r"[+-]?[0-9]+")


def is_grade(text):
    """True when ``text`` is a qrels grade: a whole number in ASCII digits (a sign allowed)
    that a label can hold (:data:`~ragscore.core.validation.MIN_GRADE` to ``MAX_GRADE``).

    >>> is_grade("+3"), is_grade("007"), is_grade("1.5"), is_grade("9" * 20)
    (True, True, False, False)
    """
    if _INTEGER.fullmatch(text) is None:
        return False
    digits = text.lstrip("+-").lstrip("0")
    return len(digits) <= 19 and MIN_GRADE <= int(text) <= MAX_GRADE


def score_of(text):
    """A run's score as C's ``strtod`` reads ``text``, when ``text`` is wholly a number;
    else :class:`ValueError` saying why (and what trec_eval, which reads the longest
    number it can and 0 when there is none, would make of it).

    >>> score_of("2.5"), score_of("0x10"), score_of("-inf"), score_of("1e400")
    (2.5, 16.0, -inf, inf)
    >>> score_of("1_0")
    Traceback (most recent call last):
    ValueError: score must be a number as C's strtod reads one (ASCII digits, e.g. 2.5, 1e-3, 0x1p4 or inf); got '1_0' (trec_eval would read 1)
    """
    if _DECIMAL.fullmatch(text):
        return float(text)
    if _HEXADECIMAL.fullmatch(text):
        try:
            return float.fromhex(text)
        except OverflowError:
            return -inf if text.startswith("-") else inf
    found = _INFINITE.fullmatch(text)
    if found:
        return -inf if found.group(1) == "-" else inf
    if _NOT_A_NUMBER.fullmatch(text):
        raise ValueError(f"score must be a number trec_eval can order; got {show(text)} (not "
                         "a number)")
    prefix = _PREFIX.match(text)
    read = "0" if prefix is None else prefix.group()
    raise ValueError("score must be a number as C's strtod reads one (ASCII digits, e.g. "
                     f"2.5, 1e-3, 0x1p4 or inf); got {show(text)} (trec_eval would read "
                     f"{read})")


def trec_float(value):
    """``value`` rounded to a C ``float``, as trec_eval stores a score (overflow gives
    infinity).

    >>> trec_float(0.50000001) == trec_float(0.5), trec_float(16777217.0), trec_float(1e39)
    (True, 16777216.0, inf)
    """
    import struct

    try:
        return struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:  # beyond the largest float: C's conversion gives infinity
        return inf if value > 0 else -inf


def _fields(raw):
    """The whitespace-separated fields of one line (bytes), as C's ``isspace`` splits."""
    return raw.split()


def _text(field, path, number):
    try:
        return field.decode("utf-8")
    except UnicodeDecodeError as error:
        fail_at(path, number, f"not UTF-8 text ({error.reason})")


def _id(field, what, path, number):
    value = _text(field, path, number)
    if not OPEN.is_id(value):
        fail_at(path, number, f"{what} must be {OPEN.expected}; got {show(value)}")
    return value


def _numbered_lines(path, max_bytes, *, size=1 << 20):
    """``(number, bytes of the line)`` for each line of a file (only ``\\n`` ends a line;
    a byte-order mark opening the file is dropped), read ``size`` bytes at a time so that
    an import's progress moves as the lines are parsed."""
    from ..io.jsonl import too_big

    with open_input(path, max_bytes) as handle:
        number, read, rest = 1, 0, b""
        while True:
            chunk = handle.read(size)
            read += len(chunk)
            if read > max_bytes:
                raise too_big(path, max_bytes)
            if not chunk:
                if rest:  # the last line, without its ending
                    yield number, rest
                return
            if not read - len(chunk) and chunk.startswith(b"\xef\xbb\xbf"):
                chunk = chunk[3:]
            lines = (rest + chunk).split(b"\n")
            rest = lines.pop()
            yield from enumerate(lines, start=number)
            number += len(lines)


# ---- qrels ----------------------------------------------------------------------------------

def read_qrels(path, documents, *, max_bytes=MAX_FILE_BYTES, max_ids=OPEN.max_ids,
               engine="columnar"):
    """``{qid: {docno: grade}}`` from the qrels file at ``path``, questions and documents in
    order of first appearance; each docno is entered in ``documents`` (docno to itself, so
    every ranking shares one ``str`` per docno). A grade is a whole number in ASCII digits,
    as trec_eval's ``atol`` reads it whole. ``engine``: as :class:`RunReader`'s (a plainly
    laid-out file read in array operations, any other line by line, with the same result).
    """
    if engine == "columnar":
        from ..engine.columnar.trec import read_plain_qrels

        judged = read_plain_qrels(path, documents, max_bytes=max_bytes, max_ids=max_ids,
                                  is_grade=is_grade)
        if judged is not None:
            return judged
    elif engine != "reference":
        fail("engine", "one of reference, columnar", engine)
    judged, first = {}, {}
    for number, raw in _numbered_lines(path, max_bytes):
        fields = _fields(raw)
        if not fields or fields[0].startswith(b"#"):
            continue
        if len(fields) != 4:
            fail_at(path, number, f"expected 4 whitespace-separated fields ({QRELS_FIELDS}); "
                                  f"got {len(fields)}")
        qid = _id(fields[0], "qid", path, number)
        docno = _id(fields[2], "docno", path, number)
        rel = _text(fields[3], path, number)
        grades = judged.setdefault(qid, {})
        if docno in grades:
            fail_at(path, number, f"question {show(qid)} judges document {show(docno)} twice "
                                  f"(first on line {first[qid, docno]})")
        if not is_grade(rel):
            fail_at(path, number, f"rel must be an integer grade {GRADE_RANGE}; got "
                                  f"{show(rel)}")
        if len(grades) == max_ids:
            fail_at(path, number, f"question {show(qid)} judges more than {max_ids:,} "
                                  "documents, the most a case may hold")
        first[qid, docno] = number
        grades[documents.setdefault(docno, docno)] = int(rel)
    if not judged:
        raise DatasetFileError(f"{where(path)}: holds no judgements")
    return judged


# ---- runs -----------------------------------------------------------------------------------

class RunReader:
    """Reads TREC run files into rankings ordered as trec_eval orders them.

    ``keep``: the questions to keep (those with labels); the others are checked line by
    line, counted per system in ``unjudged`` and dropped. ``documents``: docno to the one
    ``str`` kept for it. With ``known_as=None`` new docnos join ``documents`` (the corpus
    grows, in order of first appearance); otherwise ``documents`` is the corpus and
    ``known_as`` names where it comes from, for the error naming a docno outside it.
    ``max_depth``: keep each ranking's best N (``trec_eval -M``); ``max_ids``: the longest
    ranking allowed (a longer one is refused, unless ``max_depth`` cuts it first).
    ``engine``: ``"columnar"`` (the default) reads a plainly laid-out file in array
    operations and any other file line by line; ``"reference"`` reads every file line by
    line. Both give the same rankings and the same errors.

    After :meth:`read`, ``rankings[system][question]`` is a tuple of docnos, best first,
    ``unjudged[system]`` the set of dropped questions, ``origin[system]`` the file and
    line where the system's tag first appears, and ``read_by[path]`` how the file was read
    (``"columnar"`` or ``"lines"``).
    """

    def __init__(self, keep, documents, *, known_as=None, max_bytes=MAX_FILE_BYTES,
                 max_ids=OPEN.max_ids, max_depth=None, engine="columnar", order="score"):
        check_max_depth(max_depth)
        if order not in ORDERS:
            fail("order", f"one of {', '.join(ORDERS)}", order)
        self.order = order
        if engine not in ("columnar", "reference"):
            fail("engine", "one of reference, columnar", engine)
        self.keep, self.documents, self.known_as = keep, documents, known_as
        self.max_bytes, self.max_ids, self.max_depth = max_bytes, max_ids, max_depth
        self.engine = engine
        self.rankings, self.unjudged, self.origin, self.read_by = {}, {}, {}, {}

    def read(self, path):
        """Read one run file (it may hold several tags, each a system)."""
        found = None
        if self.engine == "columnar" and self.order == "score":
            from ..engine.columnar.trec import read_plain_run

            found = read_plain_run(self, path)
        self.read_by[path] = "columnar" if found is not None else "lines"
        if found is None:
            found = self._read_lines(path)
        origin, rankings, unjudged = found
        self.origin.update(origin)
        for tag in origin:
            self.rankings[tag] = rankings.get(tag, {})
            self.unjudged[tag] = unjudged.get(tag, set())

    # the specification: line by line ---------------------------------------------------------

    def _read_lines(self, path):
        """``(origin, rankings, unjudged)`` of one file, read line by line; the first
        problem raises naming its line."""
        origin, groups, unjudged = {}, {}, {}
        for number, raw in _numbered_lines(path, self.max_bytes):
            fields = _fields(raw)
            if not fields or fields[0].startswith(b"#"):
                continue
            if len(fields) < 6:
                fail_at(path, number, "expected at least 6 whitespace-separated fields "
                                      f"({RUN_FIELDS}; trec_eval ignores any after the "
                                      f"sixth); got {len(fields)}")
            qid = _id(fields[0], "qid", path, number)
            docno = _id(fields[2], "docno", path, number)
            tag = _id(fields[5], "tag", path, number)
            try:
                score = score_of(_text(fields[4], path, number))
            except ValueError as error:
                fail_at(path, number, str(error))
            if self.order == "rank":
                rank = _text(fields[3], path, number)
                if not (rank.isascii() and rank.isdigit()):
                    fail_at(path, number, f"rank must be a whole number 0 or above (--order "
                                          f"rank orders by it); got {show(rank)}")
                score = int(rank)
            if tag not in origin:
                if tag in self.origin:
                    fail_at(path, number, f"system {show(tag)} (the run's tag) is also in "
                                          f"{where(*self.origin[tag])}; each system's run "
                                          "must be in one file")
                origin[tag] = (path, number)
                unjudged[tag] = set()
            if qid not in self.keep:
                unjudged[tag].add(qid)
                continue
            if self.known_as is not None and docno not in self.documents:
                fail_at(path, number, f"document {show(docno)} is not in {self.known_as}")
            groups.setdefault((tag, qid), []).append((trec_float(score), docno, number))
        if not origin:
            raise DatasetFileError(f"{where(path)}: holds no run lines")
        rankings = {tag: {} for tag in origin}
        for (tag, qid), rows in groups.items():
            if self.order == "rank":  # rank ascending; a tied rank keeps the file's order
                rows.sort(key=lambda row: (row[0], row[2]))
            else:
                rows.sort(key=_trec_order, reverse=True)
            if self.max_depth is not None:
                del rows[self.max_depth:]
            self._check_ranking(path, tag, qid, rows)
            rankings[tag][qid] = rows
        if self.known_as is None:  # the corpus grows in order of first appearance
            setdefault = self.documents.setdefault
            for _, docno in sorted((number, docno) for rows in groups.values()
                                   for _, docno, number in rows):
                setdefault(docno, docno)
        shared = self.documents
        for ranked in rankings.values():
            for qid, rows in ranked.items():
                ranked[qid] = tuple(shared[docno] for _, docno, _ in rows)
        return origin, rankings, unjudged

    def _check_ranking(self, path, tag, qid, rows):
        """Refuse a docno ranked twice, or a ranking longer than ``max_ids``, naming the
        line (the later of the two lines of a repeated docno)."""
        first = {}
        for _, docno, number in sorted(rows, key=lambda row: row[2]):
            if docno in first:
                fail_at(path, number, f"document {show(docno)} is ranked twice for question "
                                      f"{show(qid)} by system {show(tag)} (first on line "
                                      f"{first[docno]})")
            first[docno] = number
        if len(rows) > self.max_ids:
            line = sorted(number for _, _, number in rows)[self.max_ids]
            fail_at(path, line, f"question {show(qid)} of system {show(tag)} ranks more than "
                                f"{self.max_ids:,} documents, the most a ranking may hold; "
                                f"keep each question's top {self.max_ids:,} (--max-depth)")


def _trec_order(row):
    """The key trec_eval sorts a ranking by, descending: the score as a C float, then the
    docno's bytes."""
    return row[0], row[1].encode("utf-8")


# ---- the importer ---------------------------------------------------------------------------

def import_trec(qrels, runs, *, min_relevance=1, missing_run="zero", name=None,
                max_depth=None, engine="columnar", max_bytes=MAX_FILE_BYTES, order="score"):
    """Import TREC qrels and run files; return ``(dataset, notes)``.

    ``qrels``: a qrels file (``qid iter docno rel``). ``runs``: a run file or a sequence of
    them (``qid Q0 docno rank score tag``); each tag is a system, and a tag may not appear
    in two files. Every judged question becomes a case whose ``relevant`` maps each judged
    docno to its grade (judged relevant at ``min_relevance`` or more, as ``trec_eval -l``);
    the corpus is every docno of the qrels and of the kept rankings, without text. Runs
    carry rankings only (no claims: the answer is not assessed). ``max_depth`` keeps each
    ranking's best N (``trec_eval -M``); ``engine`` is :class:`RunReader`'s. ``order``:
    ``"score"`` (trec_eval's order, the default) or ``"rank"`` (the rank column); the notes
    say which (``notes["ranking order"]``).

    Dropped, and counted in ``notes``: questions of a run that have no qrels
    (``"run questions without qrels"``, per system). A judged question a system's run
    lacks (``"judged questions missing from a run"``) gets an empty ranking with
    ``missing_run="zero"`` (``trec_eval -c``) or no run with ``"skip"``.

    >>> import pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "qrels.txt").write_text("q1 0 d1 2\\nq1 0 d3 0\\nq2 0 d2 1\\n")
    >>> _ = (folder / "bm25.run").write_text(
    ...     "q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d3 2 2.5 bm25\\nq9 Q0 d2 1 1.0 bm25\\n")
    >>> dataset, notes = import_trec(folder / "qrels.txt", folder / "bm25.run")
    >>> dataset.runs["q1"]["bm25"]["retrieved"]  # a tie at 2.5: docno descending
    ('d3', 'd1')
    >>> dataset.cases["q1"]["relevant"], dataset.runs["q2"]["bm25"]["retrieved"]
    ({'d1': 2, 'd3': 0}, ())
    >>> notes["run questions without qrels"], notes["judged questions missing from a run"]
    ({'bm25': 1}, {'bm25': 1})
    >>> shutil.rmtree(folder)
    """
    name = check_options(name=name, default_name=stem(qrels), missing_run=missing_run,
                         min_relevance=min_relevance)
    run_paths = paths_of(runs, "runs")
    documents = {}
    judged = read_qrels(qrels, documents, max_bytes=max_bytes, engine=engine)
    reader = RunReader(judged, documents, max_bytes=max_bytes, max_depth=max_depth,
                       engine=engine, order=order)
    for path in run_paths:
        reader.read(path)
    cases = {qid: {"question": "", "relevant": grades} for qid, grades in judged.items()}
    imported, notes = assemble_runs(cases, reader.rankings, reader.unjudged, missing_run)
    dataset = Dataset(corpus=dict.fromkeys(documents), cases=cases, runs=imported, name=name,
                      description=_description(qrels, run_paths), ids="open",
                      min_relevance=min_relevance, sources={}, versions={})
    return dataset, _noted(notes, order, max_depth)


def _description(qrels, run_paths):
    description = f"Imported from TREC qrels {file_names([qrels])}"
    if run_paths:
        description += f" and runs {file_names(run_paths)}"
    return description


def _noted(notes, order, max_depth):
    notes["ranking order"] = ORDER_NOTES[order]
    if max_depth is not None:
        notes["max_depth"] = max_depth
    return notes


def import_trec_columns(qrels, runs, *, min_relevance=1, missing_run="zero", name=None,
                        max_depth=None, max_bytes=MAX_FILE_BYTES):
    """:func:`import_trec` (trec_eval's order, the columnar reader), its dataset kept in
    columns: the corpus, cases and runs are read-only mappings over the arrays
    (:mod:`ragscore.engine.columnar.trec_folder`), which :func:`ragscore.save_dataset`
    writes from the arrays, byte for byte as it writes :func:`import_trec`'s dataset. Files
    the columnar reader does not take are read by :func:`import_trec`, line by line."""
    from ..engine.columnar.screens import Unclean
    from ..engine.columnar.trec_columns import read_trec_columns
    from ..engine.columnar.trec_folder import TrecCases, TrecCorpus, TrecRuns

    name = check_options(name=name, default_name=stem(qrels), missing_run=missing_run,
                         min_relevance=min_relevance)
    check_max_depth(max_depth)
    run_paths = paths_of(runs, "runs")
    try:
        columns = read_trec_columns(qrels, run_paths, is_grade=is_grade,
                                    missing_run=missing_run, max_depth=max_depth,
                                    max_bytes=max_bytes)
    except Unclean:
        return import_trec(qrels, run_paths, min_relevance=min_relevance,
                           missing_run=missing_run, name=name, max_depth=max_depth,
                           max_bytes=max_bytes)
    notes = {UNJUDGED_NOTE: columns.unjudged, MISSING_NOTE: columns.missing,
             "missing_run": missing_run}
    dataset = Dataset(corpus=TrecCorpus(columns), cases=TrecCases(columns),
                      runs=TrecRuns(columns), name=name,
                      description=_description(qrels, run_paths), ids="open",
                      min_relevance=min_relevance, sources={}, versions={})
    return dataset, _noted(notes, "score", max_depth)



def count_trec(qrels, runs, *, min_relevance=1, missing_run="zero", max_depth=None,
               max_bytes=MAX_FILE_BYTES):
    """The counted runs of TREC qrels and run files (:func:`count_trec_noted`'s first
    part)."""
    return count_trec_noted(qrels, runs, min_relevance=min_relevance,
                            missing_run=missing_run, max_depth=max_depth,
                            max_bytes=max_bytes)[0]


def count_trec_noted(qrels, runs, *, min_relevance=1, missing_run="zero", max_depth=None,
                     max_bytes=MAX_FILE_BYTES):
    """``(counted, left_out)``: the counted runs (a
    :class:`~ragscore.engine.counted.Counted`) of TREC qrels and run files, and
    ``left_out[system]``, how many questions of each run (every tag read) have no qrels
    line and were dropped, as trec_eval drops them. The counted runs are what
    :func:`import_trec` and then
    :func:`~ragscore.engine.count_dataset` give, read straight into columns
    (:mod:`ragscore.engine.columnar.trec_columns`: codes to the kernels, no dataset of
    Python objects in between). Files not laid out plainly, or holding anything a line
    reader must name (or a negative grade), are read line by line (:func:`import_trec`),
    which names the file, the line and the field.

    >>> import pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "qrels.txt").write_text("q1 0 d1 2\\nq1 0 d3 0\\nq2 0 d2 1\\n")
    >>> _ = (folder / "bm25.run").write_text("q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d3 2 2.5 bm25\\n")
    >>> from ragscore.core.metrics import REGISTRY
    >>> counted, left_out = count_trec_noted(folder / "qrels.txt", folder / "bm25.run")
    >>> counted.keys, counted.values(REGISTRY["rr"], 10)  # a tie at 2.5: d3 ranks first
    ([('q1', 'bm25'), ('q2', 'bm25')], [0.5, 0.0])
    >>> left_out
    {'bm25': 0}
    >>> shutil.rmtree(folder)
    """
    check_options(name="counted", default_name="counted", missing_run=missing_run,
                  min_relevance=min_relevance)
    check_max_depth(max_depth)
    from ..engine.columnar import count_batch
    from ..engine.columnar.screens import Unclean
    from ..engine.columnar.trec_columns import pooled_unjudged, read_trec_columns, trec_batch

    run_paths = paths_of(runs, "runs")
    try:
        columns = read_trec_columns(qrels, run_paths, is_grade=is_grade,
                                    missing_run=missing_run, max_depth=max_depth,
                                    max_bytes=max_bytes, corpus=False)
    except Unclean:
        columns = None
    if columns is not None and not pooled_unjudged(columns):
        return (count_batch(trec_batch(columns, min_relevance=min_relevance)),
                dict(columns.unjudged))
    from ..engine import count_dataset

    dataset, notes = import_trec(qrels, run_paths, min_relevance=min_relevance,
                                 missing_run=missing_run, max_depth=max_depth,
                                 max_bytes=max_bytes)
    return count_dataset(dataset, engine="columnar"), dict(notes[UNJUDGED_NOTE])
