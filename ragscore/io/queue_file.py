"""A filled-in review queue read back and checked against its export.

:func:`read_decisions` reads a filled-in file (JSON Lines or CSV, with or without a UTF-8
byte order mark) and checks every row that holds a decision against the queue of the
dataset as it is now: its ``kind``, ``case`` and ``key`` must name an item the queue offers
(judged or not), its ``doc`` or ``citations`` must be that item's, one item may be decided
once per file, and a file is imported once. The first problem stops the import with its line
and field, and nothing is stored.
"""
import csv
import hashlib
import io
import json
import re
from collections import namedtuple

from ..core.labels import KINDS, check_record, content_key, current, decision_of
from ..core.rules import InvalidInputError, check_date, check_name, show
from .jsonl import DECODER, check_encodable
from .review_queue import COLUMNS, review_queue

__all__ = ["Decisions", "READ_BACK", "add_judgements", "check_queue_output", "read_decisions"]

#: Cells a CSV queue writes so that they read back as they were (:mod:`ragscore.render.queue`).
READ_BACK = ("kind", "case", "doc", "nugget", "key")


def _read_id(cell):
    """A read-back cell's value: a JSON string (as :mod:`ragscore.render.queue` writes an
    ID that needs it) decoded, anything else as it is."""
    if type(cell) is str and cell.startswith('"'):
        try:
            value = json.loads(cell)
        except (ValueError, RecursionError):
            return cell
        return value if type(value) is str else cell
    return cell


def _csv_rows(text):
    reader = csv.DictReader(io.StringIO(text))
    missing = [name for name in ("kind", "case", "key", "decision") if name not in
               (reader.fieldnames or ())]
    if missing:
        raise InvalidInputError(f"line 1: the header lacks column {show(missing[0])} (a queue "
                                f"written by 'ragscore review export' has {', '.join(COLUMNS)})")
    for row in reader:
        number = reader.line_num
        if None in row:
            raise InvalidInputError(f"line {number}: more cells than the header has columns")
        for name in READ_BACK:
            row[name] = _read_id(row.get(name))
        cited = row.get("citations")
        if cited:
            try:
                row["citations"] = DECODER.decode(cited)
            except (ValueError, RecursionError):
                raise InvalidInputError(f"line {number}: field 'citations' must be a JSON "
                                        f"array of IDs (as exported); got {show(cited)}") from None
        yield number, row


def _jsonl_rows(text):
    """``(line number, row)`` of each non-blank line (lines end at ``\\n`` only: a U+2028
    inside a note is text), parsed as a dataset's lines are: a repeated key, NaN, nesting
    too deep or a lone surrogate refused with the line."""
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            row = DECODER.decode(line)
        except RecursionError:
            raise InvalidInputError(f"line {number}: not JSON (nested too deeply)") from None
        except ValueError as error:
            reason = (str(error).splitlines() or [""])[0][:200]
            raise InvalidInputError(f"line {number}: not JSON ({show(reason)[1:-1]})") \
                from None
        if type(row) is not dict:
            raise InvalidInputError(f"line {number}: expected an object; got {show(row)}")
        check_encodable(row, f"line {number}")
        yield number, row


class Decisions(namedtuple("Decisions", "records added replaced unchanged open batch")):
    """A filled-in queue read back: the judgement ``records`` to store, how many are
    ``added`` (all of them), how many of those ``replaced`` the same reviewer's earlier
    decision (which stays in the history), how many rows repeated a reviewer's current
    decision (``unchanged``: not stored again), how many rows are still ``open`` (no
    decision) and the file's ``batch`` (its content hash)."""

    __slots__ = ()


def _grade(cell, at):
    if type(cell) is int:
        return cell
    if type(cell) is str and re.fullmatch(r"-?[0-9]{1,18}", cell.strip()):
        return int(cell)
    raise InvalidInputError(f"{at}: field 'decision' must be a grade for a relevance row (a "
                            f"whole number: 0 not relevant, 1 relevant, 2 highly relevant); "
                            f"got {show(cell)}")


def _record(row, item, at, *, reviewer, date, batch, expected):
    """The judgement record one checked row makes."""
    kind = row["kind"]
    decision = row.get("decision")
    if kind == "relevance":
        decision = _grade(decision, at)
    elif decision not in KINDS[kind].decisions:
        raise InvalidInputError(f"{at}: field 'decision' must be one of "
                                f"{', '.join(KINDS[kind].decisions)} for a {kind} row (or "
                                f"empty: still to review); got {show(decision)}")
    record = {"kind": kind, "case": row["case"], "key": row["key"]}
    for name in KINDS[kind].subject:
        record[name] = item[name] if name != "claim" else item["claim_key_text"]
    record.update(decision=decision, reviewer=row.get("reviewer") or reviewer or "",
                  date=row.get("date") or date or "", origin="human", batch=batch)
    states = row.get("states") or ""
    if states and type(states) is not str:
        raise InvalidInputError(f"{at}: field 'states' must name an expected claim; got "
                                f"{show(states)}")
    if states:
        if kind != "support" or decision != "supported":
            raise InvalidInputError(f"{at}: field 'states' is for a claim judged supported; "
                                    f"got {show(states)} on a {kind} row decided "
                                    f"{show(decision)}")
        if expected is None or states not in expected:
            raise InvalidInputError(
                f"{at}: field 'states' must name an expected claim of case "
                f"{show(row['case'])} ({', '.join(expected or ()) or 'it has none'}); got "
                f"{show(states)}")
        record["states"] = states
    note = row.get("note")
    if note not in (None, ""):
        if type(note) is not str:
            raise InvalidInputError(f"{at}: field 'note' must be text; got {show(note)}")
        record["note"] = note
    if record["reviewer"] == "" or type(record["reviewer"]) is str and \
            not record["reviewer"].strip():
        raise InvalidInputError(f"{at}: field 'reviewer' is empty (fill it in or pass "
                                f"--reviewer)")
    check_name(record["reviewer"], f"{at}: field 'reviewer'")
    check_date(record["date"], f"{at}: field 'date'")
    return check_record(record, at)  # every field, as a save checks it, at its line


def _items(dataset, split, pattern):
    """``{(kind, case, key): what the queue shows of it}`` over every item the queue can
    offer, judged or not, at any pool depth."""
    from ..core.answers import normalise

    items = {}
    for row in review_queue(dataset, pool_depth=None, split=split, pattern=pattern,
                            everything=True, citations=True):
        item = (row["kind"], row["case"], row["key"])
        items[item] = dict(row, claim_key_text=normalise(row["claim"]))
    return items


def _matches(row, item, at):
    """Refuse a row whose subject is not its item's (moved, edited)."""
    kind = row["kind"]
    if kind == "nugget" and row.get("nugget", item["nugget"]) != item["nugget"]:
        raise InvalidInputError(f"{at}: field 'nugget' must be the nugget this key was "
                                f"exported for ({show(item['nugget'])}); got "
                                f"{show(row.get('nugget'))}")
    if kind in ("relevance", "citation") and row.get("doc") != item["doc"]:
        raise InvalidInputError(f"{at}: field 'doc' must be the passage this key was exported "
                                f"for ({show(item['doc'])}); got {show(row.get('doc'))}")
    if kind == "support" and row.get("citations", item["citations"]) != item["citations"]:
        raise InvalidInputError(f"{at}: field 'citations' must be the claim's citations as "
                                f"exported ({show(item['citations'])}); got "
                                f"{show(row.get('citations'))}")


def read_decisions(text, dataset, *, kind, reviewer=None, date=None, split="sentence",
                   pattern=None):
    """The :class:`Decisions` of a filled-in queue file's ``text`` (``kind`` ``jsonl`` or
    ``csv``) for ``dataset`` as it is now; rows with an empty decision are still to review.
    Every refusal names the line and the field."""
    batch = content_key("queue file", hashlib.sha256(text.encode("utf-8")).hexdigest())
    if any(record["batch"] == batch for record in dataset.judgements):
        raise InvalidInputError("line 1: this file was already imported (the same bytes, batch "
                                f"{batch}); nothing stored")
    text = text[1:] if text.startswith("\ufeff") else text
    rows = _csv_rows(text) if kind == "csv" else _jsonl_rows(text)
    items, mine = None, current(dataset.judgements).items
    records, seen, replaced, unchanged, still_open = [], {}, 0, 0, 0
    for number, row in rows:
        at = f"line {number}"
        if row.get("decision") in ("", None):
            still_open += 1
            continue
        if items is None:
            items = _items(dataset, split, pattern)
        if type(row.get("kind")) is not str or row["kind"] not in KINDS:
            raise InvalidInputError(f"{at}: field 'kind' must be one of {', '.join(KINDS)}; "
                                    f"got {show(row.get('kind'))}")
        item = (row["kind"], row.get("case"), row.get("key"))
        if type(item[1]) is not str or type(item[2]) is not str or item not in items:
            field = "case" if not any(key[1] == item[1] for key in items) else "key"
            raise InvalidInputError(
                f"{at}: field {field!r}: no {row['kind']} item of this test set has case "
                f"{show(item[1])} and key {show(item[2])} (a row moved to another case, an "
                f"edited key, or a test set changed since the export)")
        _matches(row, items[item], at)
        record = _record(row, items[item], at, reviewer=reviewer, date=date, batch=batch,
                         expected=dataset.cases[item[1]].get("support"))
        if item in seen:
            first, decided = seen[item]
            what = ("the same decision again" if decided == decision_of(record) else
                    f"another decision ({show(decided)} there)")
            raise InvalidInputError(f"{at}: field 'key': this item was already decided on "
                                    f"line {first} of this file, {what}; one decision per "
                                    "item and file")
        seen[item] = (number, decision_of(record))
        earlier = mine.get(item, {}).get(record["reviewer"])
        if earlier is not None and decision_of(earlier) == decision_of(record):
            unchanged += 1
            continue
        replaced += earlier is not None
        records.append(record)
    return Decisions(tuple(records), len(records), replaced, unchanged, still_open, batch)


def add_judgements(dataset, records):
    """``dataset`` with judgement ``records`` (a :class:`Decisions`, or records) added after
    its own, checked as a save checks them."""
    if isinstance(records, Decisions):
        records = records.records
    return dataset._replace(judgements=tuple(dataset.judgements) + tuple(records))


def check_queue_output(value, *, flag, inputs=(), overwrite=False, decisions=False):
    """The :class:`~pathlib.Path` a command writes a review queue to (``flag``: its option),
    checked as every output is (:func:`ragscore.io.outputs.check_output_file`: a file
    holding a reviewer's decisions is replaced only with ``decisions``,
    ``--overwrite-decisions``) and, when a file is there already, refused unless
    ``overwrite`` (``--overwrite``; ``--overwrite-decisions`` implies it)."""
    from .jsonl import where
    from .outputs import check_output_file

    path = check_output_file(value, flag=flag, inputs=inputs, decisions=decisions)
    if path.exists() and not (overwrite or decisions):
        raise InvalidInputError(f"{flag} {where(value)} already exists; pass --overwrite to "
                                "replace it")
    return path
