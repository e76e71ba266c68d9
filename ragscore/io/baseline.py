"""A committed baseline: one system's per-question counts and the test set's fingerprint.

``ragscore baseline save DIR --system A --out FILE`` writes it (atomically); the gate reads
it back and refuses it when the test set changed (its fingerprint differs) unless told
otherwise. Writing a baseline is always an explicit command, never a side effect of a gate.

The file is JSON (no pickle): the format tag, the system, its manifest, the fingerprint and,
per question, the counts every metric is read from (so any metric at any k can be gated),
a list of counts per trial for repeated trials.
"""
import json
from pathlib import Path

from ..core.counts import Counts
from ..core.rules import InvalidInputError, show
from ..core.trials import Trials
from .jsonl import DatasetFileError, open_regular, read_json, where
from .store import write_file_atomically

FORMAT = "ragscore-baseline-1"


def _plain(counts):
    if type(counts) is Trials:
        return [_plain(one) for one in counts]
    return {field: list(value) if type(value) is tuple else value
            for field, value in zip(Counts._fields, counts)}


def _counts(value, place):
    if type(value) is list:
        if not value:
            raise DatasetFileError(f"{place}: an empty list of trials")
        return Trials(_counts(one, place) for one in value)
    if type(value) is not dict or not set(value) <= set(Counts._fields):
        raise DatasetFileError(f"{place}: must be an object of counts ({', '.join(Counts._fields)})"
                               f"; got {show(value)}")
    fields = {}
    for field, item in value.items():
        if type(item) is list:
            item = tuple(tuple(part) if type(part) is list else part for part in item)
        fields[field] = item
    try:
        counts = Counts(**fields)
    except TypeError:
        raise DatasetFileError(f"{place}: missing counts; got {show(value)}") from None
    for field in ("relevant_ranks", "claim_cutoffs", "exposed", "stale_cutoffs"):
        ranks = getattr(counts, field)
        if type(ranks) is not tuple or not all(type(rank) is int and rank >= 1 for rank in ranks):
            raise DatasetFileError(f"{place}: {field} must be a list of ranks; got {show(ranks)}")
    match = counts.answer_match
    if match is not None and (type(match) is not tuple or len(match) != 4 or not all(
            type(part) is int and part >= 0 for part in match)):
        raise DatasetFileError(f"{place}: answer_match must be null or a list of 4 counts "
                               f"(exact, common, answer_tokens, reference_tokens); got "
                               f"{show(match)}")
    if type(counts.n_relevant) is not int:
        raise DatasetFileError(f"{place}: n_relevant must be an int; got "
                               f"{show(counts.n_relevant)}")
    return counts


def baseline_record(counted, system, *, fingerprint, manifest=None):
    """The baseline of ``system`` from counted runs, as a JSON-ready dict."""
    questions = {counted.keys[position][0]: _plain(counted.counts_at(position))
                 for position in counted.positions(system)}
    if not questions:
        raise InvalidInputError(f"system {show(system)} has no runs in this test set")
    return {"format": FORMAT, "system": system, "fingerprint": fingerprint,
            "manifest": manifest, "questions": questions}


def save_baseline(record, path):
    """Write a baseline record to ``path`` atomically (a temporary file, then a rename)."""
    path = Path(path)
    if not path.parent.is_dir():
        raise InvalidInputError(f"cannot write {where(path)}: the folder "
                                f"{where(path.parent)} does not exist")
    if path.is_dir():
        raise InvalidInputError(f"cannot write {where(path)}: it is a folder")
    text = json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    write_file_atomically(path, (text,))
    return path


def load_baseline(path):
    """``(system, fingerprint, manifest, {case: counts})`` of a baseline file; errors name the
    file and the field."""
    from .schemas import schema_errors

    try:
        with open_regular(path, 1 << 30) as handle:
            record = read_json(handle, path, 1 << 30)
    except FileNotFoundError:
        raise DatasetFileError(f"{where(path)}: cannot be read (No such file or directory)"
                               ) from None
    errors = schema_errors(record, "baseline")
    if errors:
        field, message = errors[0]
        raise DatasetFileError(f"{where(path)}: {field}: {message}")
    questions = {case: _counts(value, f"{where(path)}: questions[{show(case)}]")
                 for case, value in record["questions"].items()}
    return record["system"], record["fingerprint"], record.get("manifest"), questions
