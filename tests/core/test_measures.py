"""The measure-name parser: ir_measures' spelling, uncut forms, registry labels, errors."""
import pytest

from ragscore.core.measures import Measure, measures_of, parse_measures
from ragscore.core.rules import InvalidInputError


def test_ecosystem_names_map_to_registry_metrics_and_cutoffs():
    found = parse_measures("P@5 P@10 nDCG@10 AP RR R@100 Success@1")
    assert found == (Measure("P@5", "precision", 5), Measure("P@10", "precision", 10),
                     Measure("nDCG@10", "ndcg", 10), Measure("AP", "ap", None),
                     Measure("RR", "rr", None), Measure("R@100", "recall", 100),
                     Measure("Success@1", "hit", 1))


def test_trec_eval_names():
    names = [m.trec_name for m in parse_measures("AP AP@10 nDCG nDCG@10 RR P@5 R@100 "
                                                 "Success@1 RR@3")]
    assert names == ["map", "map_cut_10", "ndcg", "ndcg_cut_10", "recip_rank", "P_5",
                     "recall_100", "success_1", None]


def test_uncut_measures_score_at_the_longest_ranking_and_others_at_default():
    ap, support, p = parse_measures("AP support P@3")
    assert ap.cutoff(uncut=10_000, default=2) == 10_000
    assert support.cutoff(uncut=10_000, default=2) == 2
    assert p.cutoff(uncut=10_000, default=2) == 3


def test_registry_labels_and_names_commas_and_repeats():
    found = parse_measures("support@3, Hit@10,abstention context_differs@2 P@5 P@5")
    assert [(m.metric, m.k) for m in found] == [("support", 3), ("hit", 10),
                                               ("abstention_correct", None),
                                               ("context_differs", 2), ("precision", 5)]
    assert measures_of(["P@5", "AP"]) == parse_measures("P@5 AP")


@pytest.mark.parametrize("text, words", [
    # the three closest names, never a list cut short (issue 44)
    ("nDGC@10", "unknown measure 'nDGC@10'; closest: nDCG@10, "),
    ("Foo@3", "('ragscore measures' lists every name)"),
    ("p@10", "unknown measure 'p@10'"),          # case-sensitive, as ir_measures
    ("P", "'P' needs a cutoff, such as P@10"),
    ("P@0", "a cutoff must be a whole number 1 or above; got 'P@0'"),
    ("P@x", "got 'P@x'"),
    ("P@\u0661", "got 'P@\u0661'"),               # an Arabic-Indic digit is not a cutoff
    (" , ", "names no measure"),
])
def test_bad_names_fail_with_the_known_ones(text, words):
    with pytest.raises(InvalidInputError, match="--measures") as error:
        parse_measures(text)
    assert words in str(error.value)


def test_api_form_must_be_text_or_names():
    with pytest.raises(InvalidInputError, match="measures must be text"):
        measures_of(5)
