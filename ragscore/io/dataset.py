"""Test sets on disk: a folder of JSON Lines files under a small JSON index.

See ``docs/dataset-format.md``. In short, a folder holds ``dataset.json`` and three JSON
Lines files, one object per line::

    corpus   {"id": "launch", "text": "The release window starts on Monday."}
    cases    {"id": "launch", "question": "...", "relevant": ["launch"],
              "support": {"monday": ["launch"]}}
    runs     {"case": "launch", "system": "A", "retrieved": ["launch", "archive"],
              "claims": [{"claim": "monday", "citations": ["launch"]}]}

Format version 1 names them ``corpus.jsonl``, ``cases.jsonl`` and ``runs.jsonl`` and follows
the course rules. Version 2 (what :func:`save_dataset` writes) names them by content hash
in the index (:mod:`ragscore.io.store`), and adds, declared in the index: ``ids`` (``course``
or ``open`` ID rules, :mod:`ragscore.core.rules`) and ``min_relevance``; per document an
optional ``source`` and ``version`` (chunks of a document); under open rules, optional text,
graded relevance (``"relevant": {"doc": 2}``), and cases without ``support`` or runs without
``claims`` (a retrieval-only test set).

Two readers share every parsing and validation step: :func:`load_dataset` keeps the whole
test set in memory; :func:`read_counts` streams the runs straight into per-question counts
(what reports need), keeping neither the corpus text nor the runs. Files are data only: no
pickle, no eval; each error names the file, the line and the field.
"""
import gc
import json
import os
import re
from collections import namedtuple
from functools import partial
from itertools import islice, repeat
from operator import itemgetter, ne
from pathlib import Path
from types import MappingProxyType

from ..core.counts import count
from ..core.parallel import can_fork, counts_columns, counts_from_columns, in_two
from ..core.rules import COURSE, RULES, InvalidInputError, show
from ..core.scoring import OPS_KEYS, Counter, CountedRuns, case_attributes, features_of
from ..core.trials import Trials, trial_runs
from ..core.validation import check_document, validate_corpus, validate_delivered, \
    Labels, validate_labels, validate_reviews, validate_run
from .jsonl import MAX_FILE_BYTES, DatasetFileError, Line, _refuse_constant, as_path, records, \
    where
from .store import FORMAT, INDEX, KINDS, snapshot, unchanged, write_dataset_folder

__all__ = ["Dataset", "DatasetFileError", "MAX_FILE_BYTES", "load_dataset", "read_counts",
           "save_dataset"]

VERSIONS = (1, 2, 3)
VERSION = 2
FILES = {"manifest": INDEX, "corpus": "corpus.jsonl", "cases": "cases.jsonl",
         "runs": "runs.jsonl"}
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_NAME = NAME_PATTERN.fullmatch
CLAIM_KEYS = frozenset({"claim", "citations"})
#: The keys each record may have, by format version.
KEYS = {
    1: {"corpus": frozenset({"id", "text"}),
        "cases": frozenset({"id", "question", "relevant", "support"}),
        "runs": frozenset({"case", "system", "retrieved", "claims"})},
    2: {"corpus": frozenset({"id", "text", "source", "version"}),
        "cases": frozenset({"id", "question", "relevant", "support"}),
        "runs": frozenset({"case", "system", "retrieved", "claims"})},
    3: {"corpus": frozenset({"id", "text", "source", "version", "groups", "superseded"}),
        "cases": frozenset({"id", "question", "relevant", "support", "tags", "split",
                            "caller_groups", "conflicting", "reviews"}),
        "runs": frozenset({"case", "system", "retrieved", "claims", "trial", "delivered",
                           "answer", "latency_ms", "tokens", "cost", "retries", "failed"})},
}
SPLITS = ("dev", "heldout")
CASE_EXTRAS = ("tags", "split", "caller_groups", "conflicting", "reviews")
RUN_EXTRAS = ("trial", "delivered", "answer") + OPS_KEYS
REVIEW_KEYS = frozenset({"reviewer", "doc", "system", "claim", "decision", "note"})
DECISIONS = {"doc": ("relevant", "not relevant"), "claim": ("supported", "unsupported")}
INDEX_KEYS = {1: frozenset({"format", "version", "name", "description"}),
              2: frozenset({"format", "version", "name", "description", "ids",
                            "min_relevance", "files", "notes", "checked"})}
INDEX_KEYS[3] = INDEX_KEYS[2] | {"rubric", "manifests"}


class Dataset(namedtuple("Dataset", "corpus cases runs name description ids min_relevance "
                                    "sources versions notes groups superseded rubric "
                                    "manifests",
                         defaults=("dataset", "", "course", 1, None, None, (), None,
                                   frozenset(), None, None))):
    """A frozen test set: corpus, cases, and recorded runs as ``runs[case][system]``.

    ``ids`` names the ID rules (``course`` or ``open``); ``min_relevance`` is the lowest
    grade judged relevant; ``sources`` and ``versions`` map a chunk to the document it
    comes from and that document's version (``None`` or ``{}`` when there are none);
    ``notes`` are sentences every report repeats (what an import dropped or filled in).
    Version 3 adds: ``groups`` (``{chunk: frozenset of access groups}`` for restricted
    chunks), ``superseded`` (chunks of outdated versions), ``rubric`` (the labelling rubric's
    version) and ``manifests`` (``{system: manifest dict}``). A run may be a list of runs:
    the repeated trials of one system on one case, in trial order.
    """

    __slots__ = ()

    @property
    def systems(self):
        """System names in order of first appearance."""
        return tuple(dict.fromkeys(s for per_case in self.runs.values() for s in per_case))

    @property
    def rules(self):
        """The :class:`~ragscore.core.rules.IdRules` this dataset declares."""
        return _rules(self.ids)


def _rules(ids):
    if type(ids) is not str or ids not in RULES:
        raise InvalidInputError(f"ids must be one of {', '.join(RULES)}; got {show(ids)}")
    return RULES[ids]


# ---- the index ------------------------------------------------------------------------------

_HEX16 = re.compile("[0-9a-f]{16}")


def _check_index(index, path):
    """The declared options of a parsed ``dataset.json``: ``(version, rules, min_relevance)``."""
    if index.get("format") != FORMAT:
        raise DatasetFileError(
            f"{where(path)}: key 'format' must be {FORMAT!r}; got {show(index.get('format'))}")
    version = index.get("version")
    if type(version) is not int or version not in VERSIONS:
        raise DatasetFileError(f"{where(path)}: key 'version' must be 1, 2 or 3; got "
                               f"{show(version)}")
    extra = sorted(str(key) for key in index if key not in INDEX_KEYS[version])
    if extra:
        raise DatasetFileError(f"{where(path)}: unknown key {show(extra[0])} for version "
                               f"{version}")
    for key in ("name", "description"):
        if type(index.get(key, "")) is not str:
            raise DatasetFileError(f"{where(path)}: key {key!r} must be a string")
    ids = index.get("ids", "course")
    if type(ids) is not str or ids not in RULES:
        raise DatasetFileError(f"{where(path)}: key 'ids' must be one of "
                               f"{', '.join(RULES)}; got {show(ids)}")
    notes = index.get("notes", [])
    if type(notes) is not list or not all(type(note) is str for note in notes):
        raise DatasetFileError(f"{where(path)}: key 'notes' must be an array of strings; "
                               f"got {show(notes)}")
    rubric = index.get("rubric")
    if rubric is not None and (type(rubric) is not str or not rubric.strip()):
        raise DatasetFileError(f"{where(path)}: key 'rubric' must be a non-blank string; "
                               f"got {show(rubric)}")
    if "manifests" in index:
        from .manifest import check_manifests  # only version 3 folders need it
        try:
            check_manifests(index["manifests"], where(path))
        except InvalidInputError as error:
            raise DatasetFileError(str(error)) from None
    checked = index.get("checked")
    if checked is not None and (type(checked) is not str or not _HEX16.fullmatch(checked)):
        raise DatasetFileError(f"{where(path)}: key 'checked' must be 16 hex digits (written "
                               f"by a ragscore save); got {show(checked)}")
    minimum = index.get("min_relevance", 1)
    if type(minimum) is not int or minimum < 1:
        raise DatasetFileError(f"{where(path)}: key 'min_relevance' must be an int of at "
                               f"least 1; got {show(minimum)}")
    return version, RULES[ids], minimum


# ---- records --------------------------------------------------------------------------------

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


#: Corpus files up to this size are first tried whole (see :func:`_plain_corpus`).
PLAIN_CORPUS_BYTES = 256 << 20
_PLAIN_CORPUS_LINES = 1 << 16
_PLAIN_DECODE = json.JSONDecoder(parse_constant=_refuse_constant).decode


def _plain_corpus(path, handle, rules, max_bytes):
    """``(ids, texts)`` of a corpus file whose every line is a plain ``{"id"}`` (open rules)
    or ``{"id", "text"}`` object, checked in whole-list C-speed operations; else ``None``
    with the file rewound, and the line-by-line reader checks and explains.

    Lines are parsed a block at a time as one JSON array. No key can repeat: every ``:``
    in the file directly follows a ``"`` and their number equals the keys found (the
    reasoning of :func:`~ragscore.io.jsonl.records`). IDs must be exact ``str``, unique and
    valid under ``rules``; texts non-blank strings.
    """
    size = os.fstat(handle.fileno()).st_size
    if size > min(max_bytes, PLAIN_CORPUS_BYTES):
        return None
    data = handle.read(size + 1)
    handle.seek(0)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    del data
    colons = text.count(":")
    if colons != text.count('":'):
        return None
    lines = text.split("\n")
    del text
    if lines and not lines[-1]:
        lines.pop()
    fullmatch, keys, width = rules.fullmatch, 0, None
    ids, texts, seen = [], [], set()
    for start in range(0, len(lines), _PLAIN_CORPUS_LINES):
        block = lines[start:start + _PLAIN_CORPUS_LINES]
        try:
            found = _PLAIN_DECODE("[" + ",".join(block) + "]")
        except (ValueError, RecursionError):
            return None
        if len(found) != len(block) or not _DICTS_ONLY.issuperset(map(type, found)):
            return None
        widths = set(map(len, found))
        if width is None:
            width = widths.pop() if len(widths) == 1 else None
        if widths - {width} or width not in (1 + (not rules.open_labels), 2):
            return None
        keys += width * len(found)
        try:
            block_ids = list(map(itemgetter("id"), found))
            block_texts = list(map(itemgetter("text"), found)) if width == 2 else ()
        except KeyError:
            return None
        if (not _STR_ONLY.issuperset(map(type, block_ids)) or None in map(fullmatch, block_ids)
                or not _STR_ONLY.issuperset(map(type, block_texts))
                or not all(map(str.strip, block_texts))):
            return None
        seen.update(block_ids)
        if len(seen) != len(ids) + len(block_ids):
            return None  # a repeated ID
        ids += block_ids
        texts += block_texts
    if keys != colons or not ids:
        return None
    return ids, (texts if width == 2 else None)


_STR_ONLY = frozenset({str})


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
    if _DICTS_ONLY.issuperset(map(type, claims)):  # the common case, at C speed
        return len(record) + sum(map(len, claims))
    return len(record) + sum(len(item) for item in claims if type(item) is dict)


_DICTS_ONLY = frozenset({dict})


class _Reader:
    """Reads the records of one folder version under its declared rules."""

    def __init__(self, version, rules, max_bytes):
        self.version, self.rules, self.max_bytes = version, rules, max_bytes
        self.keys = KEYS[version]
        self.names_ok = rules.is_id if rules.open_labels else _NAME
        self.cases_file = "the cases file"
        self.groups, self.superseded = {}, set()

    def corpus(self, path, handle):
        """Yield ``(doc, text, source, version)`` for each document, each checked."""
        plain = _plain_corpus(path, handle, self.rules, self.max_bytes)
        if plain is not None:
            ids, texts = plain
            yield from zip(ids, texts or repeat(None), repeat(None), repeat(None))
            return
        seen = set()
        allowed = self.keys["corpus"]
        for number, record in records(handle, path, self.max_bytes):
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
        """Note a corpus record's access ``groups`` and ``superseded`` flag (version 3)."""
        _only(record, self.keys["corpus"], place)
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
        name, relevant, labels = record.get("id"), record.get("relevant"), record.get("support")
        question = record.get("question", "")
        if (len(record) == 3 + ("question" in record) and type(name) is str
                and type(question) is str and type(relevant) is list and type(labels) is dict
                and self.names_ok(name)
                and all(type(sources) is list for sources in labels.values())):
            return name, {"question": question, "relevant": tuple(relevant),
                          "support": {claim: tuple(sources)
                                      for claim, sources in labels.items()}}
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
        _case_extras(record, case, place)
        return name, case

    def cases(self, path, handle, check, plain=None, span=None):
        """``{name: case}`` and ``{name: Labels}``, each case validated by ``check(case)``
        (only the lines of ``span``, as :func:`~ragscore.io.jsonl.records` reads it, when
        given).

        ``plain(record)``, when given, returns the labels of a case record in its common
        shape straight from its JSON values, or ``None`` for this path to take it (see
        :func:`plain_labels`); the case itself is then kept as an empty mapping (a plain
        record has no tags, split or reviews).
        """
        cases, labels = {}, {}
        self.cases_file = Path(path).name
        for number, record in records(handle, path, self.max_bytes, _case_keys, span):
            if plain is not None:
                name = record.get("id")
                if type(name) is str and name not in cases and self.names_ok(name):
                    checked = plain(record)
                    if checked is not None:
                        cases[name], labels[name] = _PLAIN_CASE, checked
                        continue
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
        case_name, system = record.get("case"), record.get("system")
        retrieved, claims = record.get("retrieved"), record.get("claims")
        if (len(record) == 4 and type(case_name) is str and type(system) is str
                and type(retrieved) is list and type(claims) is list
                and self.names_ok(case_name) and self.names_ok(system)):
            pairs = []
            for item in claims:
                if type(item) is not dict or len(item) != 2:
                    break
                claim, citations = item.get("claim"), item.get("citations")
                if type(claim) is not str or type(citations) is not list:
                    break
                pairs.append((claim, tuple(citations)))
            else:
                return case_name, system, {"retrieved": tuple(retrieved),
                                           "claims": tuple(pairs)}
        _only(record, self.keys["runs"], place)
        case_name = _name(record, "case", place, self.rules)
        system = _name(record, "system", place, self.rules)
        run = {"retrieved": _ids_tuple(_take(record, "retrieved", list, place), "'retrieved'",
                                       place)}
        if "claims" in record or not self.rules.open_labels:
            run["claims"] = _claims_tuple(_take(record, "claims", list, place), place)
        _run_extras(record, run, place)
        return case_name, system, run

    def runs(self, path, handle, cases, check, span=None, plain=None):
        """Yield ``(number, case, system, run, checked)`` for each run; ``checked`` is what
        ``check(case, run)`` returns (it validates).

        ``plain(case, record)``, when given, counts a record of exactly ``case``,
        ``system``, ``retrieved`` and ``claims`` straight from its JSON values, or returns
        ``None`` for this path to take it (see :func:`plain_counter`); ``run`` is then
        ``None``.
        """
        seen, numbered, systems = set(), {}, set()
        for number, record in records(handle, path, self.max_bytes, _run_keys, span):
            if plain is not None and len(record) == 3 + ("claims" in record):
                case_name, system = record.get("case"), record.get("system")
                if (type(case_name) is str and case_name in cases and type(system) is str
                        and (system in systems or self.names_ok(system))
                        and (case_name, system, None) not in seen
                        and not numbered.get((case_name, system))):
                    checked = plain(case_name, record)
                    if checked is not None:
                        systems.add(system)
                        seen.add((case_name, system, None))
                        numbered[case_name, system] = False
                        yield number, case_name, system, None, checked
                        continue
            place = Line(path, number)
            case_name, system, run = self.run(record, place)
            if case_name not in cases:
                raise DatasetFileError(f"{place}: case {show(case_name)} is not in "
                                       f"{self.cases_file}")
            key = (case_name, system, run.get("trial"))
            if key in seen:
                trial = "" if key[2] is None else f", trial {key[2]}"
                raise DatasetFileError(f"{place}: duplicate run for case {show(case_name)}, "
                                       f"system {show(system)}{trial}")
            if numbered.setdefault(key[:2], key[2] is not None) != (key[2] is not None):
                raise DatasetFileError(f"{place}: case {show(case_name)}, system "
                                       f"{show(system)}: key 'trial' is given on some of its "
                                       "runs and not on others (number every trial)")
            seen.add(key)
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


def _case_extras(record, case, place):
    """The version 3 keys of a case: tags, split, caller groups, conflicts, reviews."""
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
    if "reviews" in record:
        case["reviews"] = tuple(_review(item, f"{place}: reviews[{position}]")
                                for position, item in enumerate(
                                    _take(record, "reviews", list, place)))


def _review(item, at):
    """One reviewer's judgement of a document (``doc``) or of a system's claim."""
    if type(item) is not dict:
        raise DatasetFileError(f"{at} must be an object; got {show(item)}")
    _only(item, REVIEW_KEYS, at)
    for key in ("reviewer", "decision"):
        if type(item.get(key)) is not str or not item[key].strip():
            raise DatasetFileError(f"{at}: key {key!r} must be a non-blank string; "
                                   f"got {show(item.get(key))}")
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


def _run_extras(record, run, place):
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


# ---- the two readers ------------------------------------------------------------------------

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


class _NoCollection:
    """Pause the cyclic garbage collector while many small acyclic records are built."""

    def __enter__(self):
        self.enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *_):
        if self.enabled:
            gc.enable()


def _open_version(path, max_bytes):
    """``(folder, index, opened files, reader)`` for one consistent version of a folder."""
    folder = _folder(path)
    index, opened = snapshot(folder, max_bytes)
    try:
        version, rules, minimum = _check_index(index, folder / INDEX)
    except BaseException:
        _close(opened)
        raise
    return folder, index, opened, _Reader(version, rules, max_bytes), minimum


def _close(opened):
    for _, handle in opened.values():
        handle.close()


def load_dataset(path, *, max_bytes=MAX_FILE_BYTES):
    """Read and validate the dataset folder at ``path``; return a :class:`Dataset`.

    Raises :class:`~ragscore.io.jsonl.DatasetFileError` (a ``ValueError``) naming the file
    and line of the first problem. Files larger than ``max_bytes`` are refused. Reads one
    consistent version even while another process saves the folder.

    >>> from ragscore.io.course import COURSE_PATH
    >>> load_dataset(COURSE_PATH).systems
    ('A', 'B')
    """
    folder, index, opened, reader, minimum = _open_version(path, max_bytes)
    rules = reader.rules
    try:
        with _NoCollection():
            corpus, sources, versions = {}, {}, {}
            for doc, text, source, version in reader.corpus(*opened["corpus"]):
                corpus[doc] = text
                if source is not None:
                    sources[doc] = source
                if version is not None:
                    versions[doc] = version
            known = frozenset(corpus)
            label_ids = known | frozenset(sources.values())  # chunks or their documents
            def check_case(case):
                validate_reviews(case, label_ids)
                return validate_labels(case, label_ids, rules=rules, min_relevance=minimum)

            cases, _ = reader.cases(*opened["cases"], check_case)
            runs = {}

            def check(case_name, run):
                validated = validate_run(run, known, rules=rules)
                validate_delivered(run, known, rules=rules)
                return validated

            trials = {}
            for number, case_name, system, run, _ in reader.runs(*opened["runs"], cases, check):
                if "trial" in run:
                    trials.setdefault((case_name, system), []).append((number, run))
                runs.setdefault(case_name, {})[system] = run
            _group_trials(runs, trials, opened["runs"][0])
    finally:
        _close(opened)
    return Dataset(corpus=corpus, cases=cases, runs=runs, name=index.get("name", folder.name),
                   description=index.get("description", ""), ids=rules.name,
                   min_relevance=minimum, sources=sources, versions=versions,
                   notes=tuple(index.get("notes", ())), groups=reader.groups or None,
                   superseded=frozenset(reader.superseded), rubric=index.get("rubric"),
                   manifests=index.get("manifests"))


def _group_trials(runs, trials, path):
    """Replace each run recorded with trial numbers by the list of its trials, in trial
    order (the reader has refused a mix of numbered and unnumbered records)."""
    for (case_name, system), numbered in trials.items():
        numbered.sort(key=lambda item: item[1]["trial"])
        runs[case_name][system] = [run for _, run in numbered]


#: Runs files at least this large are read by two processes when ``jobs=2``.
PARALLEL_BYTES = 8 << 20


def read_counts(path, *, max_bytes=MAX_FILE_BYTES, jobs=1, unit="chunk", dedupe=False):
    """Read, validate and count the dataset folder at ``path`` in one streaming pass.

    Returns the :class:`~ragscore.core.scoring.CountedRuns` of every run, grouped by case
    as :func:`load_dataset` groups ``runs``: all a report needs, without keeping the corpus
    text or the runs in memory. Errors are those of :func:`load_dataset`; ``unit`` and
    ``dedupe`` are those of :class:`~ragscore.core.scoring.Counter`. With ``jobs=2`` (what
    the command line uses) a large runs file is read in two halves by two processes on
    systems that can fork; the result and the first error reported are the same. A version 2
    folder exactly as a ragscore save wrote and checked it
    (:func:`~ragscore.io.store.unchanged`) is read without parsing its corpus or looking
    its IDs up again (:data:`ANY_ID`; see ``docs/dataset-format.md``): its errors were
    found when it was saved.

    >>> from ragscore.io.course import COURSE_PATH
    >>> read_counts(COURSE_PATH).keys[:2]
    [('launch', 'A'), ('launch', 'B')]
    """
    folder, index, opened, reader, minimum = _open_version(path, max_bytes)
    try:
        with _NoCollection():
            if (reader.version == 2 and unit == "chunk" and not dedupe
                    and not _may_name_sources(opened["corpus"][1])
                    and unchanged(index, opened)):
                known, sources = ANY_ID, {}  # checked against its corpus when saved
            else:
                corpus, sources = set(), {}
                for doc, _, source, _ in reader.corpus(*opened["corpus"]):
                    corpus.add(doc)
                    if source is not None:
                        sources[doc] = source
                known = frozenset(corpus)
            counter = Counter(known, rules=reader.rules, min_relevance=minimum, unit=unit,
                              dedupe=dedupe, sources=sources, groups=reader.groups,
                              superseded=reader.superseded)
            cases_path, cases_handle = opened["cases"]
            runs_path, runs_handle = opened["runs"]
            plain_cases = plain_labels(counter)

            def counted_runs(cases, labels, span=None, handle=runs_handle):
                def check(case_name, run):
                    return counter.count(labels[case_name], run)

                for number, case_name, system, run, counts in reader.runs(
                        runs_path, handle, cases, check, span, plain_counter(counter, labels)):
                    if run is None:  # counted from its JSON values: no trial, no operations
                        yield number, case_name, system, None, None, counts
                        continue
                    ops = {key: run[key] for key in OPS_KEYS if key in run} or None
                    yield number, case_name, system, run.get("trial"), ops, counts

            def read_part(cases_span, runs_span, handles):
                """``(cases, rows)`` of one part: its cases, then the runs naming them."""
                cases, labels = reader.cases(cases_path, handles[0], counter.labels,
                                             plain_cases, cases_span)
                return cases, list(counted_runs(cases, labels, runs_span, handles[1]))

            parts = _in_two_parts(opened, read_part) if jobs > 1 else None
            if parts is not None:
                rows, attributes = parts
            else:  # the runs' cases read first, the runs in one or two processes
                cases_handle.seek(0)
                runs_handle.seek(0)
                cases, labels = reader.cases(cases_path, cases_handle, counter.labels,
                                             plain_cases)
                count_all = partial(counted_runs, cases, labels)
                rows = (_in_two(runs_path, runs_handle, count_all) if jobs > 1
                        else list(count_all()))
                attributes = case_attributes(cases)
            keys, counted, ops = _merge_trials(rows)
            keys, counted = _grouped_by_case(keys, counted)
            features = features_of(counted, groups=reader.groups,
                                   superseded=reader.superseded)
            return CountedRuns(keys, counted, reader.rules, tuple(index.get("notes", ())),
                               features, ops or None, attributes)
    finally:
        _close(opened)


class _AnyId:
    """The corpus IDs of a dataset folder exactly as a ragscore save wrote and checked it
    (:func:`~ragscore.io.store.unchanged`): every ID its cases and runs had to find in
    its corpus was found there, and every ID met the rules, so a reading for a report need
    not look each one up again (10,000,000 lookups in a corpus of 1,000,000 IDs take
    seconds). Answers the questions the checks ask of a set of IDs (``in``, ``<=``,
    ``issuperset``, ``-``): every ID is in it."""

    __slots__ = ()

    def __contains__(self, item):
        return True

    def __ge__(self, other):
        return True

    def issuperset(self, other):
        return True

    def __rsub__(self, other):
        return set()


ANY_ID = _AnyId()


def _may_name_sources(handle):
    """True when the corpus file holds the bytes ``"source"``: a record may name its
    document, and labels may then name documents, which a save accepts and a reading by
    chunk refuses (so that reading checks every ID). Also true when a text merely holds
    them: then every ID is checked too, which costs time, never a result."""
    handle.seek(0)
    before = b""
    for block in iter(lambda: handle.read(1 << 22), b""):
        if b'"source"' in before + block:
            handle.seek(0)
            return True
        before = block[-7:]
    handle.seek(0)
    return False


_PLAIN_CASE = MappingProxyType({})


def plain_labels(counter):
    """``plain(record)``: the :class:`~ragscore.core.validation.Labels` of a case record
    in its common valid shape, read straight off its JSON values, or ``None`` for the full
    path to check and explain (the reasoning of :func:`plain_counter`).

    Accepted: keys ``id``, ``relevant``, ``support`` and optionally a string ``question``;
    ``relevant`` a list of unique IDs the labels may name (under open rules also a map of
    such IDs to integer grades, and ``support`` may be left out); ``support`` at most the
    rules' claims, each a well-formed claim ID mapped to a non-empty list of unique IDs
    judged relevant; ``relevant`` empty exactly when ``support`` is.
    """
    allowed, rules, minimum = counter.label_ids, counter.rules, counter.min_relevance
    limit, most_claims, fullmatch = rules.max_ids, rules.max_claims, rules.pattern.fullmatch
    graded_ok = rules.open_labels

    def plain(record):
        relevant, labelled = record.get("relevant"), record.get("support")
        if (len(record) != 2 + ("support" in record) + ("question" in record)
                or type(relevant) not in _LIST_OR_DICT or len(relevant) > limit
                or type(record.get("question", "")) is not str):
            return None
        grades = None
        if type(relevant) is list:
            try:
                judged = set(relevant)
            except TypeError:  # an unhashable member
                return None
            if len(judged) != len(relevant) or not judged <= allowed:
                return None
            chosen = judged
        elif type(relevant) is dict and graded_ok:
            if not allowed.issuperset(relevant) or not _INTS_ONLY.issuperset(
                    map(type, relevant.values())):
                return None
            grades = relevant
            chosen = {doc for doc, grade in relevant.items() if grade >= minimum}
            judged = {doc for doc, grade in relevant.items() if grade > 0}
        else:
            return None
        if labelled is None:
            return Labels(chosen, None, grades) if graded_ok and "support" not in record \
                else None
        if type(labelled) is not dict or len(labelled) > most_claims:
            return None
        support = {}
        try:
            for claim, sources in labelled.items():
                if type(sources) is not list or len(sources) > limit:
                    return None
                support[claim] = members = set(sources)
                if not members or len(members) != len(sources) or not members <= judged:
                    return None
        except TypeError:  # an unhashable member
            return None
        if bool(judged) != bool(support) or None in map(fullmatch, support):
            return None
        return Labels(chosen, support, grades)
    return plain


_INTS_ONLY = frozenset({int})
_LIST_OR_DICT = (list, dict)


def plain_counter(counter, labels):
    """``plain(case, record)``: the counts of a run record in its common valid shape,
    read straight off its JSON values, or ``None`` for the full path to check and explain.

    Values from the JSON decoder have exact types, so a member of the corpus IDs (a set of
    ``str``) is an exact ``str`` ID; a list or object member makes ``set()`` fail and falls
    back. (For a folder as saved, the corpus IDs are :data:`ANY_ID`: its IDs were checked
    when it was saved.) Taken only when the counter scores rankings as recorded (chunk
    unit, no dedupe, no access groups). Accepted: ``retrieved`` a list of unique corpus IDs; ``claims`` a
    list of ``{"claim", "citations"}`` objects with unique well-formed claim IDs and
    citations lists of unique corpus IDs, within the rules' limits. Anything else,
    including a citation outside the corpus (valid or not), goes the full way.
    """
    if counter.unit != "chunk" or counter.dedupe or counter.groups:
        return None
    known, rules, superseded = counter.known, counter.rules, counter.superseded
    limit, most_claims, fullmatch = rules.max_ids, rules.max_claims, rules.pattern.fullmatch

    assessed_only = not rules.open_labels  # open rules: a run may leave out its claims

    def plain(case_name, record):
        retrieved, claims = record.get("retrieved"), record.get("claims")
        if claims is None and "claims" not in record and not assessed_only:
            claims = None  # the answer stage was not recorded
        elif type(claims) is not list or len(claims) > most_claims:
            return None
        if type(retrieved) is not list or len(retrieved) > limit:
            return None
        try:
            visible = set(retrieved)
            pairs = None if claims is None else []
            for item in claims or ():
                if type(item) is not dict or len(item) != 2:
                    return None
                claim, citations = item.get("claim"), item.get("citations")
                if (type(claim) is not str or type(citations) is not list
                        or len(citations) > limit or len(set(citations)) != len(citations)
                        or not known.issuperset(citations)):
                    return None
                pairs.append((claim, citations))
        except TypeError:  # an unhashable member
            return None
        if len(visible) != len(retrieved) or not visible <= known:
            return None
        if pairs and (len({claim for claim, _ in pairs}) != len(pairs)
                      or None in map(fullmatch, (claim for claim, _ in pairs))):
            return None
        case_labels = labels[case_name]
        return count(case_labels.relevant, case_labels.support, retrieved, pairs,
                     grades=case_labels.grades, losers=case_labels.losers,
                     superseded=superseded)
    return plain


_CASE, _SYSTEM, _TRIAL, _OPS, _COUNTS = (itemgetter(position) for position in range(1, 6))


def _merge_trials(rows):
    """``(keys, counts, ops)`` from counted rows: the trials of one case and system become
    one :class:`~ragscore.core.trials.Trials`, in trial order; ``ops`` maps ``(case,
    system)`` to the operation records (latency, tokens, ...) of its trials."""
    if not any(map(_TRIAL, rows)) and not any(map(_OPS, rows)):  # the common case, at C speed
        return list(zip(map(_CASE, rows), map(_SYSTEM, rows))), list(map(_COUNTS, rows)), {}
    keys, counted, ops, trials = [], [], {}, {}
    for _, case_name, system, trial, extra, counts in rows:
        key = (case_name, system)
        if extra is not None:
            ops.setdefault(key, []).append(extra)
        if trial is None:
            keys.append(key)
            counted.append(counts)
        else:
            if key not in trials:
                trials[key] = []
                keys.append(key)
                counted.append(None)
            trials[key].append((trial, counts))
    if trials:
        position = {key: index for index, key in enumerate(keys)}
        for key, numbered in trials.items():
            numbered.sort(key=lambda item: item[0])
            counted[position[key]] = Trials(counts for _, counts in numbered)
    return keys, counted, ops


def _in_two(path, handle, counted_runs):
    """``list(counted_runs())``, with the second half of the file read by a forked child
    (:func:`~ragscore.core.parallel.in_two`: its rows come back as JSON columns).

    An error in the first half wins (it comes first in the file); a run of the second half
    that repeats one of the first is refused as in a single pass.
    """
    size = os.fstat(handle.fileno()).st_size
    if size < PARALLEL_BYTES or not can_fork():
        return list(counted_runs())
    try:  # a second open of the same file (not a copy of the descriptor: its own offset)
        second = open(f"/proc/self/fd/{handle.fileno()}", "rb")
    except OSError:
        return list(counted_runs())
    spans = _halves(handle, size)
    try:
        mine, theirs = in_two(partial(list, counted_runs(spans[0])),
                              partial(list, counted_runs(spans[1], second)),
                              encode=_rows_columns, decode=_rows_from_columns,
                              error=DatasetFileError)
    finally:
        second.close()
    seen = {(case_name, system, trial) for _, case_name, system, trial, _, _ in mine}
    numbered = {(case_name, system): trial is not None
                for _, case_name, system, trial, _, _ in mine}
    for number, case_name, system, trial, _, _ in theirs:
        if (case_name, system, trial) in seen:
            suffix = "" if trial is None else f", trial {trial}"
            raise DatasetFileError(f"{where(path, number)}: duplicate run for case "
                                   f"{show(case_name)}, system {show(system)}{suffix}")
        if numbered.get((case_name, system), trial is not None) != (trial is not None):
            raise DatasetFileError(f"{where(path, number)}: case {show(case_name)}, system "
                                   f"{show(system)}: key 'trial' is given on some of its runs "
                                   "and not on others (number every trial)")
    return mine + theirs


class _Misaligned(InvalidInputError):
    """A part of the files named a case of the other part, or held a problem: the files
    are read the ordinary way, which names the problem as a single pass does."""


#: The share of the runs file this process reads when two processes read it (the rest is the
#: child's, which also encodes its rows for the pipe while this process decodes them).
PARENT_SHARE = 0.55

#: How many run lines past the cut are looked at for the next case's first run.
_LOOKAHEAD = 10_000


def _in_two_parts(opened, read_part):
    """``(rows, case attributes)`` of the cases and runs files read in two parts by two
    processes, or ``None`` for the ordinary reading.

    Taken when the runs file is large and its runs follow the cases' order (as
    :func:`save_dataset` writes them): the files are cut where the runs of one case start
    and at that case's line, so each process reads half the cases and the runs naming
    them. Any surprise (a run naming a case of the other part, a case in both parts, any
    problem at all) sends the caller back to the ordinary reading; the result is then the
    same, and so is the first error reported.
    """
    cases_path, cases_handle = opened["cases"]
    runs_path, runs_handle = opened["runs"]
    size = os.fstat(runs_handle.fileno()).st_size
    if size < PARALLEL_BYTES or not can_fork():
        return None
    cut = _aligned_cut(cases_handle, runs_handle, size)
    if cut is None:
        return None
    cases_spans, runs_spans = cut
    try:  # second opens of the same files (their own offsets)
        seconds = [open(f"/proc/self/fd/{handle.fileno()}", "rb")
                   for handle in (cases_handle, runs_handle)]
    except OSError:
        return None

    def part(number, handles):
        try:
            cases, rows = read_part(cases_spans[number], runs_spans[number], handles)
        except InvalidInputError:
            raise _Misaligned() from None
        return {"names": list(cases), "attributes": case_attributes(cases), "rows": rows}

    def encode(result):
        return dict(result, rows=_rows_columns(result["rows"]))

    def decode(payload):
        return dict(payload, rows=_rows_from_columns(payload["rows"]))

    try:
        mine, theirs = in_two(partial(part, 0, (cases_handle, runs_handle)),
                              partial(part, 1, seconds), encode=encode, decode=decode,
                              error=_Misaligned)
    except _Misaligned:
        return None
    finally:
        for handle in seconds:
            handle.close()
    if not set(mine["names"]).isdisjoint(theirs["names"]):
        return None  # a case in both parts: the ordinary reading refuses it
    return mine["rows"] + theirs["rows"], _merged_attributes(mine, theirs)


def _merged_attributes(*parts):
    """The :func:`~ragscore.core.scoring.case_attributes` of the cases of every part."""
    if all(part["attributes"] is None for part in parts):
        return None
    return case_attributes({name: (part["attributes"] or {}).get(name, {})
                            for part in parts for name in part["names"]})


def _aligned_cut(cases_handle, runs_handle, size):
    """``(cases spans, runs spans)``: the runs file cut where the runs of one case start,
    past its middle, and the cases file cut at that case's line; ``None`` when that case's
    line is not found where the runs' order says (the files are then read the ordinary
    way). Spans are those :func:`~ragscore.io.jsonl.records` takes."""
    runs_handle.seek(int(size * PARENT_SHARE))
    runs_handle.readline()  # finish the line the cut falls in
    start, line = runs_handle.tell(), runs_handle.readline()
    before = _case_of(line)
    for _ in range(_LOOKAHEAD):  # past the runs of the case the middle falls in
        start, line = runs_handle.tell(), runs_handle.readline()
        pivot = _case_of(line)
        if pivot is None or pivot != before:
            break
    else:
        pivot = None
    if pivot is None or before is None:
        return None
    cases_handle.seek(0)
    data = cases_handle.read()
    head = b'{"id": ' + json.dumps(pivot, ensure_ascii=False).encode("utf-8") + b","
    found = data.find(b"\n" + head)
    if found < 0 or data.startswith(head):
        return None
    middle = found + 1
    cases_lines = data.count(b"\n", 0, middle)
    runs_lines = _lines_before(runs_handle, start)
    cases_handle.seek(0)
    runs_handle.seek(0)
    return (((0, middle, 1), (middle, len(data), cases_lines + 1)),
            ((0, start, 1), (start, size, runs_lines + 1)))


def _case_of(line):
    """The ``case`` of a run line, or ``None`` (not a plain run line)."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    name = record.get("case") if type(record) is dict else None
    return name if type(name) is str else None


def _lines_before(handle, offset):
    """The number of line breaks in the first ``offset`` bytes of ``handle``."""
    handle.seek(0)
    newlines, left = 0, offset
    while left:
        block = handle.read(min(left, 1 << 22))
        if not block:
            break
        newlines += block.count(b"\n")
        left -= len(block)
    return newlines


def _rows_columns(rows):
    """Counted rows ``(number, case, system, trial, ops, counts)`` as JSON-ready columns."""
    numbers, cases, systems, trials, ops, counts = (list(column) for column in zip(*rows)) \
        if rows else ([], [], [], [], [], [])
    return {"number": numbers, "case": cases, "system": systems, "trial": trials,
            "ops": ops, "counts": counts_columns(counts)}


def _rows_from_columns(columns):
    """The rows :func:`_rows_columns` was given."""
    return list(zip(columns["number"], columns["case"], columns["system"], columns["trial"],
                    columns["ops"], counts_from_columns(columns["counts"])))


def _halves(handle, size):
    """Two ``(start, stop, first line number)`` spans of a file, split at a line break
    (the first :data:`PARENT_SHARE` of it for this process)."""
    handle.seek(int(size * PARENT_SHARE))
    handle.readline()  # finish the line the cut falls in
    middle = handle.tell()
    newlines = _lines_before(handle, middle)
    handle.seek(0)
    return (0, middle, 1), (middle, size, newlines + 1)


_FIRST = itemgetter(0)


def _grouped_by_case(keys, counted):
    """Reorder ``keys`` and ``counts`` so each case's runs sit together, cases in order of
    first appearance (the order :func:`load_dataset` gives ``runs``)."""
    cases = list(map(_FIRST, keys))
    if sum(map(ne, cases[1:], cases)) + 1 <= len(set(cases)):  # no case comes back later
        return keys, counted
    order = {}
    for position, (case_name, _) in enumerate(keys):
        order.setdefault(case_name, []).append(position)
    positions = [position for group in order.values() for position in group]
    return [keys[p] for p in positions], [counted[p] for p in positions]


# ---- writing --------------------------------------------------------------------------------

_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
_BATCH = 2000


def _chunks(records_):
    """JSON Lines as bytes, a batch of lines at a time (a large file never sits whole in
    memory)."""
    batch = []
    for record in records_:
        batch.append(_ENCODE(record))
        if len(batch) == _BATCH:
            yield ("\n".join(batch) + "\n").encode("utf-8")
            batch = []
    if batch:
        yield ("\n".join(batch) + "\n").encode("utf-8")


def _plain(value):
    return list(value) if type(value) is tuple else dict(value)


def _corpus_record(doc, text, sources, versions, groups, superseded):
    record = {"id": doc}
    if text is not None:
        record["text"] = text
    if doc in sources:
        record["source"] = sources[doc]
    if doc in versions:
        record["version"] = versions[doc]
    if doc in groups:
        record["groups"] = sorted(groups[doc])
    if doc in superseded:
        record["superseded"] = True
    return record


def _run_records(case_name, system, trials):
    for run in trial_runs(trials):
        record = {"case": case_name, "system": system, "retrieved": list(run["retrieved"])}
        if run.get("claims") is not None:
            record["claims"] = [{"claim": claim, "citations": list(citations)}
                                for claim, citations in run["claims"]]
        for key in RUN_EXTRAS:
            if key in run:
                record[key] = list(run[key]) if key == "delivered" else run[key]
        yield record


def dataset_records(dataset):
    """``{kind: iterator of records}``: what :func:`save_dataset` writes for ``dataset``."""
    sources, versions = dataset.sources or {}, dataset.versions or {}
    groups, superseded = dataset.groups or {}, dataset.superseded or frozenset()

    def corpus():
        for doc, text in dataset.corpus.items():
            yield _corpus_record(doc, text, sources, versions, groups, superseded)

    def cases():
        for name, case in dataset.cases.items():
            record = {"id": name, "question": case.get("question", ""),
                      "relevant": _plain(case["relevant"])}
            if case.get("support") is not None:
                record["support"] = {claim: list(sources_)
                                     for claim, sources_ in case["support"].items()}
            for key in CASE_EXTRAS:
                if key in case:
                    value = case[key]
                    record[key] = ([dict(item) for item in value] if key == "reviews" else
                                   value if type(value) is str else list(value))
            yield record

    def runs():
        for case_name, per_case in dataset.runs.items():
            for system, trials in per_case.items():
                yield from _run_records(case_name, system, trials)

    return {"corpus": corpus(), "cases": cases(), "runs": runs()}


# Fast paths for the two large files of an imported dataset (IDs only: a corpus without
# text, runs with only a ranking). json.dumps (ensure_ascii=False) writes a str as itself
# between quotes unless it holds a quote, a backslash or a character below U+0020, so a
# line built by joining IDs is the line json.dumps gives exactly when the IDs hold none of
# those (for a run line: the line holds none but the quotes its layout puts there, counted).
# Anything else, and anything not exactly a str, is encoded by json.dumps as before.
_ESCAPED = re.compile(r"[\x00-\x1f\\]").search
_NONE_ONLY = frozenset({type(None)})
#: The bytes a line of joined IDs may hold besides its line ending.
_UNESCAPED = bytes(byte for byte in range(256) if byte >= 0x20 and byte != 0x5C)


def _corpus_chunks(dataset):
    """The corpus file as :func:`_chunks` gives it, IDs without text joined directly."""
    sources, versions = dataset.sources or {}, dataset.versions or {}
    groups, superseded = dataset.groups or {}, dataset.superseded or frozenset()
    if sources or versions or groups or superseded:
        yield from _chunks(dataset_records(dataset)["corpus"])
        return
    docs, texts = iter(dataset.corpus), iter(dataset.corpus.values())
    while True:
        batch_docs = list(islice(docs, _BATCH))
        if not batch_docs:
            return
        batch_texts = list(islice(texts, _BATCH))
        if (_NONE_ONLY.issuperset(map(type, batch_texts))
                and _STR_ONLY.issuperset(map(type, batch_docs))):
            plain = "".join(batch_docs)
            if not _ESCAPED(plain) and '"' not in plain:
                yield ('{"id": "' + '"}\n{"id": "'.join(batch_docs) + '"}\n').encode("utf-8")
                continue
        yield ("\n".join(_ENCODE(_corpus_record(doc, text, {}, {}, {}, ()))
                          for doc, text in zip(batch_docs, batch_texts)) + "\n").encode("utf-8")


def _run_chunks(dataset):
    """The runs file as :func:`_chunks` gives it, a batch of rankings joined directly when
    :func:`_joined_runs` can."""
    runs = ((case_name, system, trials) for case_name, per_case in dataset.runs.items()
            for system, trials in per_case.items())
    while True:
        batch = list(islice(runs, _BATCH))
        if not batch:
            return
        yield _joined_runs(batch) or ("\n".join(
            _ENCODE(record) for item in batch for record in _run_records(*item)) + "\n"
        ).encode("utf-8")


def _joined_runs(batch):
    """The lines of ``batch`` (``(case, system, run)`` triples) as bytes when every run
    holds only a ranking (a tuple of str) and no name or ID needs escaping, else ``None``.

    Checked on the bytes (fast, in C): UTF-8 writes a character below U+0020 or a backslash
    as that one byte, never inside another character, and each line holds exactly the
    quotes its layout puts there."""
    lines, quotes = [], 0
    for case_name, system, run in batch:
        if type(run) is not dict or len(run) != 1 or type(case_name) is not str \
                or type(system) is not str or type(run.get("retrieved")) is not tuple:
            return None
        ranking = run["retrieved"]
        try:
            listed = '"' + '", "'.join(ranking) + '"' if ranking else ""
        except TypeError:  # not all str: json.dumps says what it makes of them
            return None
        lines.append('{"case": "' + case_name + '", "system": "' + system
                     + '", "retrieved": [' + listed + "]}")
        quotes += 10 + 2 * len(ranking)
    try:
        data = ("\n".join(lines) + "\n").encode("utf-8")
    except UnicodeEncodeError:  # json.dumps's lines fail the same way
        return None
    if data.count(b'"') != quotes or data.translate(None, _UNESCAPED) != b"\n" * len(lines):
        return None
    return data


def encoded_ranking(ranking):
    r"""The JSON text (UTF-8 bytes) of ``ranking`` (a tuple of ID strings) as a line of the
    runs file writes it after ``"retrieved": ``.

    >>> encoded_ranking(("d1", 'say"hi', "café"))
    b'["d1", "say\\"hi", "caf\xc3\xa9"]'
    """
    return _ENCODE(ranking).encode("utf-8")


def encoded_rankings(rankings):
    r"""``[encoded_ranking(ranking) for ranking in rankings]``, built by joining IDs when
    none of them needs escaping (the rule of :func:`_joined_runs`: json.dumps writes a str
    as itself between quotes unless it holds a quote, a backslash or a character below
    U+0020), which is about ten times faster than the encoder on 100 short IDs.

    >>> encoded_rankings([("d1", "d2"), (), ('say"hi',)])
    [b'["d1", "d2"]', b'[]', b'["say\\"hi"]']
    """
    rankings = list(rankings)
    try:
        texts = ['["' + '", "'.join(ranking) + '"]' if ranking else "[]"
                 for ranking in rankings]
    except TypeError:  # not all str: the encoder says what it makes of them
        return list(map(encoded_ranking, rankings))
    joined = "".join(texts)
    if _ESCAPED(joined) or joined.count('"') != 2 * sum(map(len, rankings)):
        return list(map(encoded_ranking, rankings))
    return [text.encode("utf-8") for text in texts]


def encoded_runs_chunks(runs):
    """The runs file of rankings-only runs, as :func:`save_dataset` writes it, from
    ``(case, system, ranking)`` triples in the file's order, each ranking given as
    :func:`encoded_ranking` gives it (so a ranking encoded elsewhere, in another process,
    is written as it is). Each line is ``json.dumps({"case": case, "system": system,
    "retrieved": list(ranking)}, ensure_ascii=False)``, which the C encoder writes as these
    parts joined."""
    names = {}

    def name(value):
        encoded = names.get(value)
        if encoded is None:
            encoded = names[value] = _ENCODE(value).encode("utf-8")
        return encoded

    while True:
        batch = list(islice(runs, _BATCH))
        if not batch:
            return
        yield b"".join(b'{"case": ' + _ENCODE(case).encode("utf-8") + b', "system": '
                       + name(system) + b', "retrieved": ' + ranking + b"}\n"
                       for case, system, ranking in batch)


def dataset_chunks(dataset):
    """``{kind: iterable of bytes}``: the data files :func:`save_dataset` writes."""
    return {"corpus": _corpus_chunks(dataset),
            "cases": _chunks(dataset_records(dataset)["cases"]),
            "runs": _run_chunks(dataset)}


def dataset_files(dataset):
    """``{kind: bytes}``: the data files :func:`save_dataset` writes for ``dataset``."""
    return {kind: b"".join(chunks) for kind, chunks in dataset_chunks(dataset).items()}


def uses_version_3(dataset):
    """True when ``dataset`` holds anything only format version 3 can say."""
    if dataset.groups or dataset.superseded or dataset.rubric or dataset.manifests:
        return True
    if any(key in case for case in dataset.cases.values() for key in CASE_EXTRAS):
        return True
    return any(type(run) is not dict or any(key in run for key in RUN_EXTRAS)
               for per_case in dataset.runs.values() for run in per_case.values())


def dataset_index(dataset):
    """The index (``dataset.json``) :func:`save_dataset` writes, without the file names."""
    index = {"format": FORMAT, "version": 3 if uses_version_3(dataset) else VERSION,
             "name": dataset.name, "description": dataset.description}
    if dataset.rubric is not None:
        index["rubric"] = dataset.rubric
    if dataset.manifests:
        index["manifests"] = dataset.manifests
    if dataset.ids != "course":
        index["ids"] = dataset.ids
    if dataset.min_relevance != 1:
        index["min_relevance"] = dataset.min_relevance
    if dataset.notes:
        index["notes"] = list(dataset.notes)
    return index


def check_dataset(dataset):
    """Raise :class:`~ragscore.core.rules.InvalidInputError` unless ``dataset`` is valid:
    what :func:`load_dataset` would accept after :func:`save_dataset`."""
    rules = _check_index_fields(dataset)
    known = validate_corpus(dataset.corpus, rules=rules)  # frozenset(corpus), built once
    _check_records(dataset, rules, known)


def _check_index_fields(dataset):
    """Check what the index (``dataset.json``) says: the type, notes, name, description,
    ``min_relevance`` and ID rules; return the rules. Cheap: no corpus, case or run."""
    if not isinstance(dataset, Dataset):
        raise InvalidInputError(f"dataset must be a ragscore Dataset; got {show(dataset)}")
    rules = _rules(dataset.ids)
    if type(dataset.notes) not in (tuple, list) or not all(type(n) is str for n in dataset.notes):
        raise InvalidInputError(f"dataset.notes must be a tuple of str; got "
                                f"{show(dataset.notes)}")
    for key in ("name", "description"):
        if type(getattr(dataset, key)) is not str:
            raise InvalidInputError(f"dataset.{key} must be a str; got "
                                    f"{show(getattr(dataset, key))}")
    minimum = dataset.min_relevance
    if type(minimum) is not int or minimum < 1:
        raise InvalidInputError(f"dataset.min_relevance must be an int of at least 1; got "
                                f"{show(minimum)}")
    return rules


def _check_records(dataset, rules, known):
    """Check the corpus's companions, the cases and the runs against the corpus IDs
    ``known``, as loading them back would."""
    _check_chunks(dataset, rules)
    if type(dataset.cases) is not dict:
        raise InvalidInputError(f"dataset.cases must be a dict; got {show(dataset.cases)}")
    for name in dataset.cases:
        if not (rules.is_id(name) if rules.open_labels else
                type(name) is str and _NAME(name)):
            raise InvalidInputError(f"case name must be {rules.expected}; got {show(name)}")
    if type(dataset.runs) is dict:
        for per_case in dataset.runs.values():
            for system in (per_case if type(per_case) is dict else ()):
                if not (rules.is_id(system) if rules.open_labels else
                        type(system) is str and _NAME(system)):
                    raise InvalidInputError(f"system name must be {rules.expected}; "
                                            f"got {show(system)}")
    sources = dataset.sources or {}
    label_ids = known | frozenset(sources.values()) if sources else known
    for name, case in dataset.cases.items():
        try:
            validate_labels(case, label_ids, rules=rules, min_relevance=dataset.min_relevance)
            validate_reviews(case, label_ids)
        except InvalidInputError as error:
            raise InvalidInputError(f"case {show(name)}: {error}") from None
    if type(dataset.runs) is not dict:
        raise InvalidInputError(f"dataset.runs must be a dict; got {show(dataset.runs)}")
    for case_name, per_case in dataset.runs.items():
        if case_name not in dataset.cases:
            raise InvalidInputError(f"runs[{show(case_name)}] names a case that is not in "
                                    "cases")
        if type(per_case) is not dict:
            raise InvalidInputError(f"runs[{show(case_name)}] must be a dict; got "
                                    f"{show(per_case)}")
        for system, trials in per_case.items():
            if type(trials) is list or type(trials) is tuple:
                if not trials or not all(type(run) is dict and type(run.get("trial")) is int
                                         for run in trials):
                    raise InvalidInputError(
                        f"case {show(case_name)}, system {show(system)}: repeated trials must "
                        f"be a non-empty list of runs, each with an int 'trial'; got "
                        f"{show(trials)}")
            for run in trial_runs(trials):
                try:
                    validate_run(run, known, rules=rules)
                    validate_delivered(run, known, rules=rules)
                except InvalidInputError as error:
                    raise InvalidInputError(f"case {show(case_name)}, system {show(system)}: "
                                            f"{error}") from None
    if uses_version_3(dataset):
        _check_version_3(dataset, rules)


def _check_version_3(dataset, rules):
    """Check what only version 3 says the way loading it back would."""
    if dataset.manifests is not None:
        from .manifest import check_manifests
        check_manifests(dataset.manifests, "dataset.manifests")
    if dataset.rubric is not None and (type(dataset.rubric) is not str
                                       or not dataset.rubric.strip()):
        raise InvalidInputError(f"dataset.rubric must be a non-blank str; got "
                                f"{show(dataset.rubric)}")
    groups, superseded = dataset.groups or {}, dataset.superseded or frozenset()
    if type(groups) is not dict or not all(
            doc in dataset.corpus and isinstance(allowed, (set, frozenset, tuple, list))
            and all(type(group) is str for group in allowed) for doc, allowed in groups.items()):
        raise InvalidInputError(f"dataset.groups must map corpus IDs to sets of group names; "
                                f"got {show(groups)}")
    if not isinstance(superseded, (set, frozenset)) or not all(
            type(doc) is str and doc in dataset.corpus for doc in superseded):
        raise InvalidInputError(f"dataset.superseded must be a set of corpus IDs; got "
                                f"{show(superseded)}")
    reader = _Reader(3, rules, MAX_FILE_BYTES)
    records_ = dataset_records(dataset)
    for record in records_["corpus"]:
        reader.access(record, record["id"], f"corpus {show(record['id'])}")
    for record in records_["cases"]:
        reader.case(record, f"case {show(record['id'])}")
    seen, numbered = set(), {}
    for record in records_["runs"]:
        place = f"case {show(record['case'])}, system {show(record['system'])}"
        run = {}
        _run_extras(record, run, place)
        key = (record["case"], record["system"], run.get("trial"))
        if key in seen or numbered.setdefault(key[:2], key[2] is not None) != (
                key[2] is not None):
            raise InvalidInputError(f"{place}: trial numbers must be unique and given on "
                                    f"every trial; got {show(key[2])}")
        seen.add(key)


def _check_chunks(dataset, rules):
    """``sources`` and ``versions``: ``None`` or a dict keyed by corpus IDs, each value what
    the corpus reader accepts (a source an ID or a name, a version a non-blank string)."""
    for key in ("sources", "versions"):
        mapping = getattr(dataset, key)
        if mapping is None:
            continue
        if type(mapping) is not dict:
            raise InvalidInputError(f"dataset.{key} must be a dict of corpus ID to str or "
                                    f"None; got {show(mapping)}")
        for doc, value in mapping.items():
            if type(doc) is not str or doc not in dataset.corpus:
                raise InvalidInputError(f"dataset.{key} key must be an ID in the corpus; got "
                                        f"{show(doc)}")
            fits = (rules.is_id(value) or type(value) is str and _NAME(value)
                    if key == "sources" else type(value) is str and value.strip())
            if not fits:
                expected = rules.expected if key == "sources" else "a non-blank string"
                raise InvalidInputError(f"dataset.{key}[{show(doc)}] must be {expected}; got "
                                        f"{show(value)}")


def save_dataset(dataset, path, *, overwrite=False):
    """Write ``dataset`` as a dataset folder at ``path`` (format version 2); return the path.

    The dataset is validated before anything is written (:func:`check_dataset`). The write
    is atomic (see :mod:`ragscore.io.store`): a reader never sees half a dataset, a failed
    or killed save leaves the old version intact, and ``overwrite=True`` replaces only a
    ragscore dataset. A report trusts what this wrote: it reads a folder whose files still
    hash to their names without looking up each ID in the corpus again (:func:`read_counts`).
    """
    check_dataset(dataset)
    return write_dataset_folder(lambda: dataset_chunks(dataset), dataset_index(dataset), path,
                                overwrite=overwrite)


def save_valid_by_construction(dataset, path, *, runs_file, overwrite=False):
    """:func:`save_dataset` without checking the corpus, cases and runs again (the index's
    fields are still checked), for the TREC importer alone
    (:func:`~ragscore.io.importers.trec.import_trec_encoded`), whose records are valid by
    construction: built under the rules :func:`check_dataset` applies
    (``tests/io/importers/test_trec_valid.py`` shows that what it returns always passes
    :func:`check_dataset`). At 100,000 questions and 20,000,000 ranked documents the check
    takes about 8 seconds. Records that are not valid must never come here: a report
    trusts the folder (see :func:`save_dataset`).

    ``runs_file``: a function giving, on each call, the runs file as an iterable of bytes,
    written instead of ``dataset.runs`` (which must be empty): the rankings the importer
    holds already encoded (:func:`encoded_runs_chunks`). The dataset's index must not need
    format version 3.
    """
    _check_index_fields(dataset)
    if dataset.runs or uses_version_3(dataset):
        raise InvalidInputError("save_valid_by_construction takes a dataset of format version "
                                "2 without runs of its own (they come in runs_file)")
    return write_dataset_folder(lambda: dict(dataset_chunks(dataset), runs=runs_file()),
                                dataset_index(dataset), path, overwrite=overwrite)
