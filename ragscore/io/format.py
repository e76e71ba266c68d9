"""The dataset folder format: what a folder may hold, version by version (see
``docs/dataset-format.md``), and the rules its index (``dataset.json``) must meet.

A folder holds ``dataset.json`` and three JSON Lines files, one object per line::

    corpus   {"id": "launch", "text": "The release window starts on Monday."}
    cases    {"id": "launch", "question": "...", "relevant": ["launch"],
              "support": {"monday": ["launch"]}}
    runs     {"case": "launch", "system": "A", "retrieved": ["launch", "archive"],
              "claims": [{"claim": "monday", "citations": ["launch"]}]}

Format version 1 names them ``corpus.jsonl``, ``cases.jsonl`` and ``runs.jsonl`` and follows
the course rules. Version 2 (what a save writes) names them by content hash in the index
(:mod:`ragscore.io.store`), and adds, declared in the index: ``ids`` (``course`` or
``open`` ID rules, :mod:`ragscore.core.rules`) and ``min_relevance``; per document an
optional ``source`` and ``version`` (chunks of a document); under open rules, optional text,
graded relevance (``"relevant": {"doc": 2}``), and cases without ``support`` or runs without
``claims`` (a retrieval-only test set). Version 3 adds run records (trials, the delivered
context, the answer text, operations), access groups, superseded chunks, slices, reviews
and a case's reference answers (``reference``). Version 4 adds judgements of answer claims
to the reviews (``text``, ``states``, ``sources``, ``date``; see :mod:`ragscore.core.answers`).
Version 5 (what a save writes; the issues' "version 3" of the test set in text and the runs
in Parquet) keeps the corpus and the cases in JSON Lines and the runs in one Parquet file,
each ranking coded by the documents' positions in the corpus file (see
:mod:`ragscore.engine.parquet`): the records say what version 4's say, under the
same keys and rules, and may add a case's ``nuggets`` (and ``numeric_id``) and a run's
answer as cited
``sentences`` with its ``response_length`` (:mod:`ragscore.io.nugget_fields`). It adds a
fourth file, ``judgements.<hash>.jsonl`` (written when there are some): reviewers'
judgements about the test set, keyed by what was judged (:mod:`ragscore.core.labels`,
:mod:`ragscore.io.judgements`); and for a span test set a fifth, ``documents.<hash>.jsonl``
(the source documents and their versions), each chunk's place in its document (``start``,
``end``) and the index key ``spans`` (:mod:`ragscore.io.documents`,
:mod:`ragscore.core.spans`).

The files and the keys of each version are listed here and in
:data:`ragscore.io.store.LAYOUTS` (the encoding of each file): a new record kind is a row of
each.
"""
import re
from collections import namedtuple

from ..core.rules import RULES, InvalidInputError, show
from ..core.scoring import OPS_KEYS
from ..core.trials import trial_runs
from .nugget_fields import written_sentences
from .store import FORMAT, INDEX, KINDS, LAYOUTS

VERSIONS = tuple(LAYOUTS)
#: The version a save writes.
VERSION = 5
FILES = {"manifest": INDEX, "corpus": "corpus.jsonl", "cases": "cases.jsonl",
         "runs": "runs.jsonl"}
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
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
                            "caller_groups", "conflicting", "reviews", "reference"}),
        "runs": frozenset({"case", "system", "retrieved", "claims", "trial", "delivered",
                           "answer", "latency_ms", "tokens", "cost", "retries", "failed"})},
}
KEYS[4] = KEYS[3]
#: Version 5 adds a case's ``nuggets`` (and ``numeric_id``: its ID was written as a number
#: where it came from) and a run's answer as ``sentences`` with its ``response_length``
#: (:mod:`ragscore.io.nugget_fields`), and a chunk's place in its document (``start``,
#: ``end``; span test sets).
CASE_V5 = ("nuggets", "numeric_id")
RUN_V5 = ("sentences", "response_length")
KEYS[5] = {"corpus": KEYS[3]["corpus"] | {"start", "end"},
           "cases": KEYS[3]["cases"] | frozenset(CASE_V5),
           "runs": KEYS[3]["runs"] | frozenset(RUN_V5)}
SPLITS = ("dev", "heldout")
CASE_EXTRAS = ("tags", "split", "caller_groups", "conflicting", "reviews", "reference")
RUN_EXTRAS = ("trial", "delivered", "answer") + OPS_KEYS
REVIEW_KEYS = frozenset({"reviewer", "doc", "system", "claim", "decision", "note"})
#: A judgement of an answer's claim (version 4): its normalised text, not an ID.
TEXT_REVIEW_KEYS = frozenset({"reviewer", "text", "decision", "states", "sources", "date",
                              "note"})
DECISIONS = {"doc": ("relevant", "not relevant"), "claim": ("supported", "unsupported"),
             "text": ("supported", "unsupported", "not a claim")}
#: Index keys by version. ``checked`` was written by saves before ragscore 0.2 and is
#: ignored: a folder is checked every time it is read, whatever its index says.
INDEX_KEYS = {1: frozenset({"format", "version", "name", "description"}),
              2: frozenset({"format", "version", "name", "description", "ids",
                            "min_relevance", "files", "notes", "checked"})}
INDEX_KEYS[3] = INDEX_KEYS[2] | {"rubric", "manifests"}
INDEX_KEYS[4] = INDEX_KEYS[3]
INDEX_KEYS[5] = INDEX_KEYS[3] | {"spans", "adjudicators"}
#: The settings of a span test set (index key ``spans``) and their defaults.
SPAN_SETTINGS = {"min_overlap": 1, "overlapping_chunks": False}

__all__ = ["Dataset", "INDEX", "KINDS", "VERSION", "VERSIONS", "check_index", "dataset_index",
           "dataset_records", "needed_version", "rules_of", "span_settings", "uses_version_3",
           "uses_version_4", "uses_version_5"]


class Dataset(namedtuple("Dataset", "corpus cases runs name description ids min_relevance "
                                    "sources versions notes groups superseded rubric "
                                    "manifests judgements documents positions min_overlap "
                                    "overlapping_chunks adjudicators",
                         defaults=("dataset", "", "course", 1, None, None, (), None,
                                   frozenset(), None, None, (), None, None, 1, False, ()))):
    """A frozen test set: corpus, cases, and recorded runs as ``runs[case][system]``.

    ``ids`` names the ID rules (``course`` or ``open``); ``min_relevance`` is the lowest
    grade judged relevant; ``sources`` and ``versions`` map a chunk to the document it
    comes from and that document's version (``None`` or ``{}`` when there are none);
    ``notes`` are sentences every report repeats (what an import dropped or filled in).
    Version 3 adds: ``groups`` (``{chunk: frozenset of access groups}`` for restricted
    chunks), ``superseded`` (chunks of outdated versions), ``rubric`` (the labelling rubric's
    version) and ``manifests`` (``{system: manifest dict}``). Version 5 adds
    ``judgements``: reviewers' judgement records, in the order they were made
    (:mod:`ragscore.core.labels`). A span test set adds ``documents`` (``{doc: (version,
    text)}``), ``positions`` (``{chunk: (doc, start, end)}``: where each chunk is cut from),
    ``min_overlap`` (the characters of a relevant span a chunk must hold to take its grade)
    and ``overlapping_chunks`` (whether chunks may share characters); see
    :mod:`ragscore.core.spans`. ``adjudicators`` (version 5, index key ``adjudicators``)
    names the reviewers whose decision settles a dispute (:mod:`ragscore.core.adjudication`).
    A run may be a list of runs: the repeated trials of one system on one case, in trial
    order.
    """

    __slots__ = ()

    @property
    def systems(self):
        """System names in order of first appearance."""
        return tuple(dict.fromkeys(s for per_case in self.runs.values() for s in per_case))

    @property
    def rules(self):
        """The :class:`~ragscore.core.rules.IdRules` this dataset declares."""
        return rules_of(self.ids)


def rules_of(ids):
    """The :class:`~ragscore.core.rules.IdRules` called ``ids``."""
    if type(ids) is not str or ids not in RULES:
        raise InvalidInputError(f"ids must be one of {', '.join(RULES)}; got {show(ids)}")
    return RULES[ids]


def check_index(index, place):
    """The declared options of an index (a parsed ``dataset.json``, or what a save would
    write): ``(version, rules, min_relevance)``; a broken rule raises
    :class:`~ragscore.core.rules.InvalidInputError` naming ``place`` and the key."""
    if type(index) is not dict:
        raise InvalidInputError(f"{place}: expected a JSON object; got {show(index)}")
    if index.get("format") != FORMAT:
        raise InvalidInputError(f"{place}: key 'format' must be {FORMAT!r}; got "
                                f"{show(index.get('format'))}")
    version = index.get("version")
    if type(version) is not int or version not in VERSIONS:
        raise InvalidInputError(f"{place}: key 'version' must be 1, 2, 3, 4 or 5; got "
                                f"{show(version)}")
    extra = sorted(str(key) for key in index if key not in INDEX_KEYS[version])
    if extra:
        raise InvalidInputError(f"{place}: unknown key {show(extra[0])} for version {version}")
    for key in ("name", "description"):
        if type(index.get(key, "")) is not str:
            raise InvalidInputError(f"{place}: key {key!r} must be a string; got "
                                    f"{show(index.get(key))}")
    ids = index.get("ids", "course")
    if type(ids) is not str or ids not in RULES:
        raise InvalidInputError(f"{place}: key 'ids' must be one of {', '.join(RULES)}; got "
                                f"{show(ids)}")
    notes = index.get("notes", [])
    if type(notes) not in (list, tuple) or not all(type(note) is str for note in notes):
        raise InvalidInputError(f"{place}: key 'notes' must be an array of strings; got "
                                f"{show(notes)}")
    rubric = index.get("rubric")
    if "rubric" in index and (type(rubric) is not str or not rubric.strip()):
        raise InvalidInputError(f"{place}: key 'rubric' must be a non-blank string; got "
                                f"{show(rubric)}")
    if "manifests" in index:
        from .schemas import check_manifests

        check_manifests(index["manifests"], place)
    if "spans" in index:
        _check_span_settings(index["spans"], place)
    named = index.get("adjudicators", [])
    if type(named) is not list or not all(type(name) is str and name.strip() for name in named) \
            or len(set(named)) != len(named):
        raise InvalidInputError(f"{place}: key 'adjudicators' must be an array of distinct "
                                f"reviewer names; got {show(named)}")
    minimum = index.get("min_relevance", 1)
    if type(minimum) is not int or minimum < 1:
        raise InvalidInputError(f"{place}: key 'min_relevance' must be an int of at least 1; "
                                f"got {show(minimum)}")
    return version, RULES[ids], minimum


def _check_span_settings(settings, place):
    """The index key ``spans``: ``{"min_overlap": int >= 1, "overlapping_chunks": bool}``."""
    if type(settings) is not dict or set(settings) != set(SPAN_SETTINGS):
        raise InvalidInputError(f"{place}: key 'spans' must be an object with "
                                f"{' and '.join(SPAN_SETTINGS)}; got {show(settings)}")
    minimum = settings["min_overlap"]
    if type(minimum) is not int or minimum < 1:
        raise InvalidInputError(f"{place}: key 'spans.min_overlap' must be a whole number of "
                                f"at least 1 (characters); got {show(minimum)}")
    if type(settings["overlapping_chunks"]) is not bool:
        raise InvalidInputError(f"{place}: key 'spans.overlapping_chunks' must be true or "
                                f"false; got {show(settings['overlapping_chunks'])}")


def span_settings(index):
    """``(min_overlap, overlapping_chunks)`` an index declares (the defaults without
    ``spans``)."""
    settings = index.get("spans") or SPAN_SETTINGS
    return settings["min_overlap"], settings["overlapping_chunks"]


def uses_version_3(dataset):
    """True when ``dataset`` holds anything only format version 3 can say."""
    if dataset.groups or dataset.superseded or dataset.rubric or dataset.manifests:
        return True
    if type(dataset.cases) is dict and any(
            type(case) is dict and key in case
            for case in dataset.cases.values() for key in CASE_EXTRAS):
        return True
    return type(dataset.runs) is dict and any(
        type(run) is not dict or any(key in run for key in RUN_EXTRAS)
        for per_case in dataset.runs.values() if type(per_case) is dict
        for run in per_case.values())


def uses_version_4(dataset):
    """True when some case of ``dataset`` holds a judgement of an answer's claim."""
    return type(dataset.cases) is dict and any(
        type(review) is dict and "text" in review
        for case in dataset.cases.values() if type(case) is dict
        for review in (case.get("reviews") if type(case.get("reviews")) in (list, tuple)
                       else ()))


def uses_version_5(dataset):
    """True when ``dataset`` holds judgements or source documents (a span test set), a case
    listing nuggets or a run recording its answer as sentences or its response length."""
    if dataset.judgements or dataset.documents or dataset.adjudicators:
        return True
    if type(dataset.cases) is dict and any(
            type(case) is dict and key in case
            for case in dataset.cases.values() for key in CASE_V5):
        return True
    return type(dataset.runs) is dict and any(
        type(run) is dict and any(key in run for key in RUN_V5)
        for per_case in dataset.runs.values() if type(per_case) is dict
        for trials in per_case.values() for run in trial_runs(trials))


def needed_version(dataset):
    """The oldest format version that can say everything ``dataset`` holds (2 to 5)."""
    return (5 if uses_version_5(dataset) else 4 if uses_version_4(dataset)
            else 3 if uses_version_3(dataset) else 2)


def dataset_index(dataset, version=VERSION):
    """The index (``dataset.json``) a save writes for ``dataset`` in format ``version``
    (version 5 unless told: an older one only where it can say everything the dataset
    holds), without the file names."""
    if version not in VERSIONS[1:] or version < needed_version(dataset):
        raise InvalidInputError(f"version must be one of 2 to {VERSION} and at least "
                                f"{needed_version(dataset)} for this dataset; got "
                                f"{show(version)}")
    index = {"format": FORMAT, "version": version,
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
    if dataset.documents:
        index["spans"] = {"min_overlap": dataset.min_overlap,
                          "overlapping_chunks": dataset.overlapping_chunks}
    if dataset.adjudicators:
        index["adjudicators"] = list(dataset.adjudicators)
    return index


# ---- records ---------------------------------------------------------------------------

def _plain(value):
    return list(value) if type(value) is tuple else dict(value)


def _corpus_record(doc, text, sources, versions, groups, superseded, positions):
    record = {"id": doc}
    if text is not None:
        record["text"] = text
    if doc in sources:
        record["source"] = sources[doc]
    if doc in versions:
        record["version"] = versions[doc]
    if doc in positions:
        record["start"], record["end"] = positions[doc][1:]
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
        if "sentences" in run:
            record["sentences"] = written_sentences(run["sentences"])
        if "response_length" in run:
            record["response_length"] = run["response_length"]
        yield record


def dataset_records(dataset):
    """``{kind: iterator of records}``: what :func:`save_dataset` writes for ``dataset``."""
    sources, versions = dataset.sources or {}, dataset.versions or {}
    groups, superseded = dataset.groups or {}, dataset.superseded or frozenset()
    positions = dataset.positions or {}

    def corpus():
        for doc, text in dataset.corpus.items():
            yield _corpus_record(doc, text, sources, versions, groups, superseded, positions)

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
            if "nuggets" in case:
                record["nuggets"] = [dict(item) for item in case["nuggets"]]
            if case.get("numeric_id"):
                record["numeric_id"] = True
            yield record

    def runs():
        for case_name, per_case in dataset.runs.items():
            for system, trials in per_case.items():
                yield from _run_records(case_name, system, trials)

    found = {"corpus": corpus(), "cases": cases(), "runs": runs()}
    if dataset.judgements:
        found["judgements"] = (dict(record) for record in dataset.judgements)
    if dataset.documents:
        found["documents"] = ({"id": doc, "version": version, "text": text}
                              for doc, (version, text) in dataset.documents.items())
    return found
