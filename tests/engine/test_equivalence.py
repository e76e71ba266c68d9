"""One equivalence test, driven by the registry: the columnar engine gives what the reference
engine (the specification) gives, on the course, practice and import fixtures and on
generated test sets: every metric at every k, every pooled part, every aggregate, every n/a
reason, every count a baseline stores; and every malformed input the same error class and
message.

Values are compared with ``==`` (exactly: the columnar sums are taken in the reference's
order), n/a as ``None`` on both sides.
"""
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ragscore import InvalidInputError, save_dataset
from ragscore.core.aggregate import aggregates, sweep_means
from ragscore.core.citations import CitedClaim
from ragscore.core.metrics import REGISTRY, get
from ragscore.engine import count_dataset, count_folder
from ragscore.io.dataset import Dataset
from ragscore.folders import load_dataset
from ragscore.importers import import_trec

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
KS = (1, 2, 3, 5, 10)
#: Every registered metric, and measures with parameters (their formulas read the same
#: primitives at another relevance level, with other gains or another persistence).
METRICS = tuple(REGISTRY.values()) + tuple(map(get, (
    "precision(rel=2)", "recall(rel=3)", "rr(rel=2)", "ap(rel=2)", "hit(rel=2)",
    "rprec(rel=2)", "ndcg(dcg=exp-log2)", "rbp(p=0.5)", "rbp(p=0.95,rel=2)", "bpref(rel=2)",
    "infap(rel=2)")))


def assert_same(reference, columnar, ks=KS):
    """Every reading of the two engines' counts is equal."""
    assert columnar.keys == reference.keys
    assert columnar.features == reference.features
    assert columnar.ops == reference.ops
    assert columnar.attributes == reference.attributes
    assert columnar.notes == reference.notes
    assert columnar.answerable() == reference.answerable()
    assert columnar.labelling() == reference.labelling()
    for name in ("n_relevant", "n_expected", "n_claims", "dropped", "collapsed", "trials"):
        assert columnar.field(name) == reference.field(name), name
    for k in ks:
        for metric in METRICS:
            assert columnar.values(metric, k) == reference.values(metric, k), (metric.name, k)
            assert columnar.reasons(metric, k) == reference.reasons(metric, k), metric.name
            assert columnar.trial_values(metric, k) == reference.trial_values(metric, k)
            if metric.pooled is not None:
                assert columnar.pooled_parts(metric, k) == reference.pooled_parts(metric, k)
        for system, view in reference.by_system().items():
            other = columnar.by_system()[system]
            assert aggregates(other, k=k, metrics=METRICS) == aggregates(view, k=k,
                                                                         metrics=METRICS)
    for system, view in reference.by_system().items():
        other = columnar.by_system()[system]
        assert sweep_means(other, max_k=4, metrics=METRICS) == sweep_means(view, max_k=4,
                                                                          metrics=METRICS)
    for position in range(len(reference)):
        assert columnar.counts_at(position) == reference.counts_at(position), position


def both(dataset, **options):
    return (count_dataset(dataset, engine="reference", **options),
            count_dataset(dataset, engine="columnar", **options))


# ---- the fixtures ------------------------------------------------------------------------------

@pytest.mark.parametrize("folder", ["course", "course-runs", "practice"])
@pytest.mark.parametrize("unit", ["chunk", "document"])
def test_the_shipped_datasets_count_the_same(folder, unit):
    path = FIXTURES / folder
    try:
        reference = count_folder(path, engine="reference", unit=unit)
    except InvalidInputError as error:  # labels that name chunks, read by document
        with pytest.raises(InvalidInputError) as columnar:
            count_folder(path, engine="columnar", unit=unit)
        assert str(columnar.value) == str(error)
        return
    assert_same(reference, count_folder(path, engine="columnar", unit=unit))
    assert_same(*both(load_dataset(path), unit=unit))


def test_the_trec_fixture_counts_the_same():
    trec = FIXTURES / "import" / "trec"
    dataset, _ = import_trec(trec / "qrels.txt", [trec / "bm25.run", trec / "dense.run"])
    assert_same(*both(dataset), ks=(1, 2, 3, 4, 10, 1000))


# ---- generated test sets ----------------------------------------------------------------------

DOCS = [f"d{n}" for n in range(8)]
SOURCES = {doc: f"doc{int(doc[1:]) // 3}" for doc in DOCS[:6]}  # chunks of 2 documents
LABEL_DOCUMENTS = ["doc0", "doc1", "d6", "d7"]  # what labels name when scored by document


@st.composite
def datasets(draw, unit="chunk"):
    """Open-rules test sets of up to 5 questions and 2 systems: graded or binary labels (on
    chunks, or with ``unit="document"`` mostly on documents), answer labels or none,
    conflicting sources, callers, restricted and superseded chunks, runs with claims or
    without, delivered contexts, repeated trials."""
    corpus = dict.fromkeys(DOCS)
    labels = DOCS if unit == "chunk" or draw(st.integers(0, 4)) == 0 else LABEL_DOCUMENTS
    cases, runs = {}, {}
    for number in range(draw(st.integers(1, 5))):
        name = f"q{number}"
        case = {"question": ""}
        if draw(st.booleans()):
            grades = draw(st.dictionaries(st.sampled_from(labels), st.integers(-1, 3),
                                          max_size=5))
            case["relevant"] = grades
            judged = [doc for doc, grade in grades.items() if grade > 0]
        else:
            judged = draw(st.lists(st.sampled_from(labels), unique=True, max_size=4))
            case["relevant"] = tuple(judged)
        if draw(st.integers(0, 3)):
            case["support"] = {f"c{n}": tuple(draw(st.lists(st.sampled_from(judged),
                                                            unique=True, min_size=1,
                                                            max_size=2)))
                               for n in range(draw(st.integers(1, 3)))} if judged else {}
        if draw(st.booleans()):
            case["conflicting"] = tuple(draw(st.lists(st.sampled_from(DOCS), unique=True,
                                                      max_size=2)))
        if draw(st.booleans()):
            case["caller_groups"] = tuple(draw(st.lists(st.sampled_from(["staff", "hr"]),
                                                        unique=True, max_size=2)))
        if draw(st.booleans()):
            case["tags"] = ("lookup",)
        if draw(st.booleans()):  # reference answers: several, one, or none (unanswerable)
            case["reference"] = tuple(draw(st.lists(st.sampled_from(ANSWERS), max_size=2)))
        cases[name] = case
        per_case = {}
        for system in draw(st.lists(st.sampled_from(["A", "B"]), unique=True, min_size=1)):
            trials = draw(st.integers(0, 3))
            made = [draw(runs_of(case)) for _ in range(max(trials, 1))]
            if trials >= 2:
                per_case[system] = [dict(run, trial=n) for n, run in enumerate(made, 1)]
            else:
                per_case[system] = made[0]
        runs[name] = per_case
    groups = {doc: frozenset(draw(st.lists(st.sampled_from(["staff", "hr"]), unique=True,
                                           min_size=1)))
              for doc in draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=2))}
    cited = sorted({doc for case in cases.values() for sources in case.get("support", {}).values()
                    for doc in sources}) or DOCS  # outdated chunks someone cites, mostly
    superseded = frozenset(draw(st.lists(st.sampled_from(cited), unique=True, max_size=2)))
    for name, case in cases.items():  # reviewers' decisions (drawn last: the rest as before)
        if "support" in case:
            continue
        if draw(st.integers(0, 2)) == 0:
            case["answerability"] = draw(st.sampled_from(["answerable", "unanswerable"]))
        for trials in runs[name].values():
            for run in _trials(trials):
                if run.get("claims") and draw(st.booleans()):
                    run["vouched"] = tuple(draw(st.lists(st.sampled_from(
                        [claim for claim, _ in run["claims"]]), unique=True, min_size=1)))
    return Dataset(corpus=corpus, cases=cases, runs=runs, ids="open",
                   min_relevance=draw(st.integers(1, 2)), sources=SOURCES,
                   groups=groups or None, superseded=superseded)


GRADES = st.sampled_from(["full", "partial", "none", None])
JOINT = st.sampled_from(["supported", "unsupported", None])
ASSIGNED = st.sampled_from(["support", "partial_support", "not_support"])


@st.composite
def cited_claim(draw, citations):
    """Reviewers' labels of one claim's ``citations`` citations: a grade each (or none yet),
    and judgements of the whole set and of the set less each one."""
    return CitedClaim(tuple(draw(GRADES) for _ in range(citations)), draw(JOINT),
                      tuple(draw(JOINT) for _ in range(citations)))


@st.composite
def runs_of(draw, case):
    """A run of ``case``: its ranking often holds the relevant IDs, its claims often cite
    their labelled sources (so that support, staleness and disclosures all happen)."""
    relevant = list(case["relevant"])
    ranked = draw(st.permutations(relevant + draw(st.lists(st.sampled_from(DOCS),
                                                           max_size=5))))
    run = {"retrieved": tuple(ranked[:draw(st.integers(0, 8))])}
    names = ["c0", "c1", "c2", "extra"]
    support = case.get("support") or {}
    if "support" in case or draw(st.booleans()):
        claims = []
        for claim in draw(st.lists(st.sampled_from(names), unique=True, max_size=4)):
            if claim in support and draw(st.booleans()):
                cited = tuple(support[claim])
            else:
                cited = tuple(draw(st.lists(st.sampled_from(DOCS + ["ghost"]), unique=True,
                                            max_size=3)))
            claims.append((claim, cited))
        run["claims"] = tuple(claims)
    if draw(st.booleans()):
        run["delivered"] = tuple(draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=4)))
    if draw(st.booleans()):
        run["latency_ms"] = draw(st.integers(0, 900))
    if draw(st.booleans()):
        run["answer"] = draw(st.sampled_from(ANSWERS))
    return run


#: Answer texts that match, overlap, differ, or normalise to nothing.
ANSWERS = ["Denver Broncos", "the Denver Broncos!", "Broncos won in Denver", "Carolina", "",
           "The.", "broncos broncos"]


def _outcome(dataset, engine, **options):
    try:
        return "counts", count_dataset(dataset, engine=engine, **options)
    except InvalidInputError as error:
        return "error", f"{type(error).__name__}: {error}"


GENERATED = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))
FEATURES = {"error", "trials", "delivered", "groups", "superseded", "dropped", "collapsed",
            "graded", "stale_support", "disclosures", "support", "context_differs",
            "references", "exact_match", "vouched", "not labelled", "judged"}


def _features(dataset, outcome):
    """What a generated case shows, for the coverage check."""
    kind, counted = outcome
    if kind == "error":
        return {"error"}
    found = set(counted.features) & FEATURES
    found.update(name for name in ("dropped", "collapsed") if any(counted.field(name)))
    if any(type(case["relevant"]) is dict for case in dataset.cases.values()):
        found.add("graded")
    found.update(name for name in ("stale_support", "disclosures", "support",
                                   "context_differs", "exact_match")
                 if any(counted.values(REGISTRY[name], 3)))
    if any(0 < value < 1 for value in counted.values(REGISTRY["judged"], 3) if value):
        found.add("judged")  # some passage in a top 3 unjudged, some judged
    if -1 in counted.labelling():
        found.add("not labelled")

    if any(run.get("vouched") and counted.values(REGISTRY["support"], 9)[position]
           for position, (case, system) in enumerate(counted.keys)
           for run in _trials(dataset.runs[case][system])):
        found.add("vouched")  # a vouched claim supported
    return found


def _trials(run):
    return run if type(run) is list else [run]


#: A test set with a claim a reviewer vouched for, supported by its one cited passage: the
#: generator reaches one in most runs of the suite, but not in every run (a full `make
#: test` on 95fe99d reached every feature but this one, twice, while the test alone did),
#: so it is always checked as well.
VOUCHED = Dataset(corpus=dict.fromkeys(DOCS),
                  cases={"q0": {"question": "", "relevant": ("d1",)}},
                  runs={"q0": {"A": {"retrieved": ("d0", "d1"),
                                     "claims": (("extra", ("d1",)),), "vouched": ("extra",)}}},
                  ids="open", min_relevance=1, sources=SOURCES, groups=None,
                  superseded=frozenset())


def test_generated_test_sets_count_the_same_or_fail_the_same():
    """300 generated cases (by chunk or by document, dedupe on or off) and a vouched claim:
    the same counts or the same error; and together they reach every feature above."""
    seen = set()

    @GENERATED
    @example(drawn=(VOUCHED, "chunk"), dedupe=False)
    @given(st.sampled_from(["chunk", "document"]).flatmap(
        lambda unit: st.tuples(datasets(unit), st.just(unit))), st.booleans())
    def check(drawn, dedupe):
        dataset, unit = drawn
        reference = _outcome(dataset, "reference", unit=unit, dedupe=dedupe)
        columnar = _outcome(dataset, "columnar", unit=unit, dedupe=dedupe)
        assert columnar[0] == reference[0]
        if reference[0] == "error":
            assert columnar == reference
        else:
            assert_same(reference[1], columnar[1], ks=(1, 2, 3, 9))
        seen.update(_features(dataset, reference))

    check()
    assert seen == FEATURES, FEATURES - seen


@st.composite
def reviewed(draw, unit="chunk"):
    """A generated test set (:func:`datasets`) whose cases may list nuggets (some okay, some
    without sources) and whose runs carry what reviewers' judgements give an answer:
    nugget assignments, claims stating an expected claim in part, graded citations."""
    dataset = draw(datasets(unit))
    cases, runs = dataset.cases, dataset.runs
    for name, case in cases.items():
        expected = list(case.get("support") or ())
        if draw(st.integers(0, 2)) == 0:
            listed = draw(st.lists(st.sampled_from(expected + ["n0", "n1"]), unique=True,
                                   max_size=4))
            case["nuggets"] = tuple({"id": nugget, "importance": draw(st.sampled_from(
                ["vital", "okay"]))} for nugget in listed)
        names = expected + [item["id"] for item in case.get("nuggets", ())
                            if item["id"] not in expected]
        for trials in runs[name].values():
            for run in _trials(trials):
                chosen = draw(st.integers(0, 3)) if names else 0
                if chosen:  # some nuggets assigned by a reviewer, or every one
                    run["assigned"] = {nugget: draw(ASSIGNED) for nugget in (
                        names if chosen == 3 else draw(st.lists(st.sampled_from(names),
                                                                unique=True, max_size=3)))}
                stating = [claim for claim, _ in run.get("claims") or () if claim in expected]
                if stating and draw(st.booleans()):
                    run["partial"] = frozenset(draw(st.lists(st.sampled_from(stating),
                                                             unique=True, min_size=1)))
                if run.get("claims") and draw(st.integers(0, 2)) == 0:
                    run["cited"] = tuple(draw(cited_claim(len(cited)))
                                         for _, cited in run["claims"])
    return dataset


LABELLED = settings(GENERATED, max_examples=100)
LABEL_FEATURES = {"nuggets", "citations", "nugget partial", "nugget open", "alce", "okay"}


def test_nuggets_and_graded_citations_count_the_same_or_fail_the_same():
    """100 generated test sets with nuggets, assignments, partial claims and graded
    citations: the same counts or the same error; every kind of label reached."""
    seen = set()

    @LABELLED
    @given(reviewed())
    def check(dataset):
        reference = _outcome(dataset, "reference", dedupe=True)
        columnar = _outcome(dataset, "columnar", dedupe=True)
        assert columnar[0] == reference[0]
        if reference[0] == "error":
            assert columnar == reference
            return
        assert_same(reference[1], columnar[1], ks=(1, 2, 3, 9))
        counted = reference[1]
        seen.update(counted.features & LABEL_FEATURES)
        if any(None not in pair and pair[0] != pair[1] for pair in zip(
                counted.values(REGISTRY["nugget_all"], 9),
                counted.values(REGISTRY["nugget_strict_all"], 9))):
            seen.add("nugget partial")  # a partial assignment counted half
        if "a nugget is not assigned yet" in counted.reasons(REGISTRY["nugget_weighted"], 3):
            seen.add("nugget open")
        if any(value is not None for value in counted.values(REGISTRY["alce_precision"], 3)):
            seen.add("alce")
        if any(value is not None and value != counted.values(REGISTRY["nugget_all"], 3)[row]
               for row, value in enumerate(counted.values(REGISTRY["nugget_weighted"], 3))):
            seen.add("okay")  # an okay nugget weighed half

    check()
    assert seen == LABEL_FEATURES, LABEL_FEATURES - seen


#: A saved folder is written to disk for each generated set: 100 in `make test` (22 s for
#: 300 on e4ae131, a make test at its 5-minute budget), 300 in `make test-all`.
SAVED = settings(GENERATED, max_examples=100)


@SAVED
@given(datasets())
def test_a_saved_folder_counts_the_same_through_either_reader(tmp_path_factory, dataset):
    _saved_folder_counts_the_same(tmp_path_factory, dataset)


@pytest.mark.exhaustive
@GENERATED
@given(datasets())
def test_300_saved_folders_count_the_same_through_either_reader(tmp_path_factory, dataset):
    _saved_folder_counts_the_same(tmp_path_factory, dataset)


def _saved_folder_counts_the_same(tmp_path_factory, dataset):
    try:
        folder = save_dataset(dataset, tmp_path_factory.mktemp("saved") / "d")
    except InvalidInputError:
        return  # a generated set the format refuses: the readers are not at stake
    assert_same(count_folder(folder, engine="reference"), count_folder(folder, engine="columnar"),
                ks=(1, 3))


MALFORMED = [
    ("retrieved", ("d1", "d1")), ("retrieved", ("nowhere",)), ("retrieved", ["d1"]),
    ("retrieved", ("d1", 7)), ("claims", (("c0", ("d1", "d1")),)), ("claims", (("c0",),)),
    ("claims", (("c0", ("d1",)), ("c0", ("d2",)))), ("delivered", ("nowhere",)),
    ("claims", "c0"), ("answer", 7), ("answer", ["Monday"]),
]


@pytest.mark.parametrize("key, value", MALFORMED, ids=[repr(item) for item in MALFORMED])
def test_a_malformed_run_fails_the_same_in_both(course, key, value):
    runs = {case: dict(per_case) for case, per_case in course.runs.items()}
    runs["owner"]["B"] = dict(runs["owner"]["B"], **{key: value})
    dataset = course._replace(runs=runs)
    reference, columnar = (_outcome(dataset, engine) for engine in ("reference", "columnar"))
    assert reference[0] == "error" and columnar == reference

