"""Span labels reach the nugget scores: a claim whose cited chunks hold only part of its
evidence assigns its nugget TREC's partial_support (issue 34's seam, issue 33's rule),
in both engines. Values worked by hand from fixtures/spans at chapter 10's cut of 80."""

import pytest

from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_dataset
from ragscore.workbook.chunking import chunked

NAMES = ("nugget_strict_all", "nugget_all", "nugget_weighted")


def _rollback(dataset, engine, k):
    counted = count_dataset(dataset, engine=engine)
    values = {name: counted.values(REGISTRY[name], k) for name in NAMES}
    return {(system, name): round(float(values[name][place]), 4)
            for place, (case, system) in enumerate(counted.keys) if case == "rollback"
            for name in NAMES}


@pytest.mark.parametrize("engine", ["reference", "columnar"])
def test_a_claim_citing_part_of_its_evidence_is_partial_support(sentences, engine):
    # At 80 characters the release notes are cut at 73/74: switch's evidence (47-90) lies
    # in both @0 and @74, smoke's (108-126) whole in @74. Rollback's nuggets are its two
    # expected claims, both vital. B ranks @0, @74 and cites @0 for switch (part of its
    # evidence: partial_support, from k = 1) and @74 for smoke (whole: support from k = 2).
    # A ranks @0 and states only switch, citing @0: partial; smoke not stated: not_support.
    at_80 = chunked(sentences, 80)
    assert _rollback(at_80, engine, 1) == {
        ("A", "nugget_strict_all"): 0.0, ("A", "nugget_all"): 0.25,      # 0.5 / 2
        ("A", "nugget_weighted"): 0.25,
        ("B", "nugget_strict_all"): 0.0, ("B", "nugget_all"): 0.25,      # smoke unseen at 1
        ("B", "nugget_weighted"): 0.25}
    assert _rollback(at_80, engine, 2) == {
        ("A", "nugget_strict_all"): 0.0, ("A", "nugget_all"): 0.25,
        ("A", "nugget_weighted"): 0.25,
        ("B", "nugget_strict_all"): 0.5,                                 # smoke: 1 of 2
        ("B", "nugget_all"): 0.75, ("B", "nugget_weighted"): 0.75}       # (0.5 + 1) / 2
    # On the sentence chunking each claim's evidence is whole in the chunk it cites:
    # B supports both at k = 2, A only switch; no nugget is partial
    assert _rollback(sentences, engine, 2) == {
        ("A", "nugget_strict_all"): 0.5, ("A", "nugget_all"): 0.5,
        ("A", "nugget_weighted"): 0.5,
        ("B", "nugget_strict_all"): 1.0, ("B", "nugget_all"): 1.0,
        ("B", "nugget_weighted"): 1.0}
