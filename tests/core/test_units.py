"""Dedupe and chunk-to-document projection, by hand."""
from ragscore.core.counts import count
from ragscore.core.scoring import Counter
from ragscore.core.units import dedupe_ranking, project_claims, project_ranking

SOURCES = {"a#1": "a", "a#2": "a", "b#1": "b", "c#1": "c"}


def test_dedupe_keeps_the_first_and_counts_the_rest():
    assert dedupe_ranking(("x", "y", "x", "x", "z")) == (("x", "y", "z"), 2)
    assert dedupe_ranking(("x",)) == (("x",), 0)
    assert dedupe_ranking(["x", "x"]) == (["x", "x"], 0)  # not a tuple: validation explains


def test_projection_keeps_each_documents_first_place():
    assert project_ranking(("b#1", "a#2", "c#1", "a#1"), SOURCES) == (("b", "a", "c"), 1)
    assert project_ranking(("own",), SOURCES) == (("own",), 0)  # no source: itself


def test_citations_name_documents_once():
    assert project_claims((("k", ("a#1", "a#2", "b#1")),), SOURCES) == (("k", ("a", "b")),)
    assert project_claims(None, SOURCES) is None


def test_document_unit_scores_labels_on_documents():
    # labels on documents a and c; the run retrieves chunks b#1, a#2, a#1, c#1
    counter = Counter(frozenset(SOURCES), unit="document", sources=SOURCES)
    labels = counter.labels({"relevant": ("a", "c"), "support": {"k": ("a",)}})
    counts = counter.count(labels, {"retrieved": ("b#1", "a#2", "a#1", "c#1"),
                                    "claims": (("k", ("a#1",)),)})
    assert counts == count({"a", "c"}, {"k": {"a"}}, ("b", "a", "c"), (("k", ("a",)),),
                           collapsed=1)
    assert counts.relevant_ranks == (2, 3)
