"""TREC export: the files written by hand, round trips export -> import that score the same
(the course data under open rules, a generated graded dataset), what TREC cannot hold."""
import os
import random
import re

import pytest

import ragscore
from ragscore import Dataset, InvalidInputError
from ragscore.core.metrics import REGISTRY
from ragscore.core.rules import OPEN, RULES
from ragscore.engine.reference import count_runs
from ragscore.importers.trec import ORDER_NOTES
from ragscore.importers import export_trec, import_trec

RETRIEVAL = {name: metric for name, metric in REGISTRY.items() if metric.stage == "retrieval"}


def _scores(dataset, ks=(1, 2, 3, 5, 10)):
    counted = count_runs(dataset.corpus, dataset.cases, dataset.runs,
                         rules=RULES[dataset.ids], min_relevance=dataset.min_relevance)
    return {key: {(name, k): metric.value(counts, k) for name, metric in RETRIEVAL.items()
                  for k in ks}
            for key, counts in zip(counted.keys, counted.counts)}


def _round_trip(dataset, folder, **options):
    qrels, *runs = export_trec(dataset, folder / "export")
    return import_trec(qrels, runs, min_relevance=dataset.min_relevance, **options)


def test_the_course_files_by_hand(tmp_path):
    paths = export_trec(ragscore.load_course(), tmp_path / "course")
    assert [path.name for path in paths] == ["course.qrels", "course.A.run", "course.B.run"]
    assert paths[0].read_text() == ("launch 0 launch 1\nrollback 0 rollback 1\n"
                                    "rollback 0 checklist 1\nowner 0 owners 1\n")
    assert paths[1].read_text() == (
        "launch Q0 launch 1 2 A\nlaunch Q0 archive 2 1 A\nrollback Q0 rollback 1 1 A\n"
        "owner Q0 archive 1 2 A\nowner Q0 owners 2 1 A\nregion Q0 archive 1 1 A\n")
    assert paths[2].read_text().splitlines()[-1] == "owner Q0 archive 2 1 B"
    assert sorted(os.listdir(tmp_path)) == ["course.A.run", "course.B.run", "course.qrels"]


def test_the_course_under_open_rules_scores_the_same_after_a_round_trip(tmp_path):
    course = ragscore.load_course()._replace(ids="open")
    imported, notes = _round_trip(course, tmp_path)
    # region is unanswerable: no qrels line can carry it, so its runs have no qrels
    assert list(imported.cases) == ["launch", "rollback", "owner"]
    assert notes == {"run questions without qrels": {"A": 1, "B": 0},
                     "judged questions missing from a run": {"A": 0, "B": 0},
                     "missing_run": "zero", "ranking order": ORDER_NOTES["score"]}
    before, after = _scores(course), _scores(imported)
    assert set(after) == {key for key in before if key[0] != "region"}
    for key, values in after.items():
        assert values == before[key], key
    for case, per_case in imported.runs.items():
        for system, run in per_case.items():
            assert run["retrieved"] == course.runs[case][system]["retrieved"]


def _generated(seed=11):
    generator = random.Random(seed)
    docs = [f"doc-{n}" for n in range(30)] + [f"Doc{n}" for n in range(10)] + \
           [f"é_{n}.pdf#p{n}" for n in range(10)] + ["d1", "d10", "d2", "Z"]
    cases = {}
    for n in range(24):
        judged = generator.sample(docs, generator.randint(1, 6))
        cases[f"topic-{n}" if n else "Q/7"] = {
            "question": "", "relevant": {doc: generator.randint(-1, 3) for doc in judged}}
    cases["all-zero"] = {"question": "", "relevant": {"doc-1": 0, "doc-2": 0}}
    runs = {case: {system: {"retrieved": tuple(generator.sample(docs,
                                                                generator.choice([0, 1, 5, 12])))}
                   for system in ("bm25", "dense-v2", "fusion.rrf")}
            for case in cases}
    return Dataset(corpus={doc: f"Text of {doc}." for doc in docs}, cases=cases, runs=runs,
                   name="generated", ids="open", min_relevance=2, sources={}, versions={})


def test_a_generated_graded_dataset_comes_back_identical(tmp_path):
    dataset = _generated()
    imported, notes = _round_trip(dataset, tmp_path)
    assert imported.cases == dataset.cases  # every grade, zero and negative included
    assert imported.runs == dataset.runs  # empty rankings come back from missing_run="zero"
    assert imported.min_relevance == 2
    assert notes["run questions without qrels"] == {"bm25": 0, "dense-v2": 0, "fusion.rrf": 0}
    assert _scores(imported) == _scores(dataset)


def test_every_tool_sees_the_dataset_order(tmp_path):
    dataset = _generated(seed=3)
    for path in export_trec(dataset, tmp_path / "g")[1:]:
        previous = {}
        for line in path.read_text().splitlines():
            qid, _, _, rank, score, _ = line.split()
            last_rank, last_score = previous.get(qid, (0, float("inf")))
            assert int(rank) == last_rank + 1 and int(score) < last_score
            previous[qid] = (int(rank), int(score))
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {case: dict(labels["relevant"]) for case, labels in dataset.cases.items()}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"P_5", "ndcg_cut_5", "map_cut_5"},
                                               relevance_level=2)
    ours = _scores(dataset, ks=(5,))
    names = {"P_5": "precision", "ndcg_cut_5": "ndcg", "map_cut_5": "ap"}
    compared = 0
    for path in export_trec(dataset, tmp_path / "g")[1:]:
        run = {}
        for line in path.read_text().splitlines():
            qid, _, doc, _, score, system = line.split()
            run.setdefault(qid, {})[doc] = float(score)
        for qid, measures in evaluator.evaluate(run).items():
            for measure, name in names.items():
                value = ours[qid, system][name, 5]
                if value is not None:  # n/a here where trec_eval writes 0
                    assert value == pytest.approx(measures[measure]), (qid, system, measure)
                    compared += 1
    assert compared > 100


def test_binary_relevance_is_written_at_min_relevance(tmp_path):
    course = ragscore.load_course()._replace(ids="open", min_relevance=2)
    qrels = export_trec(course, tmp_path / "c")[0]
    assert qrels.read_text().splitlines()[0] == "launch 0 launch 2"
    imported, _ = import_trec(qrels, [], min_relevance=2)
    assert imported.cases["rollback"]["relevant"] == {"rollback": 2, "checklist": 2}
    labels = count_runs(imported.corpus, imported.cases,
                        {"rollback": {"s": {"retrieved": ("checklist",)}}}, rules=OPEN,
                        min_relevance=2).counts[0]
    assert labels.n_relevant == 2  # still both relevant at min_relevance 2


def _tiny(**changes):
    fields = dict(corpus={"a": None, "b": None}, cases={"q": {"relevant": {"a": 1}}},
                  runs={"q": {"s": {"retrieved": ("b", "a")}}}, ids="open")
    fields.update(changes)
    return Dataset(**fields)


@pytest.mark.parametrize("dataset, message", [
    (_tiny(corpus={"a b": None, "a": None}, cases={"q": {"relevant": {"a b": 1}}},
           runs={}), "document 'a b' cannot be written to a TREC file: it holds whitespace"),
    (_tiny(cases={"#q": {"relevant": {"a": 1}}}, runs={}),
     "case '#q' cannot be written to a TREC file: a line starting with '#' is read as a "
     "comment"),
    (_tiny(runs={"q": {"x/y": {"retrieved": ("a",)}}}), "system 'x/y' cannot name a run file"),
    (_tiny(runs={"q": {"A": {"retrieved": ("a",)}, "a": {"retrieved": ()}}}),
     "systems 'A' and 'a' would share a run file on a case-insensitive file system"),
    (_tiny(runs={"q": {"s": {"retrieved": ("a", "a")}}}),
     "case 'q', system 's': run['retrieved'][1] must be unique within the tuple; got 'a'"),
])
def test_what_trec_files_cannot_hold_is_refused_before_writing(tmp_path, dataset, message):
    with pytest.raises(InvalidInputError, match=f"^{re.escape(message)}$"):
        export_trec(dataset, tmp_path / "x")
    assert os.listdir(tmp_path) == []


def test_a_failed_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    replaced = []

    def failing_replace(source, target):
        if replaced:
            raise OSError("disk full")
        replaced.append(target)
        os.rename(source, target)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        export_trec(_tiny(), tmp_path / "x")
    assert os.listdir(tmp_path) == ["x.qrels"]  # written whole; the run never appeared


def test_ids_from_open_rules_round_trip_unchanged(tmp_path):
    dataset = _tiny(corpus={"É/1": None, "z#2": None}, cases={"q.1": {"relevant": ("É/1",)}},
                    runs={"q.1": {"s": {"retrieved": ("z#2", "É/1")}}})
    imported, _ = _round_trip(dataset, tmp_path)
    assert imported.runs == dataset.runs
    assert imported.cases == {"q.1": {"question": "", "relevant": {"É/1": 1}}}
