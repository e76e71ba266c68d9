"""nuggetizer's and TREC RAG's files as they are written (issue 44): "failed" assignments and
importances, nugget files without ``query`` (the human nuggets of TREC RAG 25), the 2025
answer layout (``metadata.narrative_id``), nuggetizer's answer records without
``references``, ``citations`` or ``run_id``, and numeric IDs written back as numbers; and
(issue 40) an assignment or answer naming an unknown run or question refused.

Every score is worked by hand from nuggetizer's ``calculate_nugget_scores``
(src/nuggetizer/core/metrics.py): vital nuggets are those whose importance is "vital";
strict scores count ``support``; the others add 0.5 per ``partial_support``; any other
assignment ("failed" included) adds nothing and stays in the denominator. W is TREC RAG's
weighted score: (vital s + 0.5 x okay s) / (vital + 0.5 x okay)."""
import json
import re
from pathlib import Path

import pytest

from ragscore import DatasetFileError, load_dataset, save_dataset
from ragscore.cli import main
from ragscore.core.metrics import NUGGET_METRICS, REGISTRY
from ragscore.engine import count_folder
from ragscore.importers.nuggetizer import export_nuggets, import_nuggets

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "nuggets"
NUGGETS, ANSWERS, QRELS = (FIXTURE / "nuggets.jsonl", FIXTURE / "answers.jsonl",
                           FIXTURE / "qrels.txt")
FAILED = FIXTURE / "failed"
DATE = "2026-12-05"
N_A = (None,) * 5


def same(found, expected):
    """Each key's five scores equal the hand-worked ones (n/a where ``None``)."""
    assert set(found) == set(expected)
    for key, values in expected.items():
        assert found[key] == pytest.approx(values, abs=1e-12), key
    return True


def scores(dataset, tmp_path, engine):
    """``{(case, system): the five nugget scores at k=2}``, the drafts counted."""
    counted = count_folder(save_dataset(dataset, tmp_path / engine), engine=engine,
                           drafts=True)
    return {key: tuple(counted.values(REGISTRY[name], 2)[position] for name in NUGGET_METRICS)
            for position, key in enumerate(counted.keys)}


# failed/: t1's nuggets are n1 vital, n2 importance "failed", n3 okay; t2's n1 vital, n2 okay.
# Assignments (run, question: n1, n2, n3):
#   run-a t1: support, support, failed     run-a t2: support, not_support
#   run-b t1: failed, failed, failed       run-b t2: partial_support, support
# nuggetizer: a "failed" importance is not vital; a "failed" assignment adds 0.
#   run-a t1: vital [n1] support -> Vs 1/1, V 1/1; all: n1, n2 support -> As 2/3, A 2/3;
#             W reading n2 as okay: (1 + 0.5 x (1 + 0)) / (1 + 0.5 x 2) = 1.5 / 2 = 0.75
#   run-a t2: Vs 1, As 1/2, V 1, A 1/2, W 1 / 1.5
#   run-b t1: nothing supported -> 0, 0, 0, 0, W 0
#   run-b t2: vital partial -> Vs 0, V 0.5; all: As 1/2, A (0.5 + 1) / 2 = 0.75;
#             W (0.5 + 0.5 x 1) / 1.5 = 1 / 1.5
AS_NUGGETIZER = {("t1", "run-a"): (1.0, 2 / 3, 1.0, 2 / 3, 0.75),
                 ("t2", "run-a"): (1.0, 0.5, 1.0, 0.5, 1 / 1.5),
                 ("t1", "run-b"): (0.0, 0.0, 0.0, 0.0, 0.0),
                 ("t2", "run-b"): (0.0, 0.5, 0.5, 0.75, 1 / 1.5)}


def _failed(**options):
    return import_nuggets(FAILED / "nuggets.jsonl", assignments=FAILED / "assignments.jsonl",
                          answers=ANSWERS, qrels=QRELS, date=DATE, **options)


@pytest.mark.parametrize("engine", ["reference", "columnar"])
def test_failed_read_as_nuggetizer_scores_it_gives_nuggetizers_numbers(tmp_path, engine):
    dataset, notes = _failed(failed_as="not_support")
    assert dataset.cases["t1"]["nuggets"][1] == {
        "id": "n2", "text": "The owners sign off before launch", "importance": "okay"}
    assert same(scores(dataset, tmp_path, engine), AS_NUGGETIZER)
    # 4 failed assignments (run-a t1 n3; run-b t1 n1, n2, n3), 1 failed importance
    assert notes['nugget assignments nuggetizer could not make ("failed"): read as '
                 "not_support (--failed-as not_support, as nuggetizer scores them)"] == 4
    assert notes['nuggets whose importance nuggetizer could not score ("failed"): read as '
                 "okay (--failed-as not_support: not vital, as nuggetizer scores them)"] == 1
    assert len(dataset.judgements) == 10  # every assignment, failed ones as not_support


@pytest.mark.parametrize("engine", ["reference", "columnar"])
def test_failed_is_not_assessed_by_default(tmp_path, engine):
    dataset, notes = _failed()
    # n2's importance is not known: kept without one (vital, as read), never assigned, so
    # every nugget score of t1 is n/a for both runs; t2 holds no failure and scores as above
    assert dataset.cases["t1"]["nuggets"][1] == {
        "id": "n2", "text": "The owners sign off before launch"}
    found = scores(dataset, tmp_path, engine)
    assert found[("t1", "run-a")] == found[("t1", "run-b")] == N_A
    assert found[("t2", "run-a")] == pytest.approx(AS_NUGGETIZER[("t2", "run-a")], abs=1e-12)
    assert found[("t2", "run-b")] == pytest.approx(AS_NUGGETIZER[("t2", "run-b")], abs=1e-12)
    # kept: run-a t1 n1; run-b t1 nothing; t2: 2 + 2 -> 5 judgements
    assert len(dataset.judgements) == 5
    assert notes['nugget assignments nuggetizer could not make ("failed"): not assessed, so '
                 "their answers' nugget scores are n/a"] == 3  # run-a t1 n3; run-b t1 n1, n3
    assert notes['nuggets whose importance nuggetizer could not score ("failed"): not '
                 "assessed, so every nugget score of their question is n/a"] == 1
    # run-a's "support" of n2 is not kept; run-b's "failed" of n2 was nothing to keep
    assert notes["assignments of nuggets whose importance failed: not kept (the nugget is "
                 "not assessed)"] == 1


def test_a_failed_assignment_alone_leaves_only_that_answers_scores_na(tmp_path):
    # the nuggets file's importances all known: run-a t1's n3 (okay) failed, so its scores
    # over all nuggets (A strict, A, W) are n/a and those over vital ones (n1, n2 support)
    # are 2/2; run-b t1 failed everywhere: all n/a
    assignments = tmp_path / "a.jsonl"
    assignments.write_text((FAILED / "assignments.jsonl").read_text().replace(
        '"importance": "failed"', '"importance": "vital"'))
    dataset, _ = import_nuggets(NUGGETS, assignments=assignments, answers=ANSWERS, qrels=QRELS,
                                date=DATE)
    found = scores(dataset, tmp_path, "reference")
    assert found[("t1", "run-a")] == (1.0, None, 1.0, None, None)
    assert found[("t1", "run-b")] == N_A


def test_failed_as_is_checked():
    with pytest.raises(ValueError, match="failed_as must be one of not_assessed, "
                                         "not_support; got 'zero'"):
        _failed(failed_as="zero")


RAG25 = FIXTURE / "rag25"
LAUNCH, OWNERS, ARCHIVE, ROLLBACK = ("msmarco_v2.1_doc_01_100#0_1", "msmarco_v2.1_doc_01_100#1_2",
                                     "msmarco_v2.1_doc_02_200#0_3", "msmarco_v2.1_doc_03_300#2_4")


def test_trec_rag_25_human_nuggets_and_answers(tmp_path):
    dataset, notes = import_nuggets(RAG25 / "nuggets.jsonl", answers=RAG25 / "answers.jsonl",
                                    qrels=RAG25 / "qrels.txt")
    assert list(dataset.cases) == ["101", "102"]
    assert dataset.systems == ("team-a_run1", "team-b_run2")
    # the nuggets give no query: the question is the answers' metadata.narrative
    assert dataset.cases["101"]["question"] == (
        "I'm planning a release and want to know when the window opens, who signs off, and "
        "when it closes.")
    assert dataset.cases["102"]["nuggets"] == (
        {"id": "n1", "text": "Traffic is switched back to the previous version",
         "importance": "vital"},
        {"id": "n2", "text": "The smoke checklist is run after a rollback",
         "importance": "okay"})
    # citations [2, 1] of references [launch, archive, owners] -> owners, archive; no
    # response_length in the 2025 layout, so none is recorded
    assert dataset.runs["101"]["team-a_run1"] == {
        "retrieved": (LAUNCH, ARCHIVE, OWNERS),
        "sentences": (("The release window opens on Monday.", (LAUNCH,)),
                      ("The owners sign off before launch.", (OWNERS, ARCHIVE)))}
    assert notes == {"nuggets whose mapped_sub_narrative or source was not kept": 5,
                     "answers whose metadata team_id, type or prompt was not kept": 3}
    counted = count_folder(save_dataset(dataset, tmp_path / "d"), engine="reference")
    # P@2 with grades >= 1 relevant: 101 {launch 3, owners 2}, 102 {rollback 3, checklist 1}
    #   101 team-a: launch, archive -> 1/2; 102 team-a: rollback -> 1/2; 101 team-b:
    #   archive, launch -> 1/2.  RR: 1, 1, 1/2.  R@2: 1/2, 1/2, 1/2
    assert dict(zip(counted.keys, counted.values(REGISTRY["rr"], 2))) == {
        ("101", "team-a_run1"): 1.0, ("102", "team-a_run1"): 1.0,
        ("101", "team-b_run2"): 0.5}
    assert counted.values(REGISTRY["precision"], 2) == [0.5, 0.5, 0.5]
    # nobody assigned a nugget yet: n/a, never 0
    assert set(counted.values(REGISTRY["nugget_all"], 2)) == {None}


def test_answers_to_a_question_without_query_must_agree_on_its_text(tmp_path):
    lines = (RAG25 / "answers.jsonl").read_text().splitlines()
    record = json.loads(lines[2])  # team-b's answer to 101
    record["metadata"]["narrative"] = "Another question?"
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join([*lines[:2], json.dumps(record)]) + "\n")
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{path}, line 3: field 'metadata.narrative' must be question '101' as an earlier "
            "answer or assignment gives it (a str of 97 characters, cut: \"I'm planning a "
            "release")):
        import_nuggets(RAG25 / "nuggets.jsonl", answers=path)


def test_a_2025_answer_needs_its_run_and_narrative_id(tmp_path):
    path = tmp_path / "r.jsonl"
    record = json.loads((RAG25 / "answers.jsonl").read_text().splitlines()[0])
    del record["metadata"]["narrative_id"]
    path.write_text(json.dumps(record) + "\n")
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{path}, line 1: field 'metadata.narrative_id' is missing")):
        import_nuggets(RAG25 / "nuggets.jsonl", answers=path)
    record["metadata"].update(narrative_id="101", team="x")
    path.write_text(json.dumps(record) + "\n")
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{path}, line 1: unknown field 'metadata.team' (metadata has team_id, run_id")):
        import_nuggets(RAG25 / "nuggets.jsonl", answers=path)


NEWER = FIXTURE / "newer"


@pytest.mark.parametrize("engine", ["reference", "columnar"])
def test_nuggetizers_answer_records_without_references_citations_or_run_id(tmp_path, engine):
    dataset, notes = import_nuggets(NUGGETS, answers=NEWER / "direct-run.jsonl",
                                    assignments=NEWER / "assignments.jsonl", qrels=QRELS,
                                    date=DATE)
    # the system is the answers file's name, as nuggetizer's assign names the run
    assert dataset.systems == ("direct-run",)
    assert dataset.runs["t1"]["direct-run"] == {
        "retrieved": (), "sentences": (("The release window opens on Monday.", ()),),
        "response_length": 6}
    assert notes["answers naming no run_id (the system is the answers file's name, as "
                 "nuggetizer names it)"] == 2
    assert notes["answers without references (no ranking recorded)"] == 2
    assert notes["answers with sentences that give no citations (they cite nothing)"] == 2
    # t1: vital support, not; okay not -> Vs 1/2, As 1/3, V 1/2, A 1/3, W 1 / 2.5
    # t2: vital support; okay not     -> Vs 1, As 1/2, V 1, A 1/2, W 1 / 1.5
    assert same(scores(dataset, tmp_path, engine), {
        ("t1", "direct-run"): (0.5, 1 / 3, 0.5, 1 / 3, 0.4),
        ("t2", "direct-run"): (1.0, 0.5, 1.0, 0.5, 1 / 1.5)})


def test_an_answer_without_references_cannot_cite_by_index(tmp_path):
    path = tmp_path / "direct-run.jsonl"
    path.write_text(json.dumps({"topic_id": "t1", "answer": [{"text": "x", "citations": [0]}]})
                    + "\n")
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{path}, line 1: field 'answer'[0]['citations'] cites references by index, and "
            "the record has no 'references'; got [0]")):
        import_nuggets(NUGGETS, answers=path, qrels=QRELS)
    path = tmp_path / "bad name .jsonl"
    path.write_text(json.dumps({"topic_id": "t1", "answer": []}) + "\n")
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{path}, line 1: field 'run_id' is missing, and the file's name 'bad name ' "
            "cannot name the system instead")):
        import_nuggets(NUGGETS, answers=path, qrels=QRELS)


def test_numeric_ids_come_back_as_numbers(tmp_path):
    nuggets, answers = tmp_path / "n.jsonl", tmp_path / "r.jsonl"
    nuggets.write_text(NUGGETS.read_text().replace('"qid": "t1"', '"qid": 23287'))
    answers.write_text(ANSWERS.read_text().replace('"topic_id": "t1"', '"topic_id": 23287'))
    qrels = tmp_path / "q.txt"
    qrels.write_text(QRELS.read_text().replace("t1 ", "23287 "))
    dataset, notes = import_nuggets(nuggets, answers=answers, qrels=qrels)
    assert notes["question IDs given as numbers (written back as numbers)"] == 1
    folder = save_dataset(dataset, tmp_path / "d")
    loaded = load_dataset(folder)
    assert loaded.cases["23287"]["numeric_id"] is True and "numeric_id" not in loaded.cases["t2"]
    export_nuggets(loaded, nuggets=tmp_path / "n2.jsonl", answers=tmp_path / "r2.jsonl")
    assert (tmp_path / "n2.jsonl").read_bytes() == nuggets.read_bytes()
    assert (tmp_path / "r2.jsonl").read_bytes() == answers.read_bytes()
    assert json.loads((tmp_path / "n2.jsonl").read_text().splitlines()[0])["qid"] == 23287


# issue 40: a mistyped run or question is refused, never made into a run of its own
def _edited(tmp_path, source, line, **change):
    lines = source.read_text().splitlines()
    lines[line - 1] = json.dumps(dict(json.loads(lines[line - 1]), **change))
    path = tmp_path / source.name
    path.write_text("\n".join(lines) + "\n")
    return path


def test_an_assignment_naming_no_answered_run_is_refused(tmp_path):
    path = _edited(tmp_path, FIXTURE / "assignments.jsonl", 2, run_id="run-c")
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{path}, line 2: field 'run_id': run 'run-c' has no answer to question 't2' in "
            f"{ANSWERS}; runs answering it there: 'run-a', 'run-b'")):
        import_nuggets(NUGGETS, assignments=path, answers=ANSWERS, qrels=QRELS, date=DATE)


def test_an_answer_to_an_unknown_question_is_refused(tmp_path):
    path = _edited(tmp_path, ANSWERS, 2, topic_id="t3")
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{path}, line 2: field 'topic_id': question 't3' is not in the nuggets file or "
            "the qrels; closest: 't1', 't2'")):
        import_nuggets(NUGGETS, answers=path, qrels=QRELS)


def test_the_command_refuses_a_mistyped_run_with_one_line_and_writes_nothing(tmp_path, capsys):
    path = _edited(tmp_path, FIXTURE / "assignments.jsonl", 2, run_id="run-A")
    out = tmp_path / "d"
    code = main(["import", "nuggets", "--nuggets", str(NUGGETS), "--answers", str(ANSWERS),
                 "--assignments", str(path), "--qrels", str(QRELS), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert err.count("\n") == 1 and f"{path}, line 2: field 'run_id': run 'run-A'" in err


def test_the_command_reads_failed_as(tmp_path, capsys):
    out = tmp_path / "d"
    assert main(["import", "nuggets", "--nuggets", str(FAILED / "nuggets.jsonl"),
                 "--answers", str(ANSWERS), "--assignments", str(FAILED / "assignments.jsonl"),
                 "--qrels", str(QRELS), "--failed-as", "not_support", "--date", DATE,
                 "--out", str(out)]) == 0
    assert "read as not_support (--failed-as not_support" in capsys.readouterr().out
    assert len(load_dataset(out).judgements) == 10
