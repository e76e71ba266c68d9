"""An independent arithmetic cross-check for chapter 5: 384 retrieval configurations x 10
answer patterns = 3,840 evaluations, each recomputed here with plain loops and fractions and
compared with :func:`ragscore.evaluate`.

This is deliberately a second, naive copy of the contract's arithmetic (an oracle), written
without the scorer's helpers, so that a defect in the scorer shows up as a disagreement. The
test suite keeps its own oracle (``tests/core/test_crosscheck.py``).
"""
import itertools
from fractions import Fraction

from ..core.scoring import evaluate

DOCS = ("alpha", "beta", "gamma")
CORPUS = {doc: f"Note {doc}." for doc in DOCS} | {"delta": "Never relevant."}
CUTOFFS = (1, 2, 3)


def rankings():
    """Every ranking of distinct docs from DOCS, lengths 0 to 3: 1 + 3 + 6 + 6 = 16."""
    return [order for size in range(4) for order in itertools.permutations(DOCS, size)]


def relevant_sets():
    """No relevant doc (unanswerable) and the 7 non-empty subsets of DOCS: 8."""
    return [subset for size in range(4) for subset in itertools.combinations(DOCS, size)]


def labels_for(relevant):
    """Claim 'first' is supported by the first relevant doc; 'whole' needs all of them."""
    if not relevant:
        return {}
    labels = {"first": (relevant[0],)}
    if len(relevant) > 1:
        labels["whole"] = tuple(relevant)
    return labels


def patterns(relevant):
    """Ten answers: abstain, right, uncited, unknown, unlabelled, right plus wrong, extra
    claim, full answer, partial citation set, every relevant doc cited."""
    first = relevant[0] if relevant else "alpha"
    return [(), (("first", (first,)),), (("first", ()),), (("first", ("nowhere",)),),
            (("first", ("delta",)),), (("first", (first, "delta")),),
            (("first", (first,)), ("extra", (first,))),
            (("first", (first,)), ("whole", tuple(relevant) or ("beta",))),
            (("whole", (first,)),), (("first", tuple(relevant) or ("gamma",)),)]


def by_hand(relevant, retrieved, k, labels, claims):
    """The six contract values, worked with loops and fractions (None for n/a)."""
    top = list(retrieved)[:k]
    values = [None, None, None]
    if relevant:
        ranks = [rank for rank, doc in enumerate(top, start=1) if doc in relevant]
        values = [Fraction(len(ranks), k), Fraction(len(ranks), len(relevant)),
                  Fraction(1, ranks[0]) if ranks else Fraction(0)]
    supported = sum(1 for claim, cited in claims
                    if cited and all(doc in labels.get(claim, ()) and doc in top
                                     for doc in cited))
    values.append(Fraction(supported, len(claims)) if claims else None)
    values.append(Fraction(supported, len(labels)) if labels else None)
    values.append(not claims if not labels else None)
    return tuple(float(v) if isinstance(v, Fraction) else v for v in values)


def crosscheck():
    """Run every evaluation; return ``{"configurations", "patterns", "evaluations",
    "disagreements"}`` (counts).

    >>> crosscheck()
    {'configurations': 384, 'patterns': 10, 'evaluations': 3840, 'disagreements': 0}
    """
    configurations = [(relevant, retrieved, k) for relevant in relevant_sets()
                      for retrieved in rankings() for k in CUTOFFS]
    evaluations = disagreements = 0
    for relevant, retrieved, k in configurations:
        labels = labels_for(relevant)
        case = {"relevant": relevant, "support": labels}
        for claims in patterns(relevant):
            got = tuple(evaluate(CORPUS, case, {"retrieved": retrieved, "claims": claims},
                                 k=k).values())
            evaluations += 1
            disagreements += got != by_hand(relevant, retrieved, k, labels, claims)
    return {"configurations": len(configurations), "patterns": len(patterns(DOCS)),
            "evaluations": evaluations, "disagreements": disagreements}
