"""Reference answers: SQuAD 2.0's normalisation, exact match and token F1, worked by hand,
then cross-checked against an independent re-implementation of the official
``evaluate-v2.0.py`` logic written here (not imported from ragscore)."""
import collections
import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragscore.core.reference_answers import answer_match, check_reference, normalize_answer, tokens
from ragscore.core.counts import count
from ragscore.core.metrics import REGISTRY, na_reason
from ragscore.core.rules import InvalidInputError

EM, F1 = REGISTRY["exact_match"], REGISTRY["token_f1"]


def scores(answer, references):
    """(EM, F1) of one answer through the registry metrics, k = 2 (they ignore k)."""
    counts = count(frozenset(), None, (), None, answer=answer, references=references)
    return EM.value(counts, 2), F1.value(counts, 2)


# ---- normalisation, by hand -------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # SQuAD dev v1.1/v2.0, the first question's answer as written in the paragraph
    ("Denver Broncos", "denver broncos"),
    ("The Denver Broncos", "denver broncos"),          # article dropped
    ("Santa Clara, California", "santa clara california"),  # comma dropped
    ("Levi's Stadium", "levis stadium"),               # apostrophe dropped, not split
    ("February 7, 2016", "february 7 2016"),
    ("24–10", "24–10"),                                 # an en dash is not ASCII punctuation
    ("an  apple\tA pear", "apple pear"),               # a / an, any case, whitespace
    ("theatre", "theatre"),                             # 'the' only as a whole word
    ("The.", ""),                                       # nothing left
    ("", ""),
])
def test_normalisation_by_hand(text, expected):
    assert normalize_answer(text) == expected


def test_tokens_of_an_empty_text_are_none():
    assert tokens("") == [] and tokens("  the  ") == []


# ---- exact match and F1, by hand ----------------------------------------------------------

def test_an_exact_answer_scores_one():
    # "the Denver Broncos." normalises to "denver broncos", as the reference does
    assert scores("the Denver Broncos.", ("Denver Broncos",)) == (1.0, 1.0)


def test_partial_overlap():
    # answer tokens: denver, broncos, won (3); reference: denver, broncos (2); common 2
    # F1 = 2 * 2 / (3 + 2) = 0.8 (P = 2/3, R = 1, 2PR/(P+R) = (4/3)/(5/3) = 0.8)
    em, f1 = scores("Denver Broncos won", ("Denver Broncos",))
    assert em == 0.0 and f1 == pytest.approx(0.8)


def test_repeated_tokens_count_with_multiplicity():
    # answer: broncos broncos (2); reference: denver broncos (2); common: min(2, 1) = 1
    # F1 = 2 * 1 / 4 = 0.5
    assert scores("broncos broncos", ("Denver Broncos",)) == (0.0, 0.5)


def test_the_best_reference_counts():
    # against "Carolina Panthers": common 0; against "Panthers": P = 1/1, R = 1/1 -> EM 1
    assert scores("the Panthers", ("Carolina Panthers", "Panthers")) == (1.0, 1.0)
    # EM from one reference, F1 from another: "carolina" vs "Carolina Panthers" (2 tokens,
    # common 1: F1 = 2/3) and vs "Panthers" (0); no reference equals it: EM 0
    em, f1 = scores("Carolina", ("Carolina Panthers", "Panthers"))
    assert em == 0.0 and f1 == pytest.approx(2 / 3)


def test_no_overlap_scores_zero():
    assert scores("Carolina", ("Denver Broncos",)) == (0.0, 0.0)


@pytest.mark.parametrize("answer, expected", [
    ("", (1.0, 1.0)),          # SQuAD 2.0: no answer to an unanswerable question
    ("The.", (1.0, 1.0)),      # normalises to nothing: also no answer
    ("Denver", (0.0, 0.0)),    # an answer where none exists
])
def test_an_unanswerable_case_follows_squad_2(answer, expected):
    assert scores(answer, ()) == expected
    # references that normalise to nothing are dropped, so this case is unanswerable too
    assert scores(answer, ("the", "!")) == expected


def test_an_empty_answer_to_an_answerable_case_scores_zero():
    assert scores("", ("Denver Broncos",)) == (0.0, 0.0)


def test_na_without_an_answer_or_a_reference():
    for counts in (count(frozenset(), None, (), None, references=("x",)),
                   count(frozenset(), None, (), None, answer="x")):
        assert EM.value(counts, 2) is None and F1.value(counts, 2) is None
        assert na_reason(F1, counts, 2) == "no answer text or no reference answer"


@pytest.mark.parametrize("value", [7, None, ["a", 1], {"text": "a"}, [["a"]]])
def test_a_malformed_reference_names_the_field_and_value(value):
    with pytest.raises(InvalidInputError, match=r"case\['reference'\] must be a string or a "
                                                r"list of strings"):
        check_reference(value)


# ---- an independent re-implementation of evaluate-v2.0.py --------------------------------------
# Written from the official script's logic: normalize_answer (lower, remove_punc,
# remove_articles, white_space_fix), get_tokens, compute_exact, compute_f1 and, in
# get_raw_scores, gold answers that normalise to nothing dropped and [''] for none left.

def _squad_normalize(s):
    def remove_articles(text):
        return re.sub(re.compile(r"\b(a|an|the)\b", re.UNICODE), " ", text)

    def white_space_fix(text):
        return " ".join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    return white_space_fix(remove_articles(remove_punc(s.lower())))


def _squad_tokens(s):
    return _squad_normalize(s).split() if s else []


def _squad_exact(a_gold, a_pred):
    return int(_squad_normalize(a_gold) == _squad_normalize(a_pred))


def _squad_f1(a_gold, a_pred):
    gold_toks, pred_toks = _squad_tokens(a_gold), _squad_tokens(a_pred)
    common = collections.Counter(gold_toks) & collections.Counter(pred_toks)
    num_same = sum(common.values())
    if len(gold_toks) == 0 or len(pred_toks) == 0:
        return int(gold_toks == pred_toks)
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(pred_toks)
    recall = 1.0 * num_same / len(gold_toks)
    return (2 * precision * recall) / (precision + recall)


def _squad_raw_scores(answers, a_pred):
    gold_answers = [a for a in answers if _squad_normalize(a)] or [""]
    return (max(_squad_exact(a, a_pred) for a in gold_answers),
            max(_squad_f1(a, a_pred) for a in gold_answers))


WORDS = ["The", "the", "a", "An", "Denver", "denver", "Broncos", "broncos,", "won", "Levi's",
         "24–10", "!", "?", "theatre", "Panthers.", "Étoile", "\t", "an"]
TEXTS = st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join)


@settings(max_examples=500, deadline=None, derandomize=True, database=None)
@given(answer=TEXTS, references=st.lists(TEXTS, max_size=3))
def test_the_metrics_agree_with_an_independent_squad_v2_evaluation(answer, references):
    exact, f1 = _squad_raw_scores(references, answer)
    em_value, f1_value = scores(answer, tuple(references))
    assert em_value == exact
    assert f1_value == pytest.approx(f1, abs=1e-12)  # 2c/(p+r) vs 2PR/(P+R): same number


def test_answer_match_is_whole_numbers():
    assert answer_match("Broncos won", ("Denver Broncos",)) == (0, 1, 2, 2)
