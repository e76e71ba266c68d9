"""Property tests: thousands of generated malformed inputs raise only ValueError, with a message;
generated valid inputs always score inside [0, 1] or n/a."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragscore
from ragscore import evaluate

CORPUS = {"launch": "Monday.", "owners": "Aurora.", "archive": "Old note."}
GOOD_CASE = {"relevant": ("owners",), "support": {"aurora": ("owners",)}}
GOOD_RUN = {"retrieved": ("owners", "archive"), "claims": (("aurora", ("owners",)),)}

ids = st.sampled_from(["launch", "owners", "archive", "ghost", "x-1"])
junk_scalar = st.one_of(st.none(), st.booleans(), st.integers(-3, 200), st.floats(),
                        st.text(max_size=40), st.binary(max_size=5), ids)
junk = st.recursive(
    junk_scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
                            st.dictionaries(st.one_of(ids, st.text(max_size=5), st.integers()),
                                            inner, max_size=4),
                            st.frozensets(st.one_of(ids, st.integers()), max_size=3)),
    max_leaves=12)


def _call(corpus, case, run, k):
    try:
        evaluate(corpus, case, run, k=k)
    except ValueError as error:
        assert str(error), "a ValueError must carry a message"
        return "rejected"
    return "accepted"


# 1,000 generated inputs per test (5,000 in all), derandomized so CI sees the same ones.
FUZZ = settings(max_examples=1000, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


@FUZZ
@given(case=junk, run=junk, k=junk)
def test_junk_cases_runs_and_cutoffs(case, run, k):
    _call(CORPUS, case, run, k)


@FUZZ
@given(corpus=junk)
def test_junk_corpora(corpus):
    _call(corpus, GOOD_CASE, GOOD_RUN, 2)


@FUZZ
@given(relevant=junk, support=junk, retrieved=junk, claims=junk)
def test_junk_fields_inside_well_shaped_records(relevant, support, retrieved, claims):
    _call(CORPUS, {"relevant": relevant, "support": support},
          {"retrieved": retrieved, "claims": claims}, 2)


@FUZZ
@given(claim=junk, citations=junk, extra=st.lists(st.tuples(junk, junk).map(tuple), max_size=3))
def test_junk_claim_pairs(claim, citations, extra):
    run = {"retrieved": ("owners",), "claims": ((claim, citations), *extra)}
    _call(CORPUS, GOOD_CASE, run, 2)


@FUZZ
@given(labels=st.dictionaries(st.one_of(ids, st.text(max_size=5), st.integers(), st.none()),
                              junk, max_size=3),
       relevant=st.lists(ids, max_size=3))
def test_junk_support_labels(labels, relevant):
    _call(CORPUS, {"relevant": tuple(relevant), "support": labels}, GOOD_RUN, 1)


def test_deep_nesting_is_a_value_error_not_a_recursion_error():
    deep = ()
    for _ in range(100_000):
        deep = (deep,)
    assert _call(CORPUS, GOOD_CASE, {"retrieved": deep, "claims": ()}, 2) == "rejected"
    assert _call(CORPUS, GOOD_CASE, {"retrieved": (), "claims": ((deep, ()),)}, 2) == "rejected"


valid_docs = st.lists(st.sampled_from(["launch", "owners", "archive"]), unique=True, max_size=3)


@settings(max_examples=500, deadline=None, derandomize=True)
@given(relevant=valid_docs, retrieved=valid_docs, k=st.integers(1, 100),
       cites=st.lists(st.lists(st.sampled_from(["launch", "owners", "archive", "ghost"]),
                               unique=True, max_size=3), max_size=4))
def test_valid_inputs_score_inside_the_unit_interval(relevant, retrieved, k, cites):
    support = {f"c{n}": (doc,) for n, doc in enumerate(relevant)}
    claims = tuple((f"c{n}", tuple(c)) for n, c in enumerate(cites))
    scores = evaluate(CORPUS, {"relevant": tuple(relevant), "support": support},
                      {"retrieved": tuple(retrieved), "claims": claims}, k=k)
    for name in ragscore.CONTRACT[:5]:
        assert scores[name] is None or 0.0 <= scores[name] <= 1.0
    assert (scores["precision"] is None) == (not relevant)
    assert (scores["support"] is None) == (not claims)
