"""An independent arithmetic cross-check: 384 retrieval configurations x 10 answer patterns.

The expectations are computed here with plain loops and fractions over lists, never with the
scorer's own helpers, then compared with ``evaluate`` and with batch scoring.
"""
import itertools
from fractions import Fraction

import pytest

import ragscore

DOCS = ("alpha", "beta", "gamma")
CORPUS = {doc: f"Note {doc}." for doc in DOCS} | {"delta": "Never relevant."}


def _retrieved_lists():
    """All rankings of distinct docs from DOCS, lengths 0 to 3: 1 + 3 + 6 + 6 = 16."""
    return [order for length in range(4) for order in itertools.permutations(DOCS, length)]


def _relevant_sets():
    """The empty set (unanswerable) and the 7 non-empty subsets of DOCS: 8."""
    return [subset for size in range(4) for subset in itertools.combinations(DOCS, size)]


CONFIGURATIONS = [(relevant, retrieved, k) for relevant in _relevant_sets()
                  for retrieved in _retrieved_lists() for k in (1, 2, 3)]


def _labels(relevant):
    """Claim 'first' is supported by the first relevant doc; 'whole' needs all of them."""
    if not relevant:
        return {}
    labels = {"first": (relevant[0],)}
    if len(relevant) > 1:
        labels["whole"] = tuple(relevant)
    return labels


def _patterns(relevant):
    """Ten answer patterns, each a tuple of (claim, citations) pairs."""
    first = relevant[0] if relevant else "alpha"
    return [
        (),                                                   # abstain
        (("first", (first,)),),                               # the right citation
        (("first", ()),),                                     # no citation
        (("first", ("nowhere",)),),                           # unknown document
        (("first", ("delta",)),),                             # existing, unlabelled
        (("first", (first, "delta")),),                       # right plus wrong
        (("first", (first,)), ("extra", (first,))),           # unlabelled extra claim
        (("first", (first,)), ("whole", tuple(relevant) or ("beta",))),  # full answer
        (("whole", (first,)),),                               # partial citation set
        (("first", tuple(relevant) or ("gamma",)),),          # cites every relevant doc
    ]


def _expected(relevant, retrieved, k, labels, claims):
    top = list(retrieved)[:k]
    if relevant:
        hits = 0
        for doc in top:
            if doc in relevant:
                hits += 1
        first_rank = None
        for position in range(len(top)):
            if top[position] in relevant:
                first_rank = position + 1
                break
        precision = Fraction(hits, k)
        recall = Fraction(hits, len(relevant))
        rr = Fraction(1, first_rank) if first_rank else Fraction(0)
    else:
        precision = recall = rr = None
    supported = 0
    for claim, citations in claims:
        ok = len(citations) > 0
        for doc in citations:
            if claim not in labels or doc not in labels[claim] or doc not in top:
                ok = False
        if ok:
            supported += 1
    support = Fraction(supported, len(claims)) if len(claims) > 0 else None
    coverage = Fraction(supported, len(labels)) if len(labels) > 0 else None
    abstention = (len(claims) == 0) if len(labels) == 0 else None
    return precision, recall, rr, support, coverage, abstention


def _as_float(value):
    return float(value) if isinstance(value, Fraction) else value


def _all_evaluations():
    for relevant, retrieved, k in CONFIGURATIONS:
        labels = _labels(relevant)
        for pattern, claims in enumerate(_patterns(relevant)):
            yield relevant, retrieved, k, labels, pattern, claims


def test_there_are_3840_evaluations():
    assert len(CONFIGURATIONS) == 384
    assert sum(1 for _ in _all_evaluations()) == 3840


def test_evaluate_matches_independent_arithmetic():
    mismatches = []
    for relevant, retrieved, k, labels, pattern, claims in _all_evaluations():
        case = {"relevant": relevant, "support": labels}
        run = {"retrieved": retrieved, "claims": claims}
        got = tuple(ragscore.evaluate(CORPUS, case, run, k=k).values())
        want = tuple(_as_float(v) for v in _expected(relevant, retrieved, k, labels, claims))
        if got != want or any(type(a) is not type(b) for a, b in zip(got, want)):
            mismatches.append((relevant, retrieved, k, pattern, got, want))
    assert mismatches == []


@pytest.mark.parametrize("k", [1, 2, 3])
def test_batch_scoring_matches_independent_arithmetic(k):
    cases, runs, expected = {}, {}, {}
    for number, (relevant, retrieved, _, labels, pattern, claims) in enumerate(
            item for item in _all_evaluations() if item[2] == k):
        name = f"c{number // 10}"
        cases[name] = {"relevant": relevant, "support": labels}
        runs.setdefault(name, {})[f"p{pattern}"] = {"retrieved": retrieved, "claims": claims}
        expected[(name, f"p{pattern}")] = _expected(relevant, retrieved, k, labels, claims)
    table = ragscore.score_runs(CORPUS, cases, runs, k=k)
    assert list(table.index) == list(expected)
    for key, want in expected.items():
        row = table.loc[key]
        for metric, value in zip(ragscore.CONTRACT, want):
            cell = row[metric]
            if value is None:
                assert cell is ragscore_na(), (key, metric)
            else:
                assert cell == _as_float(value), (key, metric, cell, value)


def ragscore_na():
    import pandas as pd
    return pd.NA
