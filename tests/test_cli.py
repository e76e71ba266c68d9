"""The command line: the demo prints the workbook's table byte for byte."""
import subprocess
import sys
from pathlib import Path

import pytest

import ragscore

from ragscore.cli import main
from tests.folder_edits import rehash

# Chapter 4's expected output, copied from the workbook (the reference, not from our code).
WORKBOOK_OUTPUT = """\
case system | P@2 R@2 RR@2 support coverage abstention
launch A | 0.50 1.00 1.00 1.00 1.00 n/a
launch B | 0.50 1.00 1.00 0.50 1.00 n/a
rollback A | 0.50 0.50 1.00 1.00 0.50 n/a
rollback B | 1.00 1.00 1.00 1.00 1.00 n/a
owner A | 0.50 1.00 0.50 0.00 0.00 n/a
owner B | 0.50 1.00 1.00 1.00 1.00 n/a
region A | n/a n/a n/a 0.00 n/a no
region B | n/a n/a n/a n/a n/a yes
"""


def test_python_m_ragscore_demo_prints_the_workbook_table_exactly():
    result = subprocess.run([sys.executable, "-m", "ragscore", "demo"], capture_output=True,
                            check=True)
    assert result.stdout == WORKBOOK_OUTPUT.encode()
    assert result.stderr == b""


def test_demo_at_k1(capsys):
    assert main(["demo", "--k", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "case system | P@1 R@1 RR@1 support coverage abstention"
    assert lines[4] == "rollback B | 1.00 0.50 1.00 0.50 0.50 n/a"
    assert lines[5] == "owner A | 0.00 0.00 0.00 0.00 0.00 n/a"


@pytest.mark.parametrize("k", ["0", "101", "two", "1.5"])
def test_demo_refuses_a_bad_k_without_a_traceback(k, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["demo", "--k", k])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert f"k must be a whole number from 1 to 100; got '{k}'" in err
    assert "Traceback" not in err


def test_missing_dataset_is_a_clear_error(tmp_path, capsys):
    assert main(["demo", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ragscore: error: ")
    assert "nowhere: no dataset folder there" in err


COURSE = "fixtures/course"


def _run(*args):
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    return subprocess.run([sys.executable, "-m", "ragscore", *args], capture_output=True,
                          text=True, cwd=root)


def test_report_csv_and_json_parse_back():
    import csv
    import io
    import json
    csv_rows = list(csv.reader(io.StringIO(_run("report", COURSE, "--format", "csv").stdout)))
    assert csv_rows[0][:3] == ["case", "system", "precision"]
    assert csv_rows[8] == ["region", "B", "", "", "", "", "", "true"]
    data = json.loads(_run("report", COURSE, "--format", "json", "--k", "1").stdout)
    assert data["k"] == 1 and data["rows"][3]["support"] == 0.5  # rollback B at k=1


def test_report_text_adds_declared_aggregates():
    out = _run("report", COURSE).stdout
    # B's pooled support: 4 of 5 claims = 0.8; A's recall@2: (1 + 1/2 + 1) / 3 = 5/6
    assert "- B answerable support (pooled) = 0.8000: 4 supported of 5 claims" in out
    assert "- A answerable recall (macro) = 0.8333: mean R@2 over the 3 answerable" in out
    two = _run("report", COURSE, "--digits", "2").stdout  # the seed's precision
    assert "- A answerable recall (macro) = 0.83: mean R@2 over the 3 answerable" in two


def test_report_text_has_four_decimals_and_columns_as_wide_as_their_values():
    lines = _run("report", COURSE).stdout.splitlines()
    # launch A: P@2 1 of 2 = 0.5, R@2 1 of 1, RR@2 1/1, support 1/1, coverage 1/1, n/a
    assert lines[:2] == [
        "case      system     P@2     R@2    RR@2  support  coverage  abstention",
        "launch    A       0.5000  1.0000  1.0000   1.0000    1.0000         n/a"]
    assert lines[8] == ("region    B          n/a     n/a     n/a      n/a       n/a"
                        "         yes")
    two = _run("report", COURSE, "--digits", "2").stdout.splitlines()
    assert two[1].split() == ["launch", "A", "0.50", "1.00", "1.00", "1.00", "1.00", "n/a"]


def test_a_long_question_name_widens_its_column_without_shifting_the_others(tmp_path):
    import ragscore

    long_name = "a-question-name-of-thirty-chars"
    dataset = ragscore.load_course()
    dataset = dataset._replace(
        cases={long_name if name == "owner" else name: case
               for name, case in dataset.cases.items()},
        runs={long_name if name == "owner" else name: runs
              for name, runs in dataset.runs.items()})
    ragscore.save_dataset(dataset, tmp_path / "long")
    lines = _run("report", str(tmp_path / "long")).stdout.splitlines()[:9]
    # the case column is as wide as the long name; every other column ends where its
    # header ends (numbers, n/a, yes and no right-aligned), so every line is as long
    assert lines[0].startswith("case" + " " * (len(long_name) - 4 + 2) + "system  ")
    # owner A: P@2 1 of 2, R@2 1 of 1, RR@2 1/2, support 0 of 1, coverage 0 of 1, n/a
    assert (f"{long_name}  A       0.5000  1.0000  0.5000   0.0000    0.0000         n/a"
            in lines)
    assert {len(line) for line in lines} == {len(lines[0])}


def test_compare_lists_the_regression_first():
    lines = _run("compare", COURSE, "--baseline", "A", "--candidate", "B").stdout.splitlines()
    assert lines[0].startswith("B (candidate) against A (baseline) at k=2, 4 questions: "
                               "1 regressed, 1 no longer defined, 7 improved, 15 unchanged")
    # launch support: A 1 of 1 claims = 1, B 1 of 2 = 0.5: delta -0.5
    assert lines[2].split() == ["launch", "support", "1.0000", "0.5000", "-0.5000",
                                "regressed"]
    assert ["region", "abstention_correct", "no", "yes", "+1.0000", "improved"] in \
        [line.split() for line in lines]
    two = _run("compare", COURSE, "--baseline", "A", "--candidate", "B", "--digits", "2")
    assert two.stdout.splitlines()[2].split() == ["launch", "support", "1.00", "0.50",
                                                  "-0.50", "regressed"]
    # 1 + 1 + 7 changed rows after the two head lines, then one line for the 15 unchanged
    assert len(lines) == 2 + 9 + 1 and lines[-1].startswith("15 unchanged")


def test_sweep_prints_every_k():
    lines = _run("sweep", COURSE, "--max-k", "2", "--digits", "2").stdout.splitlines()
    assert [line.split() for line in lines[2:]] == [
        "A 1 0.67 0.50 0.67 0.67 0.50 0.00".split(),
        "A 2 0.50 0.83 0.83 0.67 0.50 0.00".split(),
        "B 1 1.00 0.83 1.00 0.67 0.83 1.00".split(),
        "B 2 0.67 1.00 1.00 0.83 1.00 1.00".split()]
    # four decimals by default, columns as wide as their longest value: A's P@1 is 2 of 3
    # answerable questions with the relevant document first, 2/3
    lines = _run("sweep", COURSE, "--max-k", "2").stdout.splitlines()
    assert lines[1:3] == [
        "system  k     P@k     R@k    RR@k  support  coverage  abstention",
        "A       1  0.6667  0.5000  0.6667   0.6667    0.5000      0.0000"]


@pytest.mark.parametrize("args, message", [
    (("compare", COURSE, "--baseline", "A", "--candidate", "C"),
     "ragscore: error: system must be one of 'A', 'B'; got 'C'"),
    (("report", "no/such/folder"), "no such/folder: no dataset folder there"),
    (("sweep", COURSE, "--max-k", "0"), "k must be a whole number from 1 to 100; got '0'"),
    (("report", COURSE, "--k", "x"), "k must be a whole number from 1 to 100; got 'x'"),
])
def test_clear_errors_not_tracebacks(args, message):
    result = _run(*args)
    assert result.returncode == 2
    assert message.replace("no such", "no/such") in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["demo", "report", "compare", "sweep"])
def test_help_explains_each_command(command):
    result = _run(command, "--help")
    assert result.returncode == 0
    assert "usage: ragscore " + command in result.stdout
    assert "--k" in result.stdout or "--max-k" in result.stdout


IMPORTS = Path(__file__).resolve().parent.parent / "fixtures" / "import"


def test_import_trec_then_report_states_what_was_dropped(tmp_path):
    out = tmp_path / "imported"
    result = _run("import", "trec", "--qrels", str(IMPORTS / "trec" / "qrels.txt"),
                  "--run", str(IMPORTS / "trec" / "bm25.run"),
                  "--run", str(IMPORTS / "trec" / "dense.run"), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"wrote {out}: ")
    assert "run questions without qrels: bm25 1, dense 0" in result.stdout
    report = _run("report", str(out), "--k", "3").stdout.splitlines()
    assert "Note: judged questions missing from a run: bm25 0, dense 1" in report
    assert any(line.startswith("Note: a judged question missing from a run was given an "
                               "empty ranking") for line in report)
    header = next(line for line in report if line.startswith("case "))
    assert header.split() == ["case", "system", "P@3", "R@3", "RR@3"]  # no answer columns


def test_import_refuses_a_bad_line_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.run"
    bad.write_text("q1 Q0 harbour 1 7.5 bm25\nq1 Q0 lighthouse 2\n")
    result = _run("import", "trec", "--qrels", str(IMPORTS / "trec" / "qrels.txt"),
                  "--run", str(bad), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "bad.run, line 2: expected at least 6 whitespace-separated fields" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_export_trec_then_import_scores_the_same(tmp_path):
    out = tmp_path / "first"
    _run("import", "ragas", "--file", str(IMPORTS / "ragas" / "bm25.csv"), "--system", "bm25",
         "--file", str(IMPORTS / "ragas" / "dense.jsonl"), "--system", "dense",
         "--out", str(out))
    exported = _run("export", "trec", str(out), "--out-prefix", str(tmp_path / "x" / "ex"))
    assert exported.returncode == 0, exported.stderr
    again = tmp_path / "again"
    _run("import", "trec", "--qrels", str(tmp_path / "x" / "ex.qrels"),
         "--run", str(tmp_path / "x" / "ex.bm25.run"),
         "--run", str(tmp_path / "x" / "ex.dense.run"), "--out", str(again))
    first = _run("report", str(out), "--format", "csv", "--metrics", "precision,recall,ndcg")
    second = _run("report", str(again), "--format", "csv", "--metrics",
                  "precision,recall,ndcg")
    assert first.stdout == second.stdout and first.stdout.count("\n") == 7


def test_dedupe_and_document_unit_report_what_they_removed(tmp_path):
    import ragscore

    corpus = {"a#1": "A one.", "a#2": "A two.", "b#1": "B one."}
    dataset = ragscore.Dataset(
        corpus=corpus, cases={"q": {"question": "?", "relevant": ("a",)}},
        runs={"q": {"s": {"retrieved": ("b#1", "a#1", "b#1", "a#2")}}}, ids="open",
        sources={"a#1": "a", "a#2": "a", "b#1": "b"})
    # the stored run repeats b#1: only --dedupe lets it in
    folder = tmp_path / "set"
    (folder).mkdir()
    clean = dataset._replace(runs={"q": {"s": {"retrieved": ("b#1", "a#1", "a#2")}}})
    from ragscore.io.write import save_dataset as save_jsonl

    save_jsonl(clean, folder, overwrite=True, version=2)  # JSON Lines, edited below
    result = _run("report", str(folder), "--unit", "document", "--k", "1")
    assert result.returncode == 0, result.stderr
    assert "- q s: 0 dropped, 1 collapsed" in result.stdout
    # b first: the relevant a is at rank 2
    assert ["q", "s", "0.0000", "0.0000", "0.0000"] in [line.split() for line in
                                                        result.stdout.splitlines()]
    assert "system s: 1 chunks collapsed into their documents" in result.stderr
    refused = _run("report", str(folder), "--k", "1")  # labels on documents, unit chunk
    assert refused.returncode == 2 and "must be an ID in the corpus; got 'a'" in refused.stderr
    assert "score with unit 'document', --unit document" in refused.stderr
    # a recorded ranking that repeats an ID: refused, unless --dedupe
    import json
    runs = folder / json.loads((folder / "dataset.json").read_text())["files"]["runs"]
    runs.write_text(runs.read_text().replace('["b#1", "a#1", "a#2"]',
                                             '["b#1", "a#1", "b#1", "a#2"]'))
    rehash(folder)  # named by its new content: the run rules, not the content check, meet it
    assert _run("report", str(folder), "--unit", "document").returncode == 2
    deduped = _run("report", str(folder), "--unit", "document", "--dedupe")
    assert "- q s: 1 dropped, 1 collapsed" in deduped.stdout


# ---- compare --stats ---------------------------------------------------------------------

def _twelve_questions(folder):
    """12 questions with two relevant documents each. B retrieves both in its top 2 on q1..q10
    and only the first on q11, q12; A the other way round: recall@2 delta +0.5 on ten
    questions, -0.5 on two; both rank the first relevant document first (RR delta 0); neither
    makes a claim (support n/a)."""
    import json
    folder.mkdir()
    (folder / "dataset.json").write_text(json.dumps({
        "format": "ragscore-dataset", "version": 1, "name": "twelve", "description": "t"}))
    corpus, cases, runs = [], [], []
    for number in range(1, 13):
        first, second, other = f"d{number}a", f"d{number}b", f"d{number}c"
        corpus += [{"id": doc, "text": f"text of {doc}"} for doc in (first, second, other)]
        cases.append({"id": f"q{number}", "question": f"question {number}?",
                      "relevant": [first, second], "support": {"fact": [first]}})
        better, worse = [first, second], [first, other]
        a, b = (worse, better) if number <= 10 else (better, worse)
        runs += [{"case": f"q{number}", "system": "A", "retrieved": a, "claims": []},
                 {"case": f"q{number}", "system": "B", "retrieved": b, "claims": []}]
    for name, records in (("corpus", corpus), ("cases", cases), ("runs", runs)):
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(folder)


def test_compare_stats_json_gives_the_exact_sign_flip_p(tmp_path, capsys):
    import json
    folder = _twelve_questions(tmp_path / "twelve")
    assert main(["compare", folder, "--baseline", "A", "--candidate", "B", "--stats",
                 "--format", "json", "--metrics", "recall,rr,support"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [set(record) for record in records] == [
        {"metric", "method", "n", "mean_delta", "ci_low", "ci_high", "p_value", "p_holm",
         "tested", "min_detectable", "note"}] * 3
    recall, rr, support = records
    assert (recall["metric"], recall["n"]) == ("recall", 12)
    assert recall["mean_delta"] == pytest.approx((10 - 2) * 0.5 / 12)
    # |sum of signs| >= 8 needs at most two minus signs or at most two plus: 2 * (1 + 12 + 66)
    assert recall["p_value"] == 158 / 4096
    assert recall["ci_low"] < recall["mean_delta"] < recall["ci_high"]
    assert recall["method"].endswith("exact (2^12 flips)")
    assert (rr["mean_delta"], rr["p_value"], rr["ci_low"], rr["ci_high"]) == (0, 1, 0, 0)
    # Holm over the two p-values (support has none): the smaller times 2, the larger times 1
    assert (recall["p_holm"], rr["p_holm"], recall["tested"]) == (2 * 158 / 4096, 1, 2)
    assert support == {"metric": "support", "method": "mean of paired deltas only", "n": 0,
                       "mean_delta": None, "ci_low": None, "ci_high": None, "p_value": None,
                       "p_holm": None, "tested": 2, "min_detectable": None,
                       "note": "no question where both systems are defined; at least 10 "
                               "are needed"}


def test_compare_stats_is_reproducible_and_follows_seed_and_confidence(tmp_path, capsys):
    import json
    folder = _twelve_questions(tmp_path / "twelve")

    def recall(*options):
        assert main(["compare", folder, "--baseline", "A", "--candidate", "B", "--stats",
                     "--format", "json", "--metrics", "recall", *options]) == 0
        return json.loads(capsys.readouterr().out)[0]

    first = recall()
    assert recall("--seed", "0") == first
    assert recall("--seed", "5")["p_value"] == first["p_value"]  # exact: no randomness
    narrow = recall("--confidence", "0.5")
    assert first["ci_low"] <= narrow["ci_low"] <= narrow["ci_high"] <= first["ci_high"]
    assert narrow["min_detectable"] < first["min_detectable"]


def test_compare_stats_text_follows_the_summary_and_precedes_the_questions():
    out = _run("compare", COURSE, "--baseline", "A", "--candidate", "B", "--stats").stdout
    summary, stats, questions = out.split("\n\n")
    assert summary.startswith("B (candidate) against A (baseline) at k=2, 4 questions")
    assert questions.splitlines()[1].split() == ["launch", "support", "1.0000", "0.5000",
                                                 "-0.5000", "regressed"]
    assert questions.splitlines()[-1] == "15 unchanged (question, metric) pairs not listed"
    lines = stats.splitlines()
    assert lines[0].startswith("Paired statistics of B - A, per metric over the questions "
                               "where both are defined")
    assert "bootstrap percentile 95% CI of the mean delta, 10000 resamples" in lines[1]
    assert "(z_0.975 + z_0.8) * sd(delta) / sqrt(n)" in lines[3]
    assert lines[4].split()[:4] == ["metric", "n", "mean", "95%"]
    # support deltas: launch 0.5 - 1 = -0.5, rollback 0, owner 1 - 0 = +1: mean 0.5/3 = 1/6
    assert lines[8].split() == ["support", "3", "+0.1667", "n/a", "n/a", "n/a", "none", "only",
                                "3", "paired", "questions;", "at", "least", "10", "are",
                                "needed"]


def test_compare_json_without_stats_lists_the_pairs():
    import json
    records = json.loads(_run("compare", COURSE, "--baseline", "A", "--candidate", "B",
                              "--format", "json").stdout)
    assert records[0] == {"case": "launch", "metric": "support", "baseline": 1.0,
                          "candidate": 0.5, "delta": -0.5, "verdict": "regressed"}
    assert {"case": "region", "metric": "support", "baseline": 0.0, "candidate": None,
            "delta": None, "verdict": "no longer defined"} in records
    assert len(records) == 24


@pytest.mark.parametrize("option, value, message", [
    ("--confidence", "1", "--confidence must be a number strictly between 0 and 1, such as "
                          "0.95; got '1'"),
    ("--confidence", "x", "--confidence must be a number strictly between 0 and 1"),
    ("--seed", "-3", "--seed must be a whole number 0 or above; got '-3'"),
])
def test_compare_stats_refuses_bad_options(option, value, message):
    result = _run("compare", COURSE, "--baseline", "A", "--candidate", "B", "--stats",
                  option, value)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


# ---- audit ---------------------------------------------------------------------------------

def test_audit_text_names_questions_and_documents_and_exits_0():
    result = _run("audit", COURSE)
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == ("Label audit of course at k=2: 6 findings (information, not failures: "
                        "read them before any score)")
    assert "  A: 3 of 6 retrieved documents unjudged, in 3 questions" in lines
    assert "  B: 2 of 6 retrieved documents unjudged, in 2 questions" in lines
    assert "  owner B: archive (1 of 2 documents in the top 2 not judged)" in lines
    assert ("  region A: archive (labelled unanswerable; answered with 1 claim citing "
            "archive)") in lines
    assert ("Disputed labels (reviewers decided differently): not checked: no case has "
            "reviews (dataset format 3 adds them)") in lines


def test_audit_json_at_k1(capsys):
    import json
    assert main(["audit", COURSE, "--k", "1", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["dataset"], data["k"]) == ("course", 1)
    # at k=1 only owner A (archive first) and region A retrieve something no one judged
    assert data["unjudged"]["A"] == {"unjudged": 2, "retrieved": 4, "questions": 2}
    assert data["unjudged"]["B"] == {"unjudged": 0, "retrieved": 3, "questions": 0}
    assert data["findings"][-1] == {
        "kind": "answered unanswerable", "case": "region", "system": "A", "docs": ["archive"],
        "detail": "labelled unanswerable; answered with 1 claim citing archive"}
    assert set(data["notes"]) == {"support outside relevant", "disputed"}


def test_audit_refuses_a_bad_k_clearly():
    result = _run("audit", COURSE, "--k", "0")
    assert result.returncode == 2
    assert "ragscore: error: k must be a whole number from 1 to 100; got '0'" in result.stderr
    assert "Traceback" not in result.stderr
    assert "usage: ragscore audit" in _run("audit", "--help").stdout


@pytest.mark.parametrize("missing", ["zero", "skip"])
def test_import_trec_writes_what_import_trec_reads(tmp_path, missing):
    """``import trec`` saves ``import_trec``'s dataset, adding only the notes of what it
    did."""
    from ragscore.importers import import_trec

    empty = tmp_path / "empty.run"  # a system that ran no judged question
    empty.write_text("q-other Q0 harbour 1 1.0 none\n")
    runs = [IMPORTS / "trec" / "bm25.run", IMPORTS / "trec" / "dense.run", empty]
    argv = ["import", "trec", "--qrels", str(IMPORTS / "trec" / "qrels.txt"),
            *(item for run in runs for item in ("--run", str(run))), "--missing-run", missing]
    assert _run(*argv, "--out", str(tmp_path / "out")).returncode == 0
    saved = ragscore.load_dataset(tmp_path / "out")
    dataset, _ = import_trec(IMPORTS / "trec" / "qrels.txt", runs, missing_run=missing)
    # --name defaults to the --out folder's name
    assert saved._replace(notes=()) == dataset._replace(notes=(), name="out")
    assert saved.notes[0] == "imported with 'ragscore import trec'"


def test_compare_stats_text_prints_p_with_two_decimals_as_the_workbook_does(tmp_path, capsys):
    folder = _twelve_questions(tmp_path / "twelve")
    assert main(["compare", folder, "--baseline", "A", "--candidate", "B", "--stats",
                 "--metrics", "recall,rr", "--digits", "2"]) == 0
    stats = capsys.readouterr().out.split("\n\n")[1].splitlines()
    recall = next(line for line in stats if line.startswith("recall")).split()
    rr = next(line for line in stats if line.startswith("rr")).split()
    # columns: metric, n, mean, [low, high], p; p = 158/4096 = 0.0386 -> 0.04 (not 0.0386)
    assert recall[:2] == ["recall", "12"] and recall[5] == "0.04"
    assert rr[5] == "1.00"  # every delta is 0: every flip ties, p = 1
    assert main(["compare", folder, "--baseline", "A", "--candidate", "B", "--stats",
                 "--metrics", "recall,rr"]) == 0  # four decimals by default: 0.0386
    stats = capsys.readouterr().out.split("\n\n")[1].splitlines()
    assert next(line for line in stats if line.startswith("recall")).split()[5] == "0.0386"
