"""A committed baseline: one system's per-question counts and the test set's fingerprint.

``ragscore baseline save DIR --system A --out FILE`` writes it (atomically); the gate reads
it back and refuses it when the test set changed (its fingerprint differs) unless told
otherwise. Writing a baseline is always an explicit command, never a side effect of a gate.

The file is JSON (no pickle): the format tag, the system, its manifest, the fingerprint and,
per question, the counts every metric is read from (so any metric at any k can be gated),
a list of counts per trial for repeated trials; since ``ragscore-baseline-2``, the SHA-256
of the system's runs it was computed from (``runs_sha256``) and a ``digest`` of the file's
own content. A file whose content does not match its digest was edited after ``baseline
save`` wrote it, and is refused; the digest shows an accidental or naive edit, not a forger
who recomputes it (``ragscore baseline verify`` recomputes the whole file from the runs).
"""
import hashlib
import json
from math import isfinite
from pathlib import Path

from ..core.citations import CitationCounts
from ..core.counts import Counts
from ..core.rules import InvalidInputError, show
from ..core.trials import Trials
from .jsonl import DatasetFileError, open_regular, read_json, where
from .store import write_file_atomically

FORMAT = "ragscore-baseline-2"
#: The format before digests: still read (``baseline verify``), refused by a gate.
UNDIGESTED = "ragscore-baseline-1"


def _plain(counts):
    if type(counts) is Trials:
        return [_plain(one) for one in counts]
    return {field: list(value) if type(value) is tuple else value
            for field, value in zip(Counts._fields, counts)}


#: Count fields a baseline saved before they existed may lack (read as their default).
OPTIONAL_COUNTS = ("answer_match", "judged_ranks", "n_judged", "answerability", "nuggets",
                   "citations", "span_characters", "span_reads", "pool_unjudged",
                   "n_pool_unjudged")


def _counts(value, place):
    if type(value) is list:
        if not value:
            raise DatasetFileError(f"{place}: an empty list of trials")
        return Trials(_counts(one, f"{place}[{number}]") for number, one in enumerate(value))
    if type(value) is not dict or not set(value) <= set(Counts._fields):
        raise DatasetFileError(f"{place}: must be an object of counts ({', '.join(Counts._fields)})"
                               f"; got {show(value)}")
    # answer_match (reference answers), judged_ranks, n_judged and answerability (judged
    # pools), nuggets and citations (nugget assignments, graded citations) came after the
    # first baselines: absent means none (every passage judged; the answerability the labels
    # imply; the expected claims as vital nuggets; no graded citation).
    missing = [field for field in Counts._fields if field not in value
               and field not in OPTIONAL_COUNTS]
    if missing:
        raise DatasetFileError(f"{place}: missing count {missing[0]}; got {show(value)}")
    fields = {}
    for field, item in value.items():
        if type(item) is list:
            item = tuple(tuple(part) if type(part) is list else part for part in item)
        fields[field] = item
    if fields.get("citations") is not None:
        cited = fields["citations"]
        if type(cited) is not tuple or len(cited) != len(CitationCounts._fields) or not all(
                type(part) is int and part >= 0 for part in cited):
            raise DatasetFileError(f"{place}: citations must be null or a list of "
                                   f"{len(CitationCounts._fields)} counts "
                                   f"({', '.join(CitationCounts._fields)}); got {show(cited)}")
        fields["citations"] = CitationCounts(*cited)
    counts = Counts(**fields)
    _check_counts(counts, place)
    match = counts.answer_match
    if match is not None and (type(match) is not tuple or len(match) != 4 or not all(
            type(part) is int and part >= 0 for part in match)):
        raise DatasetFileError(f"{place}: answer_match must be null or a list of 4 counts "
                               f"(exact, common, answer_tokens, reference_tokens); got "
                               f"{show(match)}")
    return counts


def _whole(value, place, field, *, optional=False, least=0):
    if optional and value is None:
        return
    if type(value) is not int or value < least:
        more = " or null" if optional else ""
        raise DatasetFileError(f"{place}: {field} must be a whole number at least {least}"
                               f"{more}; got {show(value)}")


def _ranks(value, place, field):
    if type(value) is not tuple or not all(type(rank) is int and rank >= 1 for rank in value) \
            or list(value) != sorted(value):
        raise DatasetFileError(f"{place}: {field} must be an ascending list of ranks (whole "
                               f"numbers from 1); got {show(value)}")


def _check_counts(counts, place):
    """Every count whole and at least 0, every list of ranks ascending, and the counts
    consistent with each other (no more hits than relevant documents or retrieved ones, no
    more supported claims than claims)."""
    for field in ("n_relevant", "n_retrieved", "dropped", "collapsed"):
        _whole(getattr(counts, field), place, field)
    for field in ("n_claims", "n_expected"):
        _whole(getattr(counts, field), place, field, optional=True)
    for field in ("relevant_ranks", "claim_cutoffs", "exposed", "stale_cutoffs",
                  "pool_unjudged"):
        _ranks(getattr(counts, field), place, field)
    _whole(counts.n_pool_unjudged, place, "n_pool_unjudged")
    ranks = counts.relevant_ranks
    if len(ranks) > counts.n_relevant or len(set(ranks)) != len(ranks):
        raise DatasetFileError(f"{place}: relevant_ranks lists {len(ranks)} ranks (distinct) "
                               f"for n_relevant {counts.n_relevant}; got {show(ranks)}")
    if ranks and ranks[-1] > counts.n_retrieved:
        raise DatasetFileError(f"{place}: relevant_ranks goes past n_retrieved "
                               f"{counts.n_retrieved}; got {show(ranks)}")
    _whole(counts.span_characters, place, "span_characters", optional=True)
    reads = counts.span_reads
    if type(reads) is not tuple or not all(
            type(item) is tuple and len(item) == 3 and all(type(part) is int and part >= 0
                                                           for part in item)
            for item in reads) or [item[0] for item in reads] != list(
                range(1, len(reads) + 1)) or (reads and counts.span_characters is None):
        raise DatasetFileError(f"{place}: span_reads must be a list of [rank, covered, read] "
                               f"whole numbers, ranks 1, 2, ..., on a span test set only; got "
                               f"{show(reads)}")
    supported = len(counts.claim_cutoffs) + len(counts.stale_cutoffs)
    if supported > (counts.n_claims or 0):
        raise DatasetFileError(f"{place}: claim_cutoffs and stale_cutoffs list {supported} "
                               f"supported claims for n_claims {show(counts.n_claims)}")
    if (counts.gains is None) != (counts.ideal is None):
        raise DatasetFileError(f"{place}: gains and ideal must both be null (binary labels) "
                               f"or both lists; got {show(counts.gains)}, {show(counts.ideal)}")
    if counts.ideal is not None:
        grades = counts.ideal
        if type(grades) is not tuple or not all(
                type(grade) in (int, float) and isfinite(grade) and grade > 0
                for grade in grades) or list(grades) != sorted(grades, reverse=True):
            raise DatasetFileError(f"{place}: ideal must be a list of grades above 0, largest "
                                   f"first; got {show(grades)}")
        if type(counts.gains) is not tuple or not all(
                type(pair) is tuple and len(pair) == 2 and type(pair[0]) is int and pair[0] >= 1
                and type(pair[1]) in (int, float) and isfinite(pair[1]) and pair[1] > 0
                for pair in counts.gains) or len(counts.gains) > len(grades):
            raise DatasetFileError(f"{place}: gains must be a list of [rank, grade] pairs, no "
                                   f"more than ideal lists; got {show(counts.gains)}")
    states = counts.nuggets
    if states is not None and (type(states) is not tuple or not all(
            type(state) is tuple and len(state) == 5 and all(
                type(part) is int and part >= 0 for part in state)
            and state[0] == position and state[1] in (0, 1) and state[2] in (0, 1)
            for position, state in enumerate(states))):
        raise DatasetFileError(f"{place}: nuggets must be null or a list of [position, vital, "
                               f"assigned, full, half] in position order (vital and assigned 0 "
                               f"or 1, cutoffs whole numbers, 0: at no k); got {show(states)}")
    span = counts.delivered_span
    if span is not None and (type(span) is not tuple or len(span) != 2 or not all(
            type(end) is int for end in span) or span[0] < 0 or span[1] < -1
            or -1 < span[1] < span[0]):
        raise DatasetFileError(f"{place}: delivered_span must be null or [low, high] (whole "
                               f"numbers, high -1 for open); got {show(span)}")


def _first(counts):
    return counts[0] if type(counts) is Trials else counts


def check_against_test_set(questions, counted, *, cases, scope, path):
    """Raise :class:`~ragscore.io.jsonl.DatasetFileError` when a baseline's questions do not
    fit the current test set (``cases``, its question names): a question it does not have, a question in ``scope`` (the
    questions some ``no_regression`` rule judges) missing, or a question whose own counts
    (``n_relevant``, ``n_expected``, the graded ``ideal``) differ from the current test
    set's (``counted``: every system's counted runs)."""
    current = {}
    for position, (case, _) in enumerate(counted.keys):
        if case not in current:
            current[case] = _first(counted.counts_at(position))
    cases = set(cases)
    for case in questions:
        if case not in cases:
            raise DatasetFileError(f"{where(path)}: questions[{show(case)}]: not a question of "
                                   "this test set (save the baseline again)")
    for case in scope:
        if case not in questions:
            raise DatasetFileError(f"{where(path)}: questions[{show(case)}]: missing, and a "
                                   "no_regression rule judges it (save the baseline again)")
    for case, stored in questions.items():
        if case not in current:
            continue
        for one in (stored if type(stored) is Trials else (stored,)):
            for field in ("n_relevant", "n_expected", "ideal"):
                then, now = getattr(one, field), getattr(current[case], field)
                if then != now:
                    raise DatasetFileError(
                        f"{where(path)}: questions[{show(case)}].{field}: {show(then)} in the "
                        f"baseline, {show(now)} in this test set (save the baseline again)")


def baseline_record(counted, system, *, fingerprint, manifest=None, runs_sha256=None):
    """The baseline of ``system`` from counted runs, as a JSON-ready dict, with its
    ``digest`` (:func:`content_digest`); ``runs_sha256`` is the digest of the system's runs
    (:func:`runs_digest`)."""
    questions = {counted.keys[position][0]: _plain(counted.counts_at(position))
                 for position in counted.positions(system)}
    if not questions:
        raise InvalidInputError(f"system {show(system)} has no runs in this test set")
    record = {"format": FORMAT, "system": system, "fingerprint": fingerprint,
              "manifest": manifest, "runs_sha256": runs_sha256, "questions": questions}
    return {**record, "digest": {"content_sha256": content_digest(record)}}


def content_digest(record):
    """The SHA-256 of a baseline record's canonical JSON (keys sorted, no spaces), its
    ``digest`` left out: what the file says, whatever its layout.

    >>> content_digest({"b": 1, "a": [1.5]}) == content_digest({"a": [1.5], "b": 1})
    True
    """
    body = {key: value for key, value in record.items() if key != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def runs_digest(dataset, system):
    """The SHA-256 of ``system``'s runs in ``dataset`` (each case's runs, canonical JSON):
    what a baseline of the system was computed from."""
    runs = {case: systems[system] for case, systems in dataset.runs.items()
            if system in systems}
    text = json.dumps(runs, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=list)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


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


def load_baseline(path, *, check_digest=True):
    """``(system, fingerprint, manifest, {case: counts})`` of a baseline file; errors name the
    file and the field. With ``check_digest`` (the default, as a gate reads it) a file whose
    content does not match its digest, or one saved before digests, is refused."""
    record = read_baseline_record(path)
    _refuse_failed_recording(record.get("manifest"), path)
    questions = {case: _counts(value, f"{where(path)}: questions[{show(case)}]")
                 for case, value in record["questions"].items()}
    if check_digest:  # after the checks that name a question and a field
        problem = digest_problem(record)
        if problem:
            raise DatasetFileError(f"{where(path)}: {problem}")
    return record["system"], record["fingerprint"], record.get("manifest"), questions


def digest_problem(record):
    """Why a baseline record cannot show it is what ``baseline save`` wrote (``None``: its
    content matches its digest)."""
    if record.get("format") == UNDIGESTED:
        return ("saved without a digest (format ragscore-baseline-1), so nothing shows it "
                "was not edited: save it again with 'ragscore baseline save', or check it "
                "with 'ragscore baseline verify FILE DIR'")
    found = record["digest"]["content_sha256"]
    if found != content_digest(record):
        return (f"its content does not match its digest (digest.content_sha256 "
                f"{found[:12]}...): the file was changed after 'ragscore baseline save' "
                "wrote it; save it again from the runs, or see what changed with "
                "'ragscore baseline verify FILE DIR'")
    return None


def read_baseline_record(path):
    """The JSON record of a baseline file, checked against the schema (not its digest)."""
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
    return record


def _refuse_failed_recording(manifest, path):
    """A baseline of a recording with failed calls judges nothing on those questions (a
    call that never answered is not an empty ranking): refused, as ``gate --baseline``
    refuses the recording itself."""
    recorder = manifest.get("recorder") if type(manifest) is dict else None
    failed = recorder.get("failed", 0) if type(recorder) is dict else 0
    if failed == 0 and type(failed) is int:
        return
    raise DatasetFileError(f"{where(path)}: manifest.recorder.failed: the recording this "
                           f"baseline was saved from has {show(failed)} failed calls; record "
                           "them again (ragscore record ... --resume) and save the baseline "
                           "again")
