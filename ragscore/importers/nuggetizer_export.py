"""nuggetizer's nuggets and assignments and TREC RAG answers written from a test set
(:func:`export_nuggets`), as nuggetizer and ragnarok write them: ``json.dumps`` with
Python's defaults, one record a line, keys in their order. A file read by
:func:`ragscore.importers.nuggetizer.import_nuggets` and written back is the same bytes when
its questions and runs come in the test set's order; a question ID the source wrote as a
number (the case's ``numeric_id``) is written back as one.
"""
import io
import json
from pathlib import Path

from ..core.nuggets import assignment_key, nugget_key
from ..io.answers import answer_only, labelled, run_answer_key
from .trec_rag import response_length, write_answers

__all__ = ["export_nuggets", "written_id"]


def written_id(name, case):
    """A case's ID as the source wrote it: a number when its ``numeric_id`` says so.

    >>> written_id("23287", {"numeric_id": True}), written_id("0023", {})
    (23287, '0023')
    """
    return int(name) if case.get("numeric_id") else name


def _assignment(decided, nugget, answer):
    return decided.get(assignment_key(nugget_key(nugget["id"], nugget.get("text")), answer))


def export_nuggets(dataset, *, nuggets=None, assignments=None, answers=None, drafts=False):
    """Write ``dataset``'s nuggets, nugget assignments and TREC RAG answers to the paths
    given (each optional); return ``{what: records written}``, and ``skipped``: answers
    whose nuggets are not all assigned (nuggetizer's layout has no place for that). The
    assignments are people's (``drafts``: a machine's where no person judged)."""
    from ..io.store import write_file_atomically

    order = _run_order(dataset)
    written = {}
    if nuggets is not None:
        lines = [json.dumps({"query": case.get("question", ""), "qid": written_id(name, case),
                             "nuggets": [{"text": item.get("text", item["id"]),
                                          "importance": item.get("importance", "vital")}
                                         for item in case["nuggets"]]}) + "\n"
                 for name, case in dataset.cases.items() if "nuggets" in case]
        write_file_atomically(Path(nuggets), lines)
        written["nuggets"] = len(lines)
    if assignments is not None:
        lines, skipped = _assignment_lines(dataset, order, drafts)
        write_file_atomically(Path(assignments), lines)
        written["assignments"], written["skipped"] = len(lines), skipped
    if answers is not None:
        buffer = io.StringIO()
        written["answers"] = write_answers(buffer, (
            (system, written_id(case, dataset.cases[case]),
             dataset.cases[case].get("question", ""), run)
            for system, case, run in order))
        write_file_atomically(Path(answers), [buffer.getvalue()])
    return written


def _run_order(dataset):
    """``(system, case, run)`` for every single-trial run, system after system (in order of
    first appearance), each system's questions in the test set's order."""
    found = []
    for system in dataset.systems:
        for case, per_case in dataset.runs.items():
            run = per_case.get(system)
            if type(run) is dict:
                found.append((system, case, run))
    return found


def _assignment_lines(dataset, order, drafts):
    decided = labelled(dataset, judges=drafts).nuggets
    lines, skipped = [], 0
    for system, case_name, run in order:
        case = dataset.cases[case_name]
        if "nuggets" not in case or not answer_only(run):
            continue
        answer = run_answer_key(run, dataset.corpus)
        chosen = [_assignment(decided.get(case_name, {}), item, answer)
                  for item in case["nuggets"]]
        if None in chosen:
            skipped += 1
            continue
        sentences = run.get("sentences")
        length = run.get("response_length")
        lines.append(json.dumps({
            "query": case.get("question", ""), "qid": written_id(case_name, case),
            "answer_text": " ".join(text for text, _ in sentences) if sentences is not None
            else run["answer"],
            "response_length": (response_length(sentences) if sentences is not None else 0)
            if length is None else length,
            "run_id": system,
            "nuggets": [{"text": item.get("text", item["id"]),
                         "importance": item.get("importance", "vital"),
                         "assignment": assignment}
                        for item, assignment in zip(case["nuggets"], chosen)]}) + "\n")
    return lines, skipped
