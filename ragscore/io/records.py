"""The record reader: each record of a dataset folder checked against the format
(:mod:`ragscore.io.format`) and the rules of :mod:`ragscore.core.validation` as it is read,
the first problem raising :class:`~ragscore.io.jsonl.DatasetFileError` naming the file, the
line (or a Parquet file's row) and the field. :mod:`ragscore.io.read` reads whole folders
with it; :mod:`ragscore.io.check` checks an in-memory dataset with the same pieces.
"""
from pathlib import Path

from ..core.reference_answers import check_reference
from ..core.rules import InvalidInputError, check_name, show
from ..core.validation import check_document
from .format import CLAIM_KEYS, DECISIONS, KEYS, NAME_PATTERN, REVIEW_KEYS, SPLITS
from .judgements import check_judgement
from .jsonl import DatasetFileError, Line, records, where
from .nugget_fields import case_nuggets_of, run_answer_fields
from .store import LAYOUTS

__all__ = ["Reader", "Trials", "run_extras"]

_NAME = NAME_PATTERN.fullmatch


def _take(record, key, kind, place):
    if key not in record:
        raise DatasetFileError(f"{place}: missing key {key!r}")
    value = record[key]
    if type(value) is not kind:
        expected = {str: "a string", list: "an array", dict: "an object"}[kind]
        raise DatasetFileError(f"{place}: key {key!r} must be {expected}; got {show(value)}")
    return value


def _name(record, key, place, rules):
    value = _take(record, key, str, place)
    if rules.open_labels:
        if not rules.is_id(value):
            raise DatasetFileError(f"{place}: key {key!r} must be {rules.expected}; "
                                   f"got {show(value)}")
    elif not _NAME(value):
        raise DatasetFileError(
            f"{place}: key {key!r} must match {NAME_PATTERN.pattern}; got {show(value)}")
    return value


def _only(record, allowed, place):
    if not allowed.issuperset(record):
        extra = sorted(str(key) for key in record if key not in allowed)
        raise DatasetFileError(f"{place}: unknown key {show(extra[0])}; expected only "
                               f"{tuple(sorted(allowed))}")


def _ids_tuple(value, key, place):
    if type(value) is not list:
        raise DatasetFileError(f"{place}: key {key} must be an array of IDs; got {show(value)}")
    return tuple(value)


def _support_key(claim):
    """``'support.<claim>'`` for messages, the claim shown safely if it is unprintable or long."""
    if claim.isprintable() and len(claim) <= 60:
        return f"'support.{claim}'"
    return f"'support' entry {show(claim)}"


def _case_keys(record):
    """Keys of a case line: its own, and those of its ``support`` and graded ``relevant``."""
    total = len(record)
    for key in ("support", "relevant"):
        value = record.get(key)
        if type(value) is dict:
            total += len(value)
    return total


def _run_keys(record):
    """Keys of a run line: its own and those of each claim object."""
    claims = record.get("claims")
    if type(claims) is not list:
        return len(record)
    return len(record) + sum(len(item) for item in claims if type(item) is dict)




class Trials:
    """The duplicate-run rule, written once: one run per case and system, or numbered trials
    on every one of its runs, each number once."""

    def __init__(self):
        self.seen, self.numbered = set(), {}

    def add(self, case_name, system, trial):
        """``None`` when the run may be added, else what is wrong with it."""
        key = (case_name, system, trial)
        if key in self.seen:
            more = "" if trial is None else f", trial {trial}"
            return f"duplicate run for case {show(case_name)}, system {show(system)}{more}"
        if self.numbered.setdefault(key[:2], trial is not None) != (trial is not None):
            return (f"case {show(case_name)}, system {show(system)}: key 'trial' is given on "
                    "some of its runs and not on others (number every trial)")
        self.seen.add(key)
        return None


class Reader:
    """Reads the records of one folder version under its declared rules."""

    def __init__(self, version, rules, max_bytes, codec=None):
        self.version, self.rules, self.max_bytes = version, rules, max_bytes
        self.keys = KEYS[version]
        self.layout, self.codec = LAYOUTS[version], codec
        self.cases_file = "the cases file"
        self.groups, self.superseded, self.placed, self.corpus_path = {}, set(), {}, None

    def corpus(self, path, handle):
        """Yield ``(doc, text, source, version)`` for each document, each checked."""
        seen, self.corpus_path = set(), path
        allowed = self.keys["corpus"]
        for number, record in records(handle, path, self.max_bytes, encodable=True):
            doc, text = record.get("id"), record.get("text")
            if len(record) != 2 or type(doc) is not str or type(text) is not str:
                place = Line(path, number)
                _only(record, allowed, place)
                doc = _take(record, "id", str, place)
                text = record.get("text")
                if text is not None and type(text) is not str or (
                        text is None and "text" in record):
                    raise DatasetFileError(f"{place}: key 'text' must be a string; "
                                           f"got {show(text)}")
                if text is None and not self.rules.open_labels:
                    raise DatasetFileError(f"{place}: missing key 'text'")
            source, version = record.get("source"), record.get("version")
            if source is not None and not self.rules.is_id(source) and (
                    type(source) is not str or not _NAME(source)):
                raise DatasetFileError(f"{Line(path, number)}: key 'source' must be "
                                       f"{self.rules.expected}; got {show(source)}")
            if version is not None and (type(version) is not str or not version.strip()):
                raise DatasetFileError(f"{Line(path, number)}: key 'version' must be a "
                                       f"non-blank string; got {show(version)}")
            if len(record) > 2 + (source is not None) + (version is not None):
                self.access(record, doc, Line(path, number))
            if doc in seen:
                raise DatasetFileError(f"{Line(path, number)}: duplicate document id "
                                       f"{show(doc)}")
            try:
                check_document(doc, text, self.rules)
            except InvalidInputError as error:
                raise DatasetFileError(f"{Line(path, number)}: {error}") from None
            seen.add(doc)
            yield doc, text, source, version
        if not seen:
            raise DatasetFileError(f"{where(path)}: holds no documents")

    def access(self, record, doc, place):
        """Note a record's ``groups``, ``superseded`` flag and ``start``/``end`` (if any)."""
        _only(record, self.keys["corpus"], place)
        if "start" in record or "end" in record:
            self.placed[doc] = (record.get("start"), record.get("end"), place)
        if "groups" in record:
            groups = _strings(record, "groups", place)
            if groups:
                self.groups[doc] = frozenset(groups)
        if "superseded" in record:
            if type(record["superseded"]) is not bool:
                raise DatasetFileError(f"{place}: key 'superseded' must be true or false; "
                                       f"got {show(record['superseded'])}")
            if record["superseded"]:
                self.superseded.add(doc)

    def case(self, record, place):
        """``(name, case)`` from a case line, its shape checked (IDs are validated later)."""
        question = record.get("question", "")
        _only(record, self.keys["cases"], place)
        name = _name(record, "id", place, self.rules)
        if type(question) is not str:
            raise DatasetFileError(f"{place}: key 'question' must be a string")
        case = {"question": question}
        relevant = record.get("relevant")
        if self.rules.open_labels and type(relevant) is dict:
            case["relevant"] = dict(relevant)
        else:
            case["relevant"] = _ids_tuple(_take(record, "relevant", list, place),
                                          "'relevant'", place)
        if "support" in record or not self.rules.open_labels:
            labels = _take(record, "support", dict, place)
            case["support"] = {claim: _ids_tuple(sources, _support_key(claim), place)
                               for claim, sources in labels.items()}
        _case_extras(record, case, place, self.version)
        case.update(case_nuggets_of(record, place, self.rules))
        return name, case

    def cases(self, path, handle, check):
        """``{name: case}`` and ``{name: Labels}``, each case validated by ``check(case)``."""
        cases, labels = {}, {}
        self.cases_file = Path(path).name
        for number, record in records(handle, path, self.max_bytes, _case_keys,
                                      encodable=True):
            place = Line(path, number)
            name, case = self.case(record, place)
            if name in cases:
                raise DatasetFileError(f"{place}: duplicate case id {show(name)}")
            try:
                labels[name] = check(case)
            except InvalidInputError as error:
                raise DatasetFileError(f"{place} (case {show(name)}): {error}") from None
            cases[name] = case
        if not cases:
            raise DatasetFileError(f"{where(path)}: holds no cases")
        return cases, labels

    def run(self, record, place):
        """``(case, system, run)`` from a run line, its shape checked."""
        _only(record, self.keys["runs"], place)
        case_name = _name(record, "case", place, self.rules)
        system = _name(record, "system", place, self.rules)
        run = {"retrieved": _ids_tuple(_take(record, "retrieved", list, place), "'retrieved'",
                                       place)}
        if "claims" in record or not self.rules.open_labels:
            run["claims"] = _claims_tuple(_take(record, "claims", list, place), place)
        run_extras(record, run, place)
        return case_name, system, run

    def run_records(self, path, handle, documents):
        """``(unit, iterator of (number, record))`` of the runs file: its lines, or the rows
        of a Parquet file (decoded by the codec against ``documents``, the corpus IDs in
        file order)."""
        if self.layout["runs"] == ".jsonl":
            return "line", records(handle, path, self.max_bytes, _run_keys,
                                   encodable=True)
        return "row", self.codec.records(path, handle, documents, max_bytes=self.max_bytes)

    def runs(self, path, handle, cases, check, documents=()):
        """Yield ``(number, case, system, run, checked)`` for each run; ``checked`` is what
        ``check(case, run)`` returns (it validates). ``documents``: the corpus IDs in file
        order (what a version 5 ranking is coded against)."""
        trials = Trials()
        unit, found = self.run_records(path, handle, documents)
        for number, record in found:
            place = Line(path, number, unit)
            case_name, system, run = self.run(record, place)
            if case_name not in cases:
                raise DatasetFileError(f"{place}: case {show(case_name)} is not in "
                                       f"{self.cases_file}")
            problem = trials.add(case_name, system, run.get("trial"))
            if problem:
                raise DatasetFileError(f"{place}: {problem}")
            try:
                checked = check(case_name, run)
            except InvalidInputError as error:
                raise DatasetFileError(f"{place} (case {show(case_name)}, system "
                                       f"{show(system)}): {error}") from None
            yield number, case_name, system, run, checked


def _strings(record, key, place, *, limit=100):
    """A list of non-blank strings (tags, groups), at most ``limit``."""
    value = record[key]
    if type(value) is not list or len(value) > limit or not all(
            type(item) is str and item.strip() and len(item) <= 128 for item in value):
        raise DatasetFileError(f"{place}: key {key!r} must be an array of at most {limit} "
                               f"non-blank strings; got {show(value)}")
    if len(set(value)) != len(value):
        raise DatasetFileError(f"{place}: key {key!r} repeats a value; got {show(value)}")
    return tuple(value)


def _case_extras(record, case, place, version=3):
    """The version 3 keys of a case: tags, split, caller groups, conflicts, reviews,
    reference answers."""
    for key in ("tags", "caller_groups"):
        if key in record:
            case[key] = _strings(record, key, place)
    if "split" in record:
        if record["split"] not in SPLITS:
            raise DatasetFileError(f"{place}: key 'split' must be one of {', '.join(SPLITS)}; "
                                   f"got {show(record['split'])}")
        case["split"] = record["split"]
    if "conflicting" in record:
        case["conflicting"] = _ids_tuple(record["conflicting"], "'conflicting'", place)
    if "reference" in record:
        try:
            case["reference"] = check_reference(record["reference"])
        except InvalidInputError:
            raise DatasetFileError(f"{place}: key 'reference' must be a string or an array of "
                                   f"strings (an empty array: unanswerable); got "
                                   f"{show(record['reference'])}") from None
    if "reviews" in record:
        case["reviews"] = tuple(_review(item, f"{place}: reviews[{position}]", version)
                                for position, item in enumerate(
                                    _take(record, "reviews", list, place)))


def _review(item, at, version=3):
    """One reviewer's judgement of a document (``doc``), of a system's claim, or (version
    4) of an answer's claim text (:mod:`ragscore.io.judgements`)."""
    if type(item) is not dict:
        raise DatasetFileError(f"{at} must be an object; got {show(item)}")
    if "text" in item and version >= 4:
        try:
            return check_judgement(item, at)
        except InvalidInputError as error:
            raise DatasetFileError(str(error)) from None
    _only(item, REVIEW_KEYS, at)
    for key in ("reviewer", "decision"):
        if type(item.get(key)) is not str or not item[key].strip():
            raise DatasetFileError(f"{at}: key {key!r} must be a non-blank string; "
                                   f"got {show(item.get(key))}")
    try:
        check_name(item["reviewer"], f"{at}: key 'reviewer'")
    except InvalidInputError as error:
        raise DatasetFileError(str(error)) from None
    kind = "doc" if "doc" in item else "claim"
    needed = ("doc",) if kind == "doc" else ("system", "claim")
    for key in needed:
        if type(item.get(key)) is not str or not item[key].strip():
            raise DatasetFileError(f"{at}: key {key!r} must be a non-blank string (a review "
                                   f"judges a 'doc', or a 'system' and its 'claim'); got "
                                   f"{show(item.get(key))}")
    if kind == "doc" and ("system" in item or "claim" in item):
        raise DatasetFileError(f"{at}: a review judges a 'doc' or a 'claim', not both")
    if item["decision"] not in DECISIONS[kind]:
        raise DatasetFileError(f"{at}: key 'decision' must be one of "
                               f"{', '.join(DECISIONS[kind])}; got {show(item['decision'])}")
    if type(item.get("note", "")) is not str:
        raise DatasetFileError(f"{at}: key 'note' must be a string; got {show(item['note'])}")
    return dict(item)


def _number(value):
    return (type(value) is int or type(value) is float) and value >= 0 and value != float("inf")


def run_extras(record, run, place):
    """The version 3 keys of a run: trial, delivered context, answer text, operations."""
    if "trial" in record:
        trial = record["trial"]
        if type(trial) is not int or trial < 1:
            raise DatasetFileError(f"{place}: key 'trial' must be an int of at least 1; got "
                                   f"{show(trial)}")
        run["trial"] = trial
    if "delivered" in record:
        run["delivered"] = _ids_tuple(record["delivered"], "'delivered'", place)
    if "answer" in record:
        run["answer"] = _take(record, "answer", str, place)
    for key in ("latency_ms", "cost"):
        if key in record:
            if not _number(record[key]):
                raise DatasetFileError(f"{place}: key {key!r} must be a number of at least 0; "
                                       f"got {show(record[key])}")
            run[key] = record[key]
    for key in ("tokens", "retries"):
        if key in record:
            if type(record[key]) is not int or record[key] < 0:
                raise DatasetFileError(f"{place}: key {key!r} must be an int of at least 0; "
                                       f"got {show(record[key])}")
            run[key] = record[key]
    if "failed" in record:
        if type(record["failed"]) is not bool:
            raise DatasetFileError(f"{place}: key 'failed' must be true or false; got "
                                   f"{show(record['failed'])}")
        run["failed"] = record["failed"]
    run_answer_fields(record, run, place)


def _claims_tuple(value, place):
    pairs = []
    for position, item in enumerate(value):
        if type(item) is not dict:
            raise DatasetFileError(f"{place}: claims[{position}] must be an object with "
                                   f"'claim' and 'citations'; got {show(item)}")
        at = f"{place}: claims[{position}]"
        _only(item, CLAIM_KEYS, at)
        claim = _take(item, "claim", str, at)
        citations = _take(item, "citations", list, at)
        pairs.append((claim, tuple(citations)))
    return tuple(pairs)
