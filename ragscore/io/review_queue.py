"""The review queue: the derived claims awaiting a judgement, out to a file and back.

:func:`review_queue` lists, once per question and normalised claim text
(:func:`ragscore.core.answers.normalise`), every derived claim of a system's answers that no
person has judged yet, with what a reviewer needs beside it: the question, the claim as
written, its cited IDs with their passages, the markers' findings and the expected claims.
:func:`write_queue` writes it as JSON Lines or CSV; :func:`read_decisions` reads a filled-in
file back, refusing any bad row with its line and field; :func:`add_judgements` puts the
decisions into the cases' ``reviews`` (format version 4), ready to save.
"""
import csv
import io
import json
import re

from ..core.answers import ANSWER_DECISIONS, normalise
from ..core.rules import InvalidInputError, show
from .answers import derived_claims
from .judgements import check_judgement

#: The columns of a queue file, in order.
COLUMNS = ("case", "question", "key", "claim", "citations", "passages", "findings",
           "expected", "decision", "states", "sources", "reviewer", "date", "note")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def review_queue(dataset, *, system=None, split="sentence", pattern=None, everything=False):
    """The rows awaiting a person's review (dicts with :data:`COLUMNS`), in the dataset's
    order, each (question, normalised text) once; ``everything``: every claim, judged or
    not."""
    systems = None if system is None else {system}
    if system is not None and system not in dataset.systems:
        raise InvalidInputError(f"system {show(system)} is not in the dataset (its systems: "
                                f"{', '.join(dataset.systems) or 'none'})")
    from ..core.answers import judgements_of

    judged = judgements_of(dataset.cases)
    rows, seen = [], set()
    for case_name, _, _, derived in derived_claims(dataset, systems=systems, split=split,
                                                   pattern=pattern):
        case = dataset.cases[case_name]
        question = case.get("question", "")
        for claim in derived.claims:
            key = normalise(claim.text)
            if (not everything and (question, key) in judged) or (question, key) in seen:
                continue
            seen.add((question, key))
            rows.append({
                "case": case_name, "question": question, "key": key, "claim": claim.text,
                "citations": list(claim.citations),
                "passages": {doc: dataset.corpus.get(doc) or "" for doc in claim.citations},
                "findings": list(claim.findings),
                "expected": {name: list(sources)
                             for name, sources in (case.get("support") or {}).items()},
                "decision": "", "states": "", "sources": [], "reviewer": "", "date": "",
                "note": ""})
    return rows


def write_queue(rows, *, kind="jsonl"):
    """The queue as text: JSON Lines (one object a line) or CSV (lists and objects as JSON
    inside their cell)."""
    if kind == "jsonl":
        return "".join(json.dumps(row, ensure_ascii=False, sort_keys=False) + "\n"
                       for row in rows)
    if kind != "csv":
        raise InvalidInputError(f"queue format must be jsonl or csv; got {show(kind)}")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([row[name] if type(row[name]) is str else
                         json.dumps(row[name], ensure_ascii=False) for name in COLUMNS])
    return buffer.getvalue()


def _csv_rows(text):
    reader = csv.DictReader(io.StringIO(text))
    missing = [name for name in ("case", "key", "decision") if name not in
               (reader.fieldnames or ())]
    if missing:
        raise InvalidInputError(f"line 1: the header lacks column {show(missing[0])}")
    for number, row in enumerate(reader, 2):
        if None in row:
            raise InvalidInputError(f"line {number}: more cells than the header has columns")
        sources = row.get("sources") or "[]"
        try:
            row["sources"] = json.loads(sources)
        except ValueError:
            raise InvalidInputError(f"line {number}: field 'sources' must be a JSON array of "
                                    f"IDs; got {show(sources)}") from None
        yield number, row


def _jsonl_rows(text):
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as error:
            raise InvalidInputError(f"line {number}: not JSON ({error.msg})") from None
        if type(row) is not dict:
            raise InvalidInputError(f"line {number}: expected an object; got {show(row)}")
        yield number, row


def read_decisions(text, dataset, *, kind, reviewer=None, date=None):
    """``{case: [judgement record]}`` from a filled-in queue file's ``text`` (``kind``
    ``jsonl`` or ``csv``); rows with an empty decision are skipped (still to review). Every
    refusal names the line and the field."""
    rows = _csv_rows(text) if kind == "csv" else _jsonl_rows(text)
    found, pooled = {}, {}
    for number, row in rows:
        at = f"line {number}"
        decision = row.get("decision") or ""
        if not decision:
            continue
        case_name = row.get("case")
        if type(case_name) is not str or case_name not in dataset.cases:
            raise InvalidInputError(f"{at}: field 'case' must name a case of the dataset; got "
                                    f"{show(case_name)}")
        key = row.get("key")
        if type(key) is not str or not key or normalise(key) != key:
            raise InvalidInputError(f"{at}: field 'key' must be a claim's normalised text "
                                    f"(as exported); got {show(key)}")
        if decision not in ANSWER_DECISIONS:
            raise InvalidInputError(f"{at}: field 'decision' must be one of "
                                    f"{', '.join(ANSWER_DECISIONS)} (or empty); got "
                                    f"{show(decision)}")
        record = {"reviewer": row.get("reviewer") or reviewer or "", "text": key,
                  "decision": decision, "date": row.get("date") or date or ""}
        case = dataset.cases[case_name]
        support = case.get("support")
        states = row.get("states") or ""
        sources = row.get("sources") or []
        if type(sources) is not list or any(doc not in dataset.corpus for doc in sources):
            raise InvalidInputError(f"{at}: field 'sources' must be a list of corpus IDs; got "
                                    f"{show(sources)}")
        if support is None and decision == "supported":  # the review labels the question
            states, sources = _pooled_claim(row, at, case, states, sources, dataset,
                                            pooled.setdefault(case_name, set()))
        elif states and states not in support:
            raise InvalidInputError(f"{at}: field 'states' must name an expected claim of "
                                    f"case {show(case_name)} ({', '.join(support) or 'none'}"
                                    f"); got {show(states)}")
        if states:
            record["states"] = states
        if sources:
            record["sources"] = list(sources)
        if row.get("note"):
            record["note"] = str(row["note"])
        if not record["reviewer"]:
            raise InvalidInputError(f"{at}: field 'reviewer' is empty (fill it in or pass "
                                    f"--reviewer)")
        if not _DATE.fullmatch(record["date"]):
            raise InvalidInputError(f"{at}: field 'date' must be YYYY-MM-DD; got "
                                    f"{show(record['date'])}")
        found.setdefault(case_name, []).append(check_judgement(record, at))
    return found


def _pooled_claim(row, at, case, states, sources, dataset, named):
    """``(states, sources)`` of a ``supported`` decision on a question whose answer is not
    labelled: the expected claim it states (as written, else the next free ``claim-N``) and
    its sources (as written, else the claim's cited IDs); ``named``: the names this file
    gave the question so far."""
    from ..core.answers import judgements_of, pooled_labels

    if not sources:
        cited = row.get("citations") or []
        if type(cited) is str:
            try:
                cited = json.loads(cited)
            except ValueError:
                cited = None
        if type(cited) is not list or any(doc not in dataset.corpus for doc in cited):
            raise InvalidInputError(f"{at}: field 'citations' must be a JSON array of corpus "
                                    f"IDs; got {show(row.get('citations'))}")
        sources = cited
    if not sources:
        raise InvalidInputError(f"{at}: field 'sources' is empty and the claim cites nothing: "
                                "a supported claim on a question without expected claims "
                                "labels it, so name the IDs that support it in 'sources'")
    rules = getattr(dataset, "rules", None)
    if states and rules is not None and not rules.claim_match(states):
        raise InvalidInputError(f"{at}: field 'states' must be {rules.expected_claim}; got "
                                f"{show(states)}")
    if not states:
        taken = set(pooled_labels(case.get("question", ""), judgements_of({"": case})))
        taken |= named
        number = len(taken) + 1
        while f"claim-{number}" in taken:
            number += 1
        states = f"claim-{number}"
    named.add(states)
    return states, sources


def add_judgements(dataset, found):
    """``dataset`` with the judgement records ``found`` (``{case: [record]}``) appended to
    their cases' ``reviews``."""
    cases = dict(dataset.cases)
    for case_name, records in found.items():
        case = dict(cases[case_name])
        case["reviews"] = tuple(case.get("reviews") or ()) + tuple(records)
        cases[case_name] = case
    return dataset._replace(cases=cases)
