"""Token F1: word overlap between the answer and its reference answer, as SQuAD scores it."""
from .base import RATE, Metric


def token_f1(at, k):
    """F1 = 2 * common tokens / (answer tokens + reference tokens) over SQuAD-normalised
    tokens, the largest over references; 1.0 when both sides are empty, 0.0 when one is.

    ``common`` is counted with multiplicity; this is SQuAD's 2PR / (P + R) with
    P = common / answer tokens and R = common / reference tokens. An empty side is SQuAD
    2.0's unanswerable rule (an unanswerable case left unanswered scores 1.0). n/a when the
    run recorded no answer text or the case carries no reference answer. Does not depend
    on k.

    >>> from ragscore.core.counts import At, count
    >>> answered = count(set(), None, (), None, answer="Broncos won",
    ...                  references=("Denver Broncos",))
    >>> token_f1(At(answered, 2), 2)  # 2 * 1 / (2 + 2)
    0.5
    """
    both_empty = (at.answer_tokens + at.reference_tokens) == 0
    return (2 * at.common_tokens + both_empty) / (at.answer_tokens + at.reference_tokens
                                                  + both_empty)


METRIC = Metric(name="token_f1", label="F1", kind=RATE, stage="reference", formula=token_f1,
                defined=lambda at: at.referenced,
                undefined="no answer text or no reference answer", slice="all",
                order=160, shown_when="references")
