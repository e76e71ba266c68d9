"""What a metric is: a name, a label at k, a kind, a formula over count primitives and the
case where it is undefined.

A formula reads the count primitives of :class:`~ragscore.core.counts.At` (``hits``,
``first_rank``, ``dcg``, ``supported``, ...) with plain arithmetic and comparisons only
(``+ - * /``, ``< <= == !=``, ``&`` and ``|`` to combine conditions). The reference engine
hands it one question's primitives, as Python numbers; the columnar engine hands it the same
names as arrays, one value per question. So each formula is written once and read by both.
"""
from collections import namedtuple

from ..counts import At

from ..kinds import COUNT, RATE, YES_NO  # noqa: F401 (the registry's names for them)


class Pooled(namedtuple("Pooled", "numerator denominator numerator_name denominator_name")):
    """How a rate pools over questions: summed numerators over summed denominators.

    ``numerator`` and ``denominator`` take ``(at, k)`` (count primitives) and return whole
    numbers; the names say what they count, for the sentence that declares the aggregate.
    """

    __slots__ = ()


class Metric(namedtuple("Metric", "name label kind stage formula defined undefined slice pooled "
                                  "yes_means lower_is_better needs_labels neutral waiting "
                                  "waiting_reason zero_by order group shown_when na_by_labels "
                                  "ir_name uncut trec_name trec_uncut trec_order parameters "
                                  "derive",
                        defaults=("answerable", None, "", False, False, False, None, "",
                                  None, 1000, None, None, False, None, False, None, None,
                                  None, (), None))):
    """One metric, defined once.

    ``formula(at, k)`` gives a float in [0, 1] (a rate), a bool (yes/no) or a whole number
    >= 0 (a count of things per question) from the count primitives ``at`` at cutoff ``k``;
    it is read only where ``defined(at)`` is true (``defined`` ``None``: always), and the
    metric is ``None`` (n/a) elsewhere; ``undefined`` says when, in words.
    ``slice`` is the questions the metric is meant for: ``answerable``, ``unanswerable`` or
    ``all``. ``pooled`` says how a rate pools over questions (``None``: it is only
    macro-averaged); ``yes_means`` says in words what a yes of a yes/no metric stands for;
    ``lower_is_better`` marks metrics where a rise is a regression (counts of problems);
    ``needs_labels`` marks metrics that read the question's labels (relevance, expected
    claims), n/a with the reason "not labelled yet" on a question nobody has labelled;
    ``neutral`` marks a flag whose change is neither better nor worse (a delivered context
    that differs from the top k): a comparison calls any change of it ``changed``.
    ``waiting(at)``, when given, is true where the metric is n/a because a label the
    answer needs is still to be given (a nugget not assigned, a citation not graded), the
    reason then being ``waiting_reason``. ``zero_by`` names the tool whose convention
    ``--na-as-zero`` follows for the metric (``nuggetizer``: n/a counts 0.0); retrieval
    rates follow trec_eval's without saying.

    Where it stands and how others name it: ``order`` (its place in report order; the
    registry is sorted by it), ``group`` (``nugget``, ``citation`` or ``None``: the
    metrics reported together), ``shown_when`` (``contract``: a column of every report;
    else the feature of the data, such as ``nuggets``, that makes it a default column;
    ``None``: only when asked for), ``na_by_labels`` (n/a as ``undefined`` says only where
    the test set's labels make it so, whatever a system returns: the gate does not hold
    that n/a against a candidate), ``ir_name`` (ir_measures' name, ``P``; ``None`` where it
    has none), ``uncut`` (it has ir_measures' uncut form, ``AP``: the whole ranking),
    ``trec_name`` (trec_eval's name at a cutoff, ``P_{k}``), ``trec_uncut`` (trec_eval's
    name uncut, ``map``) and ``trec_order`` (where trec_eval prints it among its measures,
    ``(at a cutoff, uncut)``: ``map`` comes first, ``map_cut`` after ``ndcg_cut``).

    ``parameters``: the :class:`Parameter` objects its ir_measures name may carry
    (``P(rel=2)@10``), and ``derive(metric, values)`` the metric they make (``values``:
    ``{name: value}``, each read and different from its default); see
    :func:`ragscore.core.metrics.get`.

    ``stage``: what the metric reads: ``retrieval`` (the ranking), ``answer`` (the answer's
    claims under the strict citation rule: n/a while the answer is not assessed) or
    ``reference`` (the answer read against what the test set holds for it: reference
    answers, nuggets, reviewers' grades of its citations).
    """

    __slots__ = ()

    def label_at(self, k):
        """The short column label at cutoff ``k`` (``P@2``); ``k="k"`` gives ``P@k``."""
        return self.label.format(k=k)

    def value(self, counts, k):
        """The metric for one question's :class:`~ragscore.core.counts.Counts` at ``k``, or
        ``None`` (n/a): ``formula`` where ``defined``."""
        at = At(counts, k)
        if self.defined is not None and not self.defined(at):
            return None
        return self.formula(at, k)


class Parameter(namedtuple("Parameter", "name read default meaning example")):
    """A parameter of a measure, as ir_measures spells it (``rel`` in ``P(rel=2)@10``):
    ``read(text)`` gives its value or raises ``ValueError`` saying what is expected;
    ``default`` is said in words (``the test set's min_relevance``) or is the value;
    ``example`` a valid value as typed (``2``)."""

    __slots__ = ()


def _level(text):
    value = int(text) if text.isascii() and text.isdigit() else 0
    if not 1 <= value <= 1000:
        raise ValueError("a whole number from 1 to 1000 (the lowest grade counted relevant)")
    return value


#: ``rel``: the lowest grade counted relevant (trec_eval's ``-l``, ir_measures' ``rel``).
REL = Parameter("rel", _level, "the test set's min_relevance (1 unless set)",
                "the lowest grade counted relevant, as trec_eval's -l", "2")


def at_level(metric, values):
    """``metric`` with relevance read at grade ``values["rel"]`` or above: its formula,
    definition and pooled parts read :meth:`~ragscore.core.counts.At.at_level`.

    >>> from ragscore.core.counts import At, count
    >>> from ragscore.core.metrics import REGISTRY
    >>> counts = count({"a", "b"}, None, ("b", "a"), None, grades={"a": 2, "b": 1})
    >>> strict = at_level(REGISTRY["precision"], {"rel": 2})
    >>> strict.value(counts, 1), strict.value(counts, 2)  # only a counts: rank 2
    (0.0, 0.5)
    """
    rel = values["rel"]
    formula, defined, pooled = metric.formula, metric.defined, metric.pooled
    found = metric._replace(
        formula=lambda at, k: formula(at.at_level(rel), k),
        defined=None if defined is None else lambda at: defined(at.at_level(rel)),
        undefined=f"{metric.undefined} at grade {rel} or above")
    if pooled is not None:
        found = found._replace(pooled=pooled._replace(
            numerator=lambda at, k: pooled.numerator(at.at_level(rel), k),
            denominator=lambda at, k: pooled.denominator(at.at_level(rel), k)))
    return found
