"""Each count declared once (core.counts.COUNT_FIELDS): Counts, the count columns, the batch's
per-row counts and the primitives all follow the table."""
import numpy as np

from ragscore.core.citations import CitationCounts
from ragscore.core.counts import At, COUNT_FIELDS, Counts, count
from ragscore.engine.columnar import layout
from ragscore.engine.columnar.batch import Batch
from ragscore.engine.columnar.kernels import _PRIMITIVES, CountColumns


def test_counts_has_one_field_per_declared_count_in_order():
    assert Counts._fields == tuple(field.name for field in COUNT_FIELDS)
    assert Counts._field_defaults == {"gains": None, "ideal": None, "dropped": 0, "collapsed": 0,
                                      "delivered_span": None, "exposed": (),
                                      "stale_cutoffs": (), "answer_match": None,
                                      "judged_ranks": None, "n_judged": None,
                                      "answerability": None, "nuggets": None,
                                      "citations": None, "span_characters": None,
                                      "span_reads": (), "pool_unjudged": (),
                                      "n_pool_unjudged": 0}


def test_every_declared_column_is_a_count_column_and_every_flag_too():
    for field in COUNT_FIELDS:
        assert set(field.columns) <= set(CountColumns._fields), field.name
        assert field.present is None or field.present in CountColumns._fields, field.name


def test_a_batch_carries_exactly_the_counts_declared_batch_carried():
    carried = {"dropped", "collapsed", "referenced", "exact", "common_tokens", "answer_tokens",
               "reference_tokens", "spanned", "span_relevant", "span_row", "span_rank",
               "span_covered", "span_read", "unjudged_row", "unjudged_rank", "n_unjudged"}
    assert set(layout.PASSED) == carried
    assert carried <= set(Batch._fields)
    defaults = layout.passed_defaults(3)
    assert defaults["referenced"].dtype == bool and not defaults["referenced"].any()
    assert defaults["exact"].tolist() == [0, 0, 0]


def test_every_primitive_a_formula_reads_has_a_kernel():
    names = {name for name, value in vars(At).items() if isinstance(value, property)}
    assert names <= set(_PRIMITIVES), sorted(names - set(_PRIMITIVES))


def test_one_row_reads_back_as_its_counts():
    """Two rows laid out by hand; each reads back as the Counts counted by the reference."""
    first = count({"a", "b"}, {"x": {"a"}, "y": {"b"}}, ("c", "a", "b"),
                  (("y", ("b",)), ("x", ("a",))))
    second = count({"a", "b"}, None, ("b",), None, dropped=2, judged={"b", "x"},
                   answerability=-1)  # a pool of two judged, the question not labelled yet
    columns = CountColumns(
        rows=2, row_case=np.array([0, 0]), graded_case=np.array([False]),
        assessed=np.array([True, False]), labelled=np.array([True, False]),
        graded=np.array([False, False]), context_recorded=np.array([False, False]),
        referenced=np.array([False, False]),
        relevant_row=np.array([0, 0, 1]), relevant_rank=np.array([2, 3, 1]),
        n_relevant=np.array([2, 2]), supported_row=np.array([0, 0]),
        supported_cutoff=np.array([3, 2]),  # claim order; Counts lists them ascending
        n_claims=np.array([2, 0]), n_expected=np.array([2, 0]), n_retrieved=np.array([3, 1]),
        gain_row=np.array([0, 0, 1]), gain_rank=np.array([2, 3, 1]),
        gain_grade=np.array([1, 1, 1]), ideal_case=np.zeros(0, int),
        ideal_grade=np.zeros(0, int), dropped=np.array([0, 2]), collapsed=np.array([0, 0]),
        context_low=np.array([0, 0]), context_high=np.array([0, 0]),
        exposed_row=np.zeros(0, int), exposed_cutoff=np.zeros(0, int),
        stale_row=np.zeros(0, int), stale_cutoff=np.zeros(0, int),
        exact=np.zeros(2, int), common_tokens=np.zeros(2, int), answer_tokens=np.zeros(2, int),
        reference_tokens=np.zeros(2, int),
        pooled=np.array([False, True]), n_judged=np.array([0, 2]), judged_row=np.array([1]),
        judged_rank=np.array([1]), answerability=np.array([1, -1]),
        stated=np.array([False, True]), explicit=np.array([False, False]),
        nugget_row=np.zeros(0, int), nugget_position=np.zeros(0, int),
        nugget_vital=np.zeros(0, int), nugget_assigned=np.zeros(0, int),
        nugget_full=np.zeros(0, int), nugget_half=np.zeros(0, int),
        cited=np.array([False, False]), spanned=np.array([False, False]),
        span_relevant=np.zeros(2, int), span_row=np.zeros(0, int), span_rank=np.zeros(0, int),
        span_covered=np.zeros(0, int), span_read=np.zeros(0, int),
        unjudged_row=np.zeros(0, int), unjudged_rank=np.zeros(0, int),
        n_unjudged=np.zeros(2, int),
        **{f"cite_{name}": np.zeros(2, int) for name in CitationCounts._fields})
    assert layout.counts_of(columns, 0) == first == Counts(
        relevant_ranks=(2, 3), n_relevant=2, claim_cutoffs=(2, 3), n_claims=2, n_expected=2,
        n_retrieved=3)
    assert layout.counts_of(columns, 1) == second == Counts(
        relevant_ranks=(1,), n_relevant=2, claim_cutoffs=(), n_claims=None, n_expected=None,
        n_retrieved=1, dropped=2, judged_ranks=(1,), n_judged=2, answerability=-1)
    taken = layout.take_rows(columns, np.array([1]))
    assert layout.counts_of(taken, 0) == second
