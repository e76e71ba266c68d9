"""Run manifests and the test set's fingerprint.

A manifest says what one run was: one system configuration on one test set (run ID, date,
code and prompt revisions, retrieval and generation settings, context cutoff, model, rubric
version, notes). Manifests live in the dataset index under ``manifests``; they are checked
against ``ragscore/schemas/manifest.schema.json`` (:mod:`ragscore.io.schemas`).

The **fingerprint** is computed, never typed: ``corpus_sha256`` and ``questions_sha256`` are
the hex SHA-256 of the corpus and of the questions with their labels, each written in a
canonical form (records sorted by ID, keys sorted, ID sets sorted, compact UTF-8 JSON), so
the same content gives the same hash on any machine and in any key order, and a changed
question text, label or document changes it. Reviewers' judgements are not part of it.
"""
import hashlib
import json
from pathlib import Path

from ..core.rules import InvalidInputError

#: Lists that are sets: their order carries no meaning, so the fingerprint sorts them.
_SET_KEYS = frozenset({"relevant", "tags", "caller_groups", "conflicting", "groups"})

def _canonical(record):
    """``record`` with its set-like lists sorted (recursively in ``support``)."""
    out = {}
    for key, value in record.items():
        if key in _SET_KEYS and type(value) is list:
            value = sorted(value)
        elif key == "support" and type(value) is dict:
            value = {claim: sorted(sources) for claim, sources in value.items()}
        out[key] = value
    return out


def _digest(records):
    digest = hashlib.sha256()
    for record in sorted(records, key=lambda r: r["id"]):
        digest.update(json.dumps(_canonical(record), sort_keys=True, separators=(",", ":"),
                                 ensure_ascii=False).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def fingerprint(dataset):
    """``{"corpus_sha256", "questions_sha256", "rubric"}`` of a dataset (see the module
    docstring for the canonical form).

    >>> from ragscore.io.course import load_course
    >>> fingerprint(load_course())["questions_sha256"][:12]
    '1ca9f41e3ebf'
    """
    from .format import dataset_records

    records = dataset_records(dataset)
    cases = ({key: value for key, value in record.items() if key != "reviews"}
             for record in records["cases"])
    found = {"corpus_sha256": _digest(records["corpus"]), "questions_sha256": _digest(cases),
             "rubric": dataset.rubric}
    if getattr(dataset, "documents", None):
        found["spans_sha256"] = span_fingerprint(dataset)
    return found


#: What a span test set is apart from its chunking: the judgement kinds of its labels.
SPAN_TEST_SET_KINDS = frozenset({"span-relevance", "evidence", "answerability"})
#: A question's fields that do not depend on the chunking.
QUESTION_FIELDS = ("question", "tags", "split", "reference", "caller_groups")


def span_fingerprint(dataset):
    """The SHA-256 of a span test set apart from its chunking: its documents (ID, version
    and text), its questions (text, tags, split, reference answers, callers), its span and
    answerability judgements (every field, provenance included) and the settings the rule
    reads (``min_overlap``, ``min_relevance``, the rubric). Two folders cut from one span
    test set (``ragscore rechunk`` without ``--documents``) share it; a new document
    version, question or label changes it.

    >>> from ragscore.io.format import Dataset
    >>> one = Dataset(corpus={"c": "One."}, cases={"q": {"question": "?", "relevant": ()}},
    ...               runs={}, ids="open", documents={"d": ("v1", "One.")})
    >>> span_fingerprint(one) == span_fingerprint(one._replace(corpus={"x": "One."}))
    True
    >>> span_fingerprint(one) == span_fingerprint(one._replace(documents={"d": ("v2", "1.")}))
    False
    """
    canonical = {
        "documents": sorted([doc, version, text] for doc, (version, text)
                            in dataset.documents.items()),
        "questions": sorted([name, {field: list(case[field]) if type(case[field]) is tuple
                                    else case[field] for field in QUESTION_FIELDS
                                    if field in case}]
                            for name, case in dataset.cases.items()),
        "labels": sorted(json.dumps(record, sort_keys=True, ensure_ascii=False)
                         for record in dataset.judgements
                         if record["kind"] in SPAN_TEST_SET_KINDS),
        "settings": [dataset.min_overlap, dataset.min_relevance, dataset.rubric]}
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def manifest_report(dataset):
    """What ``ragscore manifest DIR`` prints: the test set's fingerprint and, per system,
    its manifest (``None`` where none was recorded)."""
    manifests = dataset.manifests or {}
    return {"dataset": dataset.name, "fingerprint": fingerprint(dataset),
            "runs": {system: manifests.get(system) for system in
                     dict.fromkeys((*dataset.systems, *manifests))}}


def rubric_conflict(manifests, rubric, baseline, candidate):
    """Why ``baseline`` and ``candidate`` may not be compared: they were judged under
    different rubric versions (each run's manifest ``rubric_version``, else the dataset's
    ``rubric``), or ``None``.

    >>> rubric_conflict({"A": {"rubric_version": "1"}}, "2", "A", "B")
    'systems A and B were judged under different rubrics: 1 and 2'
    """
    manifests = manifests if type(manifests) is dict else {}

    def version(system):
        manifest = manifests.get(system)
        return (manifest if type(manifest) is dict else {}).get("rubric_version", rubric)

    before, after = version(baseline), version(candidate)
    if before != after:
        return (f"systems {baseline} and {candidate} were judged under different rubrics: "
                f"{before} and {after}")
    return None


def rubric_mismatch(path, baseline, candidate):
    """Why ``baseline`` and ``candidate`` in the dataset folder at ``path`` may not be
    compared (they were judged under different rubric versions, as their manifests say),
    or ``None``. Reads only the small index."""
    from .jsonl import open_regular, read_json
    from .store import INDEX

    try:
        with open_regular(Path(path) / INDEX, 1 << 24) as handle:
            index = read_json(handle, Path(path) / INDEX, 1 << 24)
    except (OSError, InvalidInputError):
        return None  # the reader has already reported any problem with the folder
    if type(index) is not dict:
        return None
    return rubric_conflict(index.get("manifests"), index.get("rubric"), baseline, candidate)
