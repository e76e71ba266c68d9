"""Ragas evaluation samples (JSON Lines or CSV, one file per system) as a dataset.

Columns read (others, such as ``multi_responses`` or ``rubrics``, are ignored), as Ragas'
``SingleTurnSample`` names them (``src/ragas/dataset_schema.py``):

=========================  =================================  ===========================
column                     becomes                            v0.1 name also accepted
=========================  =================================  ===========================
``id`` (optional)          the case ID (else a hash of         --
                           ``user_input``)
``user_input``             the case's question                ``question``
``reference_context_ids``  the case's relevant IDs (binary)   --
``reference_contexts``     the same, as texts (ID: a hash)    --
``retrieved_context_ids``  the system's ranking               --
``retrieved_contexts``     the same, as texts (ID: a hash)    ``contexts``
``response``               the run's ``answer`` text          ``answer``
``reference``              the case's reference answer        ``ground_truth``
=========================  =================================  ===========================

A reference answer cannot say which contexts are relevant: a file needs reference contexts
or, failing those, reference answers (then nothing is labelled relevant and only the
answer is scored, by exact match and token F1). Ragas documents ``retrieved_contexts`` as
the "contexts retrieved for the query", not as those the response was generated from, so
no delivered context is recorded. The ranking is the list's order.

In a CSV file a list is a JSON array (``["a", "b"]``) or a Python list of strings
(``['a', 'b']``, what ``str(list)``, Ragas' ``to_csv`` and pandas write); the latter is
read by the tokenizer, never evaluated. A NumPy printout (``['a' 'b']``, no commas) is
refused: it cannot be told apart from one string.
"""
import csv
import io
import os
import tokenize
from ast import literal_eval
from pathlib import Path

from ..core.rules import OPEN, InvalidInputError, show
from ..io.format import Dataset
from ..io.jsonl import DECODER, MAX_FILE_BYTES, DatasetFileError, records, where
from ._common import (LIST_ORDER_NOTE, TextCorpus, answer_checked, check_options,
                      check_system, context_id,
                      id_list, lines, open_input, question_id, stem, text_list,
                      unicode_problem)

__all__ = ["import_ragas"]

#: Each field read: the current column name, then older names accepted in its place.
QUESTION = ("user_input", "question")
REFERENCE_IDS, REFERENCE_TEXTS = ("reference_context_ids",), ("reference_contexts",)
RETRIEVED_IDS, RETRIEVED_TEXTS = ("retrieved_context_ids",), ("retrieved_contexts", "contexts")
RESPONSE, REFERENCE = ("response", "answer"), ("reference", "ground_truth")
_LIST_COLUMNS = frozenset(REFERENCE_IDS + REFERENCE_TEXTS + RETRIEVED_IDS + RETRIEVED_TEXTS)


def import_ragas(files_and_systems, *, name=None, max_bytes=MAX_FILE_BYTES):
    """Import Ragas samples, one file per system; return ``(dataset, notes)``.

    ``files_and_systems``: a sequence of ``(path, system)``; a ``.jsonl`` path is read as
    JSON Lines, a ``.csv`` path as CSV. Every file must hold the same questions with the
    same reference contexts (the first file defines them). Each question becomes a case
    (``relevant``: the reference context IDs, binary; no claims expected) and each row the
    run of its file's system (``retrieved``: the retrieved context IDs, in list order;
    ``answer``: the response text; no claims: they are derived or reviewed later). A
    ``reference`` answer becomes the case's ``reference`` (scored by exact match and token
    F1). Contexts given only as text get the ID ``ctx-`` and a hash
    of the text (:func:`~._common.context_id`), and their text becomes corpus text; when
    both IDs and texts are given, the texts become the IDs' corpus text if the lists are
    as long. A repeated ID within a list is an error naming the line (not dropped).
    ``notes`` counts texts left out (see :class:`~._common.TextCorpus`).

    >>> import json, pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "dense.jsonl").write_text(json.dumps({
    ...     "user_input": "Which beacon is red?", "reference_context_ids": ["n1"],
    ...     "retrieved_context_ids": ["n2", "n1"], "response": "The north one."}) + "\\n")
    >>> _ = (folder / "bm25.csv").write_text(
    ...     "user_input,reference_context_ids,retrieved_context_ids,response\\n"
    ...     "Which beacon is red?,\\"['n1']\\",\\"['n1']\\",North.\\n")
    >>> dataset, notes = import_ragas([(folder / "dense.jsonl", "dense"),
    ...                                (folder / "bm25.csv", "bm25")])
    >>> dataset.runs['323c06eef2c7']['dense']
    {'retrieved': ('n2', 'n1'), 'answer': 'The north one.'}
    >>> shutil.rmtree(folder)
    """
    pairs = _pairs(files_and_systems)
    name = check_options(name=name, default_name=stem(pairs[0][0]))
    corpus = TextCorpus()
    cases, firsts, runs = {}, {}, {}
    first_path = pairs[0][0]
    for index, (path, system) in enumerate(pairs):
        seen = {}
        for number, row in _rows(path, max_bytes):
            place = where(path, number)
            case, question, relevant, retrieved = _sample(row, place, corpus)
            answer, reference = _answer(row, place)
            if case in seen:
                raise DatasetFileError(f"{place}: question {show(case)} is already on "
                                       f"line {seen[case]}")
            seen[case] = number
            if index == 0:
                cases[case] = {"question": question, "relevant": relevant}
                if reference is not None:
                    cases[case]["reference"] = reference
                firsts[case] = number
            else:
                _same_question(cases, firsts, first_path, place, case, question, relevant)
                if cases[case].get("reference") != reference:
                    raise DatasetFileError(
                        f"{place}: question {show(case)} has reference answer "
                        f"{show(reference)} here but {show(cases[case].get('reference'))} at "
                        f"{where(Path(first_path).name, firsts[case])}")
            run = {"retrieved": retrieved}
            if answer is not None:
                run["answer"] = answer
            runs.setdefault(case, {})[system] = answer_checked(run, place)
        if not seen:
            raise DatasetFileError(f"{where(path)}: holds no samples")
        absent = next((case for case in cases if case not in seen), None)
        if absent is not None:
            raise DatasetFileError(
                f"{where(path)}: question {show(absent)} ({show(cases[absent]['question'])}"
                f", {where(Path(first_path).name, firsts[absent])}) is not in this file; "
                "every file must hold the same questions")
    if not corpus.texts:
        raise DatasetFileError(f"{where(first_path)}: names no contexts")
    dataset = Dataset(corpus=corpus.texts, cases=cases, runs=runs, name=name,
                      description="Imported from Ragas samples " + ", ".join(
                          f"{Path(path).name!r} (system {system!r})" for path, system in pairs),
                      ids="open", min_relevance=1, sources={}, versions={})
    return dataset, {**corpus.notes(), "ranking order": LIST_ORDER_NOTE}


def _pairs(files_and_systems):
    try:
        pairs = [tuple(pair) for pair in files_and_systems]
    except TypeError:
        pairs = None
    if not pairs or any(len(pair) != 2 or not isinstance(pair[0], (str, os.PathLike))
                        for pair in pairs):
        raise InvalidInputError("files_and_systems must be a non-empty sequence of (path, "
                                f"system) pairs; got {show(files_and_systems)}")
    seen = set()
    for path, system in pairs:
        check_system(system)
        if system in seen:
            raise InvalidInputError(f"system {show(system)} is given for two files")
        seen.add(system)
        if Path(path).suffix.lower() not in (".jsonl", ".csv"):
            raise InvalidInputError(f"{where(path)}: expected a .jsonl or .csv file")
    return pairs


def _same_question(cases, firsts, first_path, place, case, question, relevant):
    """Refuse a question that the first file does not hold, or holds differently."""
    first = where(Path(first_path).name, firsts.get(case))
    if case not in cases:
        raise DatasetFileError(f"{place}: question {show(case)} ({show(question)}) is not in "
                               f"{where(Path(first_path).name)}; every file must hold the "
                               "same questions")
    if question != cases[case]["question"]:
        raise DatasetFileError(f"{place}: question {show(case)} reads {show(question)} here "
                               f"but {show(cases[case]['question'])} at {first}")
    if set(relevant) != set(cases[case]["relevant"]):
        raise DatasetFileError(f"{place}: question {show(case)} has reference contexts "
                               f"{show(relevant)} here but {show(cases[case]['relevant'])} "
                               f"at {first}")


def _field(row, names):
    """``(name, value)`` of the first of ``names`` present and not empty in ``row``."""
    for name in names:
        value = row.get(name)
        if value is not None and value != "":
            return name, value
    return names[0], None


def _contexts(row, ids_names, texts_names, what, place, corpus):
    """The ranked IDs of one side (reference or retrieved) and whether they came as text."""
    id_name, ids = _field(row, ids_names)
    text_name, texts = _field(row, texts_names)
    if ids is None and texts is None:
        raise DatasetFileError(f"{place}: missing {what} contexts: expected column "
                               f"{ids_names[0]!r} or {texts_names[0]!r}")
    if texts is not None:
        texts = text_list(texts, f"column {text_name!r}", place)
    if ids is not None:
        ids = id_list(ids, f"column {id_name!r}", place)
        corpus.add(ids, texts)
        return ids, False
    ids = id_list([context_id(text) for text in texts], f"column {text_name!r} (as hashes)",
                  place)
    corpus.add(ids, texts)
    return ids, True


def _answer(row, place):
    """``(answer, reference)`` of one row: the response text (``None``: no column) and the
    reference answer as a 1-tuple (``None``: none given)."""
    found = []
    for names, blank in ((RESPONSE, True), (REFERENCE, False)):
        name = next((name for name in names if name in row and row[name] is not None),
                    names[0])
        value = row.get(name)
        if value is None or (value == "" and not blank):
            found.append(None)
            continue
        if type(value) is not str or unicode_problem(value):
            raise DatasetFileError(f"{place}: column {name!r} must be a string; got "
                                   f"{show(value)}")
        found.append(value if names is RESPONSE else (value,))
    return tuple(found)


def _sample(row, place, corpus):
    """``(case, question, relevant, retrieved)`` from one row."""
    question_name, question = _field(row, QUESTION)
    if type(question) is not str or not question.strip():
        raise DatasetFileError(f"{place}: column {question_name!r} must be a non-blank "
                               f"string; got {show(question)}")
    problem = unicode_problem(question)
    if problem:
        raise DatasetFileError(f"{place}: column {question_name!r} {problem}")
    retrieved, retrieved_as_text = _contexts(row, RETRIEVED_IDS, RETRIEVED_TEXTS, "retrieved",
                                             place, corpus)
    if _field(row, REFERENCE)[1] is not None and all(
            _field(row, names)[1] is None for names in (REFERENCE_IDS, REFERENCE_TEXTS)):
        relevant, relevant_as_text = (), retrieved_as_text  # a reference answer only
    else:
        relevant, relevant_as_text = _contexts(row, REFERENCE_IDS, REFERENCE_TEXTS,
                                               "reference", place, corpus)
    if relevant_as_text != retrieved_as_text:
        raise DatasetFileError(
            f"{place}: reference contexts come as {'texts' if relevant_as_text else 'IDs'} "
            f"and retrieved ones as {'texts' if retrieved_as_text else 'IDs'}, which cannot "
            "be matched; give both as IDs or both as texts")
    case = row.get("id")
    if case is None or case == "":
        case = question_id(question)
    elif type(case) is int:
        case = str(case)
    if not OPEN.is_id(case) or unicode_problem(case):
        raise DatasetFileError(f"{place}: column 'id' must be {OPEN.expected}; got "
                               f"{show(case)}")
    return case, question, relevant, retrieved


# ---- files ----------------------------------------------------------------------------------

def _rows(path, max_bytes):
    """Yield ``(line number, row)``: objects of a JSON Lines file, or rows of a CSV file
    (list columns parsed)."""
    return rows_of(path, max_bytes, _LIST_COLUMNS)


def rows_of(path, max_bytes, list_columns, maybe_list=None):
    """Yield ``(line number, row)``: objects of a JSON Lines file, or rows of a CSV file
    whose ``list_columns`` are parsed as lists (and the ``maybe_list`` column too when its
    cell starts with ``[``)."""
    if Path(path).suffix.lower() == ".jsonl":
        with open_input(path, max_bytes) as handle:
            yield from records(handle, path, max_bytes)
        return
    yield from _csv_rows(path, max_bytes, list_columns, maybe_list)


def _csv_rows(path, max_bytes, list_columns, maybe_list):
    at = [0]  # the number of the last line the CSV reader has taken

    def source():
        for number, line in lines(path, max_bytes, keepends=True):
            at[0] = number
            yield line

    reader = csv.reader(source(), strict=True)
    try:
        header = next(reader, None)
        if header is None:
            raise DatasetFileError(f"{where(path)}: holds no header line")
        header = [name.strip() for name in header]
        repeated = next((name for position, name in enumerate(header)
                         if name in header[:position]), None)
        if repeated is not None:
            raise DatasetFileError(f"{where(path, 1)}: column {show(repeated)} appears twice "
                                   "in the header")
        end = at[0]
        for cells in reader:
            start, end = end + 1, at[0]
            if not cells:
                continue
            if len(cells) != len(header):
                raise DatasetFileError(f"{where(path, start)}: expected {len(header)} fields as "
                                       f"in the header; got {len(cells)}")
            row = {}
            for column, cell in zip(header, cells):
                listed = column in list_columns or (
                    column == maybe_list and cell.lstrip().startswith("["))
                row[column] = (_list_cell(cell, column, where(path, start))
                               if listed and cell.strip() else cell)
            yield start, row
    except csv.Error as error:
        raise DatasetFileError(f"{where(path, at[0])}: not valid CSV ({error})") from None


def _list_cell(cell, column, place):
    """The list of strings a CSV cell holds: a JSON array or a Python list literal."""
    text = cell.strip()
    try:
        value = DECODER.decode(text)
    except RecursionError:  # nested too deeply: not a list of strings
        value = None
    except ValueError:
        value = _python_strings(text)
    if type(value) is not list or not all(type(item) is str for item in value):
        hint = (" (it looks like a NumPy printout; write the lists as JSON)"
                if text.startswith("[") and "," not in text and text.count("'") > 2 else "")
        raise DatasetFileError(f"{place}: column {column!r} must be a JSON array of strings "
                               f"or a Python list of strings; got {show(cell)}{hint}")
    return value


_SKIPPED = frozenset({tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                      tokenize.ENDMARKER, tokenize.COMMENT})


def _python_strings(text):
    """The strings of a Python list literal of string literals (``['a', "b"]``), or
    ``None``. Tokens are checked one by one; only single string tokens are decoded."""
    try:
        tokens = [token for token in tokenize.generate_tokens(io.StringIO(text).readline)
                  if token.type not in _SKIPPED]
    except (tokenize.TokenError, SyntaxError):
        return None
    if len(tokens) < 2 or tokens[0].string != "[" or tokens[-1].string != "]":
        return None
    values, expect_string = [], True
    for token in tokens[1:-1]:
        if expect_string and token.type == tokenize.STRING:
            try:
                value = literal_eval(token.string)
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                return None
            if type(value) is not str:
                return None
            values.append(value)
            expect_string = False
        elif not expect_string and token.type == tokenize.OP and token.string == ",":
            expect_string = True
        else:
            return None
    return values  # a trailing comma (['a',]) is allowed, as in Python
