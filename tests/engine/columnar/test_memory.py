"""In-memory runs read in columns (engine.columnar.memory): the same table as the reference
engine on the shapes it takes, each broken rule sent to the record path by the screen of its
name (which then names case, system and field), and every shape it does not take left to the
record path."""
import numpy as np
import pytest

from ragscore.core.rules import COURSE, OPEN, InvalidInputError
from ragscore.engine.columnar.memory import encode_memory
from ragscore.engine.columnar.screens import Unclean
from ragscore.tables.scores import score_runs

CORPUS = {"a": "Alpha.", "b": "Beta.", "c": "Gamma.", "d": "Delta.", "e": "Epsilon."}


def _data():
    cases = {
        "q1": {"relevant": ("a", "b"), "support": {"x": ("a",), "y": ("b",)},
               "question": "What?"},
        "q2": {"relevant": (), "support": {}},  # unanswerable
        "q3": {"relevant": ("c",), "support": {"z": ("c",)}, "tags": ("lookup",)},
    }
    runs = {
        "q1": {"A": {"retrieved": ("c", "a", "d"),
                     "claims": (("x", ("a",)), ("w", ("zz",)), ("y", ("d", "b")))},
               "B": {"retrieved": ("b",), "claims": ()}},
        "q2": {"A": {"retrieved": ("e", "a"), "claims": ()}},
        "q3": {"B": {"retrieved": ("d", "e", "c"), "claims": (("z", ("c", "other")),)}},
    }
    return cases, runs


def _score(cases, runs, **options):
    return score_runs(CORPUS, cases, runs, k=2, **options)


def test_plain_input_is_read_in_columns():
    cases, runs = _data()
    batch = encode_memory(CORPUS, cases, runs, rules=COURSE)
    assert batch.keys == [("q1", "A"), ("q1", "B"), ("q2", "A"), ("q3", "B")]
    # citations outside the corpus are coded after its five documents
    assert batch.ids == ["a", "b", "c", "d", "e", "zz", "other"]
    assert batch.citation_doc.tolist() == [0, 5, 3, 1, 2, 6]
    # run claims x, w, y of q1/A name labels 0 and 1 of q1 (w none); z names q3's label 2
    assert batch.claim_label.tolist() == [0, -1, 1, 2]
    assert batch.answerability.tolist() == [1, 0, 1]


def test_the_table_is_the_reference_engines_and_worked_by_hand():
    cases, runs = _data()
    table = _score(cases, runs)
    assert table.equals(_score(cases, runs, engine="reference"))
    # q1/A at k=2: c, a retrieved; a relevant: P 1/2, R 1/2, RR 1/2
    row = table.loc[("q1", "A")]
    assert (row["precision"], row["recall"], row["rr"]) == (0.5, 0.5, 0.5)
    # q2/A: unanswerable (nothing relevant): retrieval n/a; no claims: a correct abstention
    assert table.loc[("q2", "A")].isna()[["precision", "recall", "rr"]].all()
    assert table.loc[("q2", "A"), "abstention_correct"]


def test_open_rules_give_the_reference_table():
    cases, runs = _data()
    corpus = {"FR-1": "One.", "FR 2": "Two."}
    cases = {"Q 1": {"relevant": ("FR-1",), "support": {"C 1": ("FR-1",)}}}
    runs = {"Q 1": {"sys/1": {"retrieved": ("FR 2", "FR-1"),
                              "claims": (("C 1", ("FR-1", "unknown doc")),)}}}
    encode_memory(corpus, cases, runs, rules=OPEN)  # read in columns
    ours = score_runs(corpus, cases, runs, k=2, ids="open")
    assert ours.equals(score_runs(corpus, cases, runs, k=2, ids="open", engine="reference"))
    assert ours.loc[("Q 1", "sys/1"), "rr"] == 0.5


def _break(path, value):
    cases, runs = _data()
    corpus = dict(CORPUS)
    data = {"corpus": corpus, "cases": cases, "runs": runs}
    *parents, last = path
    place = data
    for key in parents:
        place = place[key]
    if value is _DELETE:
        del place[last]
    else:
        place[last] = value
    return data


_DELETE = object()


class Posing(str):
    pass


# (where, new value, the rule whose screen sends it to the record path, what it then says)
BROKEN = {
    "corpus.id": (("corpus", "Bad"), "text", "corpus key must be an ID"),
    "corpus.text": (("corpus", "a"), "  ", "non-blank text"),
    "run.case": (("runs", "nobody"), {"A": {"retrieved": (), "claims": ()}},
                 "names a case that is not in cases"),
    "case.relevant": (("cases", "q3", "relevant"), _DELETE, "'relevant'] must be present"),
    "case.support": (("cases", "q3", "support"), ["z"], "a dict of claim ID"),
    "case.consistent": (("cases", "q2", "relevant"), ("a",), "labelled consistently"),
    "support.judged": (("cases", "q1", "support", "x"), ("c",),
                       "a source within case['relevant']"),
    "support.sources": (("cases", "q1", "support", "x"), (), "at least one source ID"),
    "ids.in_corpus": (("runs", "q1", "A", "retrieved"), ("c", "zz"), "an ID in the corpus"),
    "ids.valid": (("runs", "q1", "A", "claims"), (("x", ("a", "Not An ID")),),
                  "must be an ID"),
    "ids.unique": (("runs", "q3", "B", "retrieved"), ("d", "d"), "unique within the tuple"),
    "ids.limit": (("runs", "q3", "B", "retrieved"), tuple(f"d{n}" for n in range(101)),
                  "at most 100 IDs"),
    "claims.id": (("runs", "q3", "B", "claims"), (("Z", ("c",)),), "must be a claim ID"),
    "claims.unique": (("runs", "q3", "B", "claims"), (("z", ("c",)), ("z", ("d",))),
                      "unique within the run"),
    "claims.limit": (("runs", "q3", "B", "claims"),
                     tuple((f"c{n}", ()) for n in range(101)), "at most 100"),
    "run.claims": (("runs", "q3", "B", "claims"), _DELETE, "'claims'] must be present"),
    "run.system": (("runs", "q3", 7), {"retrieved": (), "claims": ()}, "a system name"),
    "record.shape": (("runs", "q3", "B", "retrieved"), ["d"], "a tuple of at most"),
}


@pytest.mark.parametrize("rule", sorted(BROKEN))
def test_a_broken_rule_is_screened_and_named_by_the_record_path(rule):
    path, value, message = BROKEN[rule]
    data = _break(path, value)
    with pytest.raises(Unclean) as screened:
        encode_memory(data["corpus"], data["cases"], data["runs"], rules=COURSE)
    assert screened.value.rule == rule
    with pytest.raises(InvalidInputError, match=message.replace("(", r"\(").replace(
            "[", r"\[").replace("]", r"\]")) as ours:
        score_runs(data["corpus"], data["cases"], data["runs"], k=2)
    with pytest.raises(InvalidInputError) as reference:
        score_runs(data["corpus"], data["cases"], data["runs"], k=2, engine="reference")
    assert str(ours.value) == str(reference.value)


def test_no_object_poses_as_an_id():
    # a str subclass equal to a corpus ID is refused before it is looked up
    data = _break(("runs", "q3", "B", "retrieved"), (Posing("c"),))
    with pytest.raises(Unclean) as screened:
        encode_memory(data["corpus"], data["cases"], data["runs"], rules=COURSE)
    assert screened.value.rule == "ids.valid"
    with pytest.raises(InvalidInputError, match="case 'q3', system 'B'"):
        score_runs(data["corpus"], data["cases"], data["runs"], k=2)


# shapes only the record path reads: (where, value), or options
RECORD_ONLY = {
    "trials": (("runs", "q3", "B"), [{"retrieved": ("c",), "claims": ()},
                                     {"retrieved": ("d",), "claims": ()}]),
    "delivered": (("runs", "q3", "B", "delivered"), ("c",)),
    "operations": (("runs", "q3", "B", "latency_ms"), 12),
    "answer": (("runs", "q3", "B", "answer"), "Gamma."),
    "reference answer": (("cases", "q3", "reference"), ("Gamma",)),
    "conflicting": (("cases", "q1", "conflicting"), ("c",)),
    "a case without runs": (("runs", "q2"), {}),
}


# the same under the open rules, where a run may hold no claims and a case no support (so
# a record of two keys can hold what only the record path reads)
RECORD_ONLY_OPEN = {
    "delivered": (("runs", "Q1", "bm25", "delivered"), ()),
    "operations": (("runs", "Q2", "bm25", "latency_ms"), 0),
    "answer": (("runs", "Q3", "bm25", "answer"), "Denver"),
    "answerability": (("cases", "Q3", "answerability"), "answerable"),
}


@pytest.mark.parametrize("shape", sorted(RECORD_ONLY_OPEN))
def test_other_open_shapes_are_left_to_the_record_path(shape):
    from ragscore.engine import count_runs

    corpus, cases, runs = _trec_shaped()
    (*parents, last), value = RECORD_ONLY_OPEN[shape]
    place = {"cases": cases, "runs": runs}
    for key in parents:
        place = place[key]
    place[last] = value
    with pytest.raises(Unclean):
        encode_memory(corpus, cases, runs, rules=OPEN)
    ours = count_runs(corpus, cases, runs, rules=OPEN)
    theirs = count_runs(corpus, cases, runs, rules=OPEN, engine="reference")
    assert (ours.features, ours.ops, ours.labelling()) == (theirs.features, theirs.ops,
                                                          theirs.labelling())


@pytest.mark.parametrize("shape", sorted(RECORD_ONLY))
def test_other_shapes_are_left_to_the_record_path(shape):
    data = _break(*RECORD_ONLY[shape])
    with pytest.raises(Unclean):
        encode_memory(data["corpus"], data["cases"], data["runs"], rules=COURSE)
    args = data["corpus"], data["cases"], data["runs"]
    assert score_runs(*args, k=2).equals(score_runs(*args, k=2, engine="reference"))


@pytest.mark.parametrize("options", [{"dedupe": True}, {"unit": "document"},
                                     {"min_relevance": 0}])
def test_other_options_are_left_to_the_record_path(options):
    cases, runs = _data()
    with pytest.raises(Unclean):
        encode_memory(CORPUS, cases, runs, rules=COURSE, **options)


def test_the_batch_holds_the_counts_the_record_path_counts():
    from ragscore.engine.columnar.batch import encode_runs
    from ragscore.engine.columnar.kernels import count_columns

    cases, runs = _data()
    ours = count_columns(encode_memory(CORPUS, cases, runs, rules=COURSE))
    theirs = count_columns(encode_runs(CORPUS, cases, runs, rules=COURSE))
    for name in ours._fields:
        mine, other = getattr(ours, name), getattr(theirs, name)
        assert np.array_equal(np.asarray(mine), np.asarray(other)), name


def _trec_shaped():
    """Open rules as a TREC import makes them: graded labels, no expected claims, runs
    without claims, documents without text."""
    corpus = {"D 1": None, "D 2": None, "D 3": "Three.", "D 4": None}
    cases = {"Q1": {"question": "", "relevant": {"D 1": 2, "D 2": 0, "D 3": 1}},
             "Q2": {"relevant": {"D 4": 0}},            # judged, nothing relevant
             "Q3": {"relevant": ()},                    # nothing judged: not labelled yet
             "Q4": {"relevant": ("D 2",), "support": {"C": ("D 2",)}}}
    runs = {"Q1": {"bm25": {"retrieved": ("D 3", "D 1")}, "dense": {"retrieved": ()}},
            "Q2": {"bm25": {"retrieved": ("D 4",)}},
            "Q3": {"bm25": {"retrieved": ("D 1",)}},
            "Q4": {"bm25": {"retrieved": ("D 2",), "claims": (("C", ("D 2",)),)}}}
    return corpus, cases, runs


@pytest.mark.parametrize("min_relevance", [1, 2])
def test_graded_labels_and_runs_without_claims_give_the_reference_table(min_relevance):
    corpus, cases, runs = _trec_shaped()
    batch = encode_memory(corpus, cases, runs, rules=OPEN, min_relevance=min_relevance)
    # Q1 judges three IDs, two of them relevant at -l 1, one at -l 2; Q2 none; Q3 is not
    # labelled yet (-1), Q2 unanswerable (0)
    assert batch.n_relevant.tolist() == ([2, 0, 0, 1] if min_relevance == 1 else [1, 0, 0, 1])
    assert batch.answerability.tolist() == [1, 0, -1, 1]
    assert batch.assessed.tolist() == [False, False, False, False, True]
    options = {"k": 2, "ids": "open", "min_relevance": min_relevance,
               "metrics": ("precision", "recall", "rr", "ndcg", "ap", "support")}
    ours = score_runs(corpus, cases, runs, **options)
    assert ours.equals(score_runs(corpus, cases, runs, engine="reference", **options))
    # Q1/bm25 at k=2: D 3 (grade 1) then D 1 (grade 2)
    expected = (1.0, 1.0, 1.0) if min_relevance == 1 else (0.5, 1.0, 0.5)
    row = ours.loc[("Q1", "bm25")]
    assert (row["precision"], row["recall"], row["rr"]) == expected


def test_a_trec_import_counts_the_same_read_in_columns(tmp_path):
    from ragscore.engine import count_runs
    from ragscore.importers.trec import import_trec
    from ragscore.engine.columnar.memory import encode_memory as read

    (tmp_path / "qrels").write_text("q1 0 d1 2\nq1 0 d3 0\nq2 0 d2 1\nq3 0 d9 0\n")
    (tmp_path / "a.run").write_text("q1 Q0 d3 1 2.5 a\nq1 Q0 d1 2 2.5 a\nq2 Q0 d5 1 1 a\n"
                                    "q3 Q0 d9 1 1 a\n")
    dataset, _ = import_trec(tmp_path / "qrels", tmp_path / "a.run")
    options = {"min_relevance": dataset.min_relevance, "sources": dataset.sources}
    read(dataset.corpus, dataset.cases, dataset.runs, rules=OPEN, **options)  # no Unclean
    ours = count_runs(dataset.corpus, dataset.cases, dataset.runs, rules=OPEN, **options)
    theirs = count_runs(dataset.corpus, dataset.cases, dataset.runs, rules=OPEN,
                        engine="reference", **options)
    from ragscore.core.metrics import REGISTRY

    for name in ("precision", "recall", "rr", "ndcg", "ap"):
        assert ours.values(REGISTRY[name], 2) == theirs.values(REGISTRY[name], 2), name
    # q1: d3 (grade 0) then d1 (grade 2) at rank 2: RR 1/2; q2: d5 unjudged: RR 0
    assert ours.values(REGISTRY["rr"], 2)[:2] == [0.5, 0.0]


# broken graded labels: (where, value, rule, what the record path says)
BROKEN_OPEN = {
    "a float grade": (("cases", "Q1", "relevant", "D 1"), 1.5, "case.grade", "an int grade"),
    "a yes/no grade": (("cases", "Q1", "relevant", "D 1"), True, "case.grade", "an int grade"),
    "a grade of 65 bits": (("cases", "Q1", "relevant", "D 1"), 2 ** 64, "case.grade",
                           "65 bits"),
    "an unknown judged ID": (("cases", "Q2", "relevant", "D 9"), 1, "ids.in_corpus",
                             "an ID in the corpus"),
    "blank text": (("corpus", "D 3"), " ", "corpus.text", "non-blank text"),
    "claims of None": (("runs", "Q1", "bm25", "claims"), None, "record.shape",
                       "run['claims'] must be a tuple"),
}


@pytest.mark.parametrize("broken", sorted(BROKEN_OPEN))
def test_broken_graded_labels_are_screened_and_named_by_the_record_path(broken):
    path, value, rule, message = BROKEN_OPEN[broken]
    corpus, cases, runs = _trec_shaped()
    data = {"corpus": corpus, "cases": cases, "runs": runs}
    *parents, last = path
    place = data
    for key in parents:
        place = place[key]
    place[last] = value
    with pytest.raises(Unclean) as screened:
        encode_memory(corpus, cases, runs, rules=OPEN)
    assert screened.value.rule == rule
    with pytest.raises(InvalidInputError, match=message.replace("[", r"\[")) as ours:
        score_runs(corpus, cases, runs, k=2, ids="open")
    with pytest.raises(InvalidInputError) as reference:
        score_runs(corpus, cases, runs, k=2, ids="open", engine="reference")
    assert str(ours.value) == str(reference.value)


def test_graded_labels_are_refused_under_the_course_rules():
    cases, runs = _data()
    cases["q3"]["relevant"] = {"c": 1}
    with pytest.raises(Unclean) as screened:
        encode_memory(CORPUS, cases, runs, rules=COURSE)
    assert screened.value.rule == "case.relevant"
    with pytest.raises(InvalidInputError, match="case 'q3'"):
        score_runs(CORPUS, cases, runs, k=2)


@pytest.mark.parametrize("where", [("cases", "q1", "spans"), ("cases", "q1", "nuggets"),
                                   ("cases", "q1", "a key added later"),
                                   ("runs", "q3", "B", "sentences"),
                                   ("runs", "q3", "B", "a key added later")])
def test_a_key_this_reader_does_not_take_sends_the_input_to_the_record_path(where):
    """Only the keys the column reader reads pass it: a case's span labels or nuggets, a run's
    sentences, or any key added after it was written, are left to the record path rather than
    silently not read."""
    data = _break(where, ())
    with pytest.raises(Unclean) as screened:
        encode_memory(data["corpus"], data["cases"], data["runs"], rules=COURSE)
    assert screened.value.rule is None
