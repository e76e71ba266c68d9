"""TREC qrels and runs: the fixture worked by hand (trec_eval's order, grades, what is dropped),
agreement with pytrec_eval, and one pinned message per kind of bad line."""
import random
import re
from math import log2
from pathlib import Path

import pytest

from ragscore.importers.trec import ORDER_NOTES

from ragscore import DatasetFileError, InvalidInputError, load_dataset, save_dataset
from ragscore.core.metrics import REGISTRY
from ragscore.core.rules import OPEN, show
from ragscore.engine.reference import count_runs
from ragscore.importers import import_trec
from ragscore.importers.trec import RunReader

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "trec"
QRELS, BM25, DENSE = FIXTURE / "qrels.txt", FIXTURE / "bm25.run", FIXTURE / "dense.run"


def _fixture(**options):
    return import_trec(QRELS, [BM25, DENSE], **options)


def _scores(dataset, k):
    counted = count_runs(dataset.corpus, dataset.cases, dataset.runs, rules=OPEN,
                         min_relevance=dataset.min_relevance)
    return {key: {name: REGISTRY[name].value(counts, k)
                  for name in ("precision", "recall", "rr", "ndcg", "ap", "hit")}
            for key, counts in zip(counted.keys, counted.counts)}


def _exactly(path, line, text):
    """A ``match`` pattern for exactly ``<path>, line <line>: <text>``."""
    return "^" + re.escape(f"{path}, line {line}: {text}") + "$"


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---- the fixture, by hand ----------------------------------------------------------------------

def test_rankings_are_in_trec_eval_order():
    dataset, _ = _fixture()
    # bm25 q1: harbour and lighthouse tie at 7.5, so docno descending puts lighthouse first
    # (the rank column says otherwise and is ignored); q3: 'orchard' > 'Orchard' byte-wise.
    # dense: q1 and q2 are interleaved; ferry and lighthouse tie at 0.75; q3 is missing.
    assert dataset.runs == {
        "q1": {"bm25": {"retrieved": ("lighthouse", "harbour", "ferry", "tide")},
               "dense": {"retrieved": ("tide", "lighthouse", "ferry")}},
        "q2": {"bm25": {"retrieved": ("moraine", "glacier")},
               "dense": {"retrieved": ("glacier", "spam-page")}},
        "q3": {"bm25": {"retrieved": ("orchard", "Orchard")},
               "dense": {"retrieved": ()}},
    }
    assert dataset.systems == ("bm25", "dense")


def test_cases_keep_every_grade_and_the_corpus_every_kept_docno():
    dataset, _ = _fixture()
    assert dataset.cases == {
        "q1": {"question": "", "relevant": {"lighthouse": 2, "harbour": 1, "ferry": 0}},
        "q2": {"question": "", "relevant": {"glacier": 1, "moraine": 2, "spam-page": -1}},
        "q3": {"question": "", "relevant": {"orchard": 1}},
    }
    assert list(dataset.corpus) == ["lighthouse", "harbour", "ferry", "glacier", "moraine",
                                    "spam-page", "orchard", "tide", "Orchard"]
    assert set(dataset.corpus.values()) == {None}
    assert (dataset.ids, dataset.min_relevance, dataset.name) == ("open", 1, "qrels")
    assert dataset.description == ("Imported from TREC qrels 'qrels.txt' and runs "
                                   "'bm25.run', 'dense.run'")


def test_notes_count_what_was_dropped_and_what_was_filled():
    _, notes = _fixture()
    assert notes == {"run questions without qrels": {"bm25": 1, "dense": 0},  # q9
                     "judged questions missing from a run": {"bm25": 0, "dense": 1},  # q3
                     "missing_run": "zero", "ranking order": ORDER_NOTES["score"]}


def test_missing_run_skip_leaves_the_run_out():
    dataset, notes = _fixture(missing_run="skip")
    assert dataset.runs["q3"] == {"bm25": {"retrieved": ("orchard", "Orchard")}}
    assert notes["judged questions missing from a run"] == {"bm25": 0, "dense": 1}
    assert notes["missing_run"] == "skip"


def test_scores_worked_by_hand():
    scores = _scores(_fixture()[0], 3)
    # bm25 q1 ranks lighthouse (2), harbour (1), ferry (0): ideal order, all relevant found.
    assert scores["q1", "bm25"] == {"precision": 2 / 3, "recall": 1.0, "rr": 1.0, "ndcg": 1.0,
                                    "ap": 1.0, "hit": 1.0}
    # dense q1 ranks tide (unjudged), lighthouse (2), ferry (0).
    dense = scores["q1", "dense"]
    assert dense["rr"] == 0.5 and dense["recall"] == 0.5
    assert dense["ndcg"] == pytest.approx((2 / log2(3)) / (2 + 1 / log2(3)))
    # dense q3 is an empty ranking (trec_eval -c): zeros, not n/a.
    assert scores["q3", "dense"]["precision"] == 0.0


def test_min_relevance_judges_only_higher_grades_relevant():
    dataset, _ = _fixture(min_relevance=2)
    assert dataset.min_relevance == 2
    scores = _scores(dataset, 2)
    assert scores["q1", "dense"]["precision"] == 0.5  # lighthouse only
    assert scores["q1", "bm25"]["recall"] == 1.0


def test_saves_and_loads_back_unchanged(tmp_path):
    dataset, _ = _fixture()
    assert load_dataset(save_dataset(dataset, tmp_path / "trec")) == dataset


def test_agrees_with_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, runs = {}, {}
    for line in QRELS.read_text().splitlines():
        if line and not line.startswith("#"):
            qid, _, docno, grade = line.split()
            qrels.setdefault(qid, {})[docno] = int(grade)
    for path in (BM25, DENSE):
        for line in path.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                qid, _, docno, _, score, tag = line.split()
                runs.setdefault(tag, {}).setdefault(qid, {})[docno] = float(score)
    scores = _scores(_fixture()[0], 3)
    names = {"P_3": "precision", "recall_3": "recall", "ndcg_cut_3": "ndcg",
             "map_cut_3": "ap", "success_3": "hit"}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(names))
    compared = 0
    for system, run in runs.items():
        for qid, measures in evaluator.evaluate(run).items():
            for measure, name in names.items():
                assert scores[qid, system][name] == pytest.approx(measures[measure]), \
                    (system, qid, measure)
                compared += 1
    assert compared == 5 * len(names)  # bm25 q1 q2 q3, dense q1 q2 (q9: no qrels)


# ---- trec_eval's order -------------------------------------------------------------------------

def _ranked(tmp_path, scores):
    """The ranking of one question whose docnos have ``scores``, through the importer."""
    qrels = _write(tmp_path, "qrels", "q 0 anything 1\n")
    run = _write(tmp_path, "run", "".join(f"q Q0 {doc} 0 {score} s\n"
                                          for doc, score in scores.items()))
    return import_trec(qrels, run)[0].runs["q"]["s"]["retrieved"]


def test_ties_break_by_docno_descending_byte_wise(tmp_path):
    # FINDINGS.md section 4: the order pytrec_eval gives eleven docnos all scored 1.0.
    docs = ["d1", "d10", "d2", "D5", "d5", "a", "Z", "d_1", "d-1", "é1", "e1"]
    assert _ranked(tmp_path, dict.fromkeys(docs, "1.0")) == (
        "é1", "e1", "d_1", "d5", "d2", "d10", "d1", "d-1", "a", "Z", "D5")


def test_scores_come_first_and_negative_zero_ties_zero(tmp_path):
    assert _ranked(tmp_path, {"d1": "2", "d2": "1", "d3": "1", "d4": "3", "d0": "1"}) == (
        "d4", "d1", "d3", "d2", "d0")
    assert _ranked(tmp_path, {"a": "-0.0", "b": "0", "c": "1e-300"}) == ("c", "b", "a")


@pytest.mark.parametrize("engine", ["reference", "columnar"])
def test_tied_scores_apart_in_the_file_still_break_by_docno(tmp_path, engine):
    # d18 and d8 tie as C floats (0.50000001 rounds to 0.5) but are three lines apart
    qrels = _write(tmp_path, "qrels", "q 0 anything 1\n")
    run = _write(tmp_path, "run", "q Q0 d18 1 0.50000001 s\nq Q0 d6 2 -0 s\n"
                                  "q Q0 d34 3 2.5 s\nq Q0 d8 4 0.5 s\n")
    assert import_trec(qrels, run, engine=engine)[0].runs["q"]["s"]["retrieved"] == (
        "d34", "d8", "d18", "d6")


def test_a_question_across_blocks_and_interleaved_with_others(tmp_path):
    generator = random.Random(5)
    rows = [(f"q{n % 3}", f"doc-{n}", generator.choice(["1", "2.5", "-3", "7e1"]))
            for n in range(4000)]  # lines interleave q0 q1 q2, over several 64 KiB blocks
    qrels = _write(tmp_path, "qrels", "q0 0 doc-0 1\nq1 0 doc-1 1\nq2 0 doc-2 1\n")
    run = _write(tmp_path, "run", "".join(f"{qid}\tQ0 {doc}  1 {score} sys\n"
                                          for qid, doc, score in rows))
    assert run.stat().st_size > 1 << 16  # more than one block
    reader = RunReader({"q0", "q1", "q2"}, {}, max_ids=2000)
    reader.read(run)
    for qid in ("q0", "q1", "q2"):
        expected = sorted(((float(score), doc) for q, doc, score in rows if q == qid),
                          key=lambda pair: (pair[0], pair[1].encode()), reverse=True)
        assert reader.rankings["sys"][qid] == tuple(doc for _, doc in expected)
    assert import_trec(qrels, run)[0].runs["q2"]["sys"]["retrieved"][:1] == \
        reader.rankings["sys"]["q2"][:1]


def test_odd_bytes_outside_the_ids_are_not_errors(tmp_path):
    qrels = _write(tmp_path, "qrels", "q 0 d1 1\n")
    run = _write(tmp_path, "run", "# a note with a bell \x07\nq Q\x070 d1 1 1.0 s\n"
                                  "q Q0 é 2 0.5 s\n")
    assert import_trec(qrels, run)[0].runs["q"]["s"]["retrieved"] == ("d1", "é")


# ---- bad lines: one pinned message each ----------------------------------------------------------

@pytest.fixture
def qrels(tmp_path):
    return _write(tmp_path, "qrels.txt", "q1 0 d1 1\nq1 0 d2 0\n")


STRTOD = ("score must be a number as C's strtod reads one (ASCII digits, e.g. 2.5, 1e-3, "
          "0x1p4 or inf); got ")


@pytest.mark.parametrize("text, line, message", [
    ("q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 2 1.0\n", 2,
     "expected at least 6 whitespace-separated fields (qid Q0 docno rank score tag; "
     "trec_eval ignores any after the sixth); got 5"),
    ("q1 Q0 d1 1 high bm25\n", 1, STRTOD + "'high' (trec_eval would read 0)"),
    ("q1 Q0 d1 1 1_0 bm25\n", 1, STRTOD + "'1_0' (trec_eval would read 1)"),
    ("q1 Q0 d1 1 \u0661\u0662 bm25\n", 1, STRTOD + "'\u0661\u0662' (non-ASCII: U+0661 "
     "ARABIC-INDIC DIGIT ONE at 0, U+0662 ARABIC-INDIC DIGIT TWO at 1) (trec_eval would read 0)"),
    ("q1 Q0 d1 1 NaN bm25\n", 1,
     "score must be a number trec_eval can order; got 'NaN' (not a number)"),
    ("q1 Q0 \x07bell 1 2.0 bm25\n", 1,
     f"docno must be {OPEN.expected}; got '\\x07bell'"),
    (f"q1 Q0 {'d' * 513} 1 2.0 bm25\n", 1,
     f"docno must be {OPEN.expected}; got {show('d' * 513)}"),
    ("q\x9b1 Q0 d1 1 2.0 bm25\n", 1, f"qid must be {OPEN.expected}; got 'q\\x9b1'"),
    ("q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 2 1.0 bm25\nq1 Q0 d3 3 0.5 bm25\nq1 Q0 d1 4 0.1 bm25\n",
     4, "document 'd1' is ranked twice for question 'q1' by system 'bm25' (first on line 1)"),
    # the first problem in the file, though a later line's is seen first
    ("q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 2 x bm25\nq1 Q0 d3 3\n", 2,
     STRTOD + "'x' (trec_eval would read 0)"),
])
def test_a_bad_run_line_is_named(tmp_path, qrels, text, line, message):
    run = _write(tmp_path, "run.txt", text)
    with pytest.raises(DatasetFileError, match=_exactly(run, line, message)):
        import_trec(qrels, run)


def test_a_document_ranked_twice_apart_is_named_with_both_lines(tmp_path, qrels):
    run = _write(tmp_path, "run.txt", "q1 Q0 d1 1 2 s\nq2 Q0 d1 1 2 s\nq1 Q0 d1 2 1 s\n")
    with pytest.raises(DatasetFileError, match=_exactly(
            run, 3, "document 'd1' is ranked twice for question 'q1' by system 's' "
                    "(first on line 1)")):
        import_trec(qrels, run)


def test_a_system_in_two_files_is_refused(tmp_path, qrels):
    first = _write(tmp_path, "a.run", "q1 Q0 d1 1 2 bm25\n")
    second = _write(tmp_path, "b.run", "# again\nq1 Q0 d2 1 2 other\nq1 Q0 d2 1 2 bm25\n")
    with pytest.raises(DatasetFileError, match=_exactly(
            second, 3, f"system 'bm25' (the run's tag) is also in {first}, line 1; each "
                       "system's run must be in one file")):
        import_trec(qrels, [first, second])


def test_a_ranking_over_the_limit_is_named_at_the_first_line_past_it(tmp_path):
    run = _write(tmp_path, "run.txt", "q1 Q0 a 1 3 s\nq1 Q0 b 2 2 s\nq1 Q0 c 3 1 s\n")
    reader = RunReader({"q1"}, {}, max_ids=2)
    with pytest.raises(DatasetFileError, match=_exactly(
            run, 3, "question 'q1' of system 's' ranks more than 2 documents, the most a "
                    "ranking may hold; keep each question's top 2 (--max-depth)")):
        reader.read(run)


def test_an_empty_run_file_is_refused(tmp_path, qrels):
    run = _write(tmp_path, "run.txt", "# no lines yet\n")
    with pytest.raises(DatasetFileError, match=f"^{re.escape(str(run))}: holds no run lines$"):
        import_trec(qrels, run)


def test_text_that_is_not_utf8_is_named(tmp_path, qrels):
    run = tmp_path / "run.txt"
    run.write_bytes(b"q1 Q0 d1 1 2 s\nq1 Q0 d\xff 2 1 s\n")
    with pytest.raises(DatasetFileError, match=_exactly(run, 2,
                                                        "not UTF-8 text (invalid start byte)")):
        import_trec(qrels, run)


def test_a_missing_file_is_a_dataset_file_error(tmp_path, qrels):
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{tmp_path / 'nope.run'}: cannot be read (No such file or directory)")):
        import_trec(qrels, tmp_path / "nope.run")


@pytest.mark.parametrize("text, line, message", [
    ("q1 d1 1\n", 1, "expected 4 whitespace-separated fields (qid iter docno rel); got 3"),
    ("q1 0 d1 1.0\n", 1, "rel must be an integer grade from -2**63 to 2**63 - 1; got '1.0'"),
    # one past a signed 64-bit integer, and far past what int() may read from text
    ("q1 0 d1 2\nq2 0 d2 9223372036854775808\n", 2, "rel must be an integer grade from "
     "-2**63 to 2**63 - 1; got '9223372036854775808'"),
    ("q1 0 d1 " + "7" * 5000 + "\n", 1, "rel must be an integer grade from -2**63 to "
     f"2**63 - 1; got {show('7' * 5000)}"),  # show's own doctest pins how it cuts
    ("q1 0 d1 1\nq2 0 d1 1\nq1 0 d1 2\n", 3,
     "question 'q1' judges document 'd1' twice (first on line 1)"),
    ("q1 0 d\x001 1\n", 1, f"docno must be {OPEN.expected}; got 'd\\x001'"),
])
def test_a_bad_qrels_line_is_named(tmp_path, text, line, message):
    qrels = _write(tmp_path, "qrels.txt", text)
    with pytest.raises(DatasetFileError, match=_exactly(qrels, line, message)):
        import_trec(qrels, [])


def test_qrels_without_judgements_are_refused(tmp_path):
    qrels = _write(tmp_path, "qrels.txt", "# nothing yet\n\n")
    with pytest.raises(DatasetFileError, match=f"^{re.escape(str(qrels))}: holds no judgements$"):
        import_trec(qrels, [])


@pytest.mark.parametrize("options, message", [
    ({"missing_run": "drop"}, "missing_run must be 'zero' or 'skip'; got 'drop'"),
    ({"min_relevance": 0}, "min_relevance must be an int of at least 1; got 0"),
    ({"name": 3}, "name must be a str; got 3"),
])
def test_bad_options_are_refused(qrels, options, message):
    with pytest.raises(InvalidInputError, match=f"^{re.escape(message)}$"):
        import_trec(qrels, [], **options)
