"""Outputs that misled or crashed on ordinary data (issue 35): each case reproduced through
the command line, with the value a reader should see worked out by hand."""
import json
import shutil
from pathlib import Path

import pytest

import ragscore
from ragscore.cli import capture
from ragscore.core.claim_markers import find_markers, resolve
from ragscore.io.format import Dataset

ROOT = Path(__file__).resolve().parent.parent


def _save(folder, **parts):
    dataset = Dataset(name="probe", ids="open", **parts)
    ragscore.save_dataset(dataset, folder)
    return folder


def _rows(text):
    return [line.split() for line in text.splitlines()]


@pytest.mark.parametrize("engine", ["columnar", "reference"])
def test_report_scores_claims_when_no_case_has_a_support_label(tmp_path, engine):
    """The columnar engine crashed (IndexError, exit 3); both engines give: q1's one claim
    cites 'a' with no support label, so support 0/1 = 0; q2 records no answer: n/a."""
    folder = _save(tmp_path / "d", corpus={"a": "A.", "b": "B."},
                   cases={"q1": {"question": "One?", "relevant": ("a",)},
                          "q2": {"question": "Two?", "relevant": ("b",)}},
                   runs={"q1": {"s": {"retrieved": ("a",), "claims": (("x", ("a",)),)}},
                         "q2": {"s": {"retrieved": ("a",)}}})
    code, out, err = capture(["report", str(folder), "--engine", engine])
    assert code == 0, err
    rows = _rows(out)
    assert ["q1", "s", "0.5000", "1.0000", "1.0000", "0.0000", "n/a", "n/a"] in rows
    assert ["q2", "s", "0.0000", "0.0000", "0.0000", "n/a", "n/a", "n/a"] in rows


def _awaiting(tmp_path):
    """Two answers, both awaiting review (claims derived from text, none judged)."""
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(record) + "\n" for record in [
        {"id": "q1", "question": "Who owns billing?", "system": "s",
         "retrieved": ["a", "b"], "answer": "Aurora owns it [a].", "relevant": ["a"]},
        {"id": "q2", "question": "How long?", "system": "s", "retrieved": ["b", "a"],
         "answer": "400 days [b].", "relevant": ["b"]}]))
    assert capture(["import", "log", str(log), "--out", str(tmp_path / "d")])[0] == 0
    return tmp_path / "d"


def test_answers_awaiting_review_keep_their_columns_as_n_a(tmp_path):
    code, out, err = capture(["report", str(_awaiting(tmp_path))])
    assert code == 0, err
    rows = _rows(out)
    assert ["case", "system", "P@2", "R@2", "RR@2", "support", "coverage", "abstention"] \
        in rows
    # q1: a at rank 1 of 2 retrieved, relevant {a}: P 1/2, R 1/1, RR 1/1; support and
    # coverage n/a (awaiting review), abstention n/a (answerable)
    assert ["q1", "s", "0.5000", "1.0000", "1.0000", "n/a", "n/a", "n/a"] in rows


def test_an_answer_nobody_assessed_is_not_diagnosed_ok(tmp_path):
    code, out, err = capture(["report", str(_awaiting(tmp_path))])
    assert code == 0, err
    assert "- s: 2 not enough labelled or recorded to say" in out
    assert "no stage failed" not in out


def test_a_ragscore_metric_named_without_a_cutoff_says_the_one_it_was_read_at():
    """support at --k 2 is labelled support@2: never 'support' beside R@10; without --k it
    is not read at a default nobody chose (issue 41: it was read at k = 2 unasked)."""
    code, out, err = capture(["report", "fixtures/practice", "--measures", "R@10 support",
                              "--system", "rerank", "--format", "json"])
    assert code == 2 and "'support' is read at a cutoff: name it (support@10) or give --k" \
        in err, err
    code, out, err = capture(["report", "fixtures/practice", "--measures", "R@10 support",
                              "--system", "rerank", "--format", "json", "--k", "2"])
    assert code == 0, err
    labels = {row["measure"] for row in json.loads(out)["summary"]}
    assert labels == {"R@10", "support@2"}
    code, at_ten, _ = capture(["report", "fixtures/practice", "--measures", "support@10",
                               "--system", "rerank", "--format", "json"])
    assert code == 0 and {row["measure"] for row in json.loads(at_ten)["summary"]} == \
        {"support@10"}


def test_a_citation_range_takes_ascii_digits_only_as_single_numbers_do():
    """'[1-3]' cites ranks 1 to 3; '[١-٣]' (Arabic-Indic digits) is not a range of ranks."""
    context = ("a", "b", "c")
    assert resolve(find_markers("Done [1-3]."), context=context, source="retrieved") == \
        (("a", "b", "c"), ())
    for text in ("Done [\u0661].", "Done [\u0661-\u0663]."):  # read as names, not ranks
        citations, _ = resolve(find_markers(text), context=context, source="retrieved")
        assert not set(citations) & set(context), text


@pytest.mark.parametrize("name", ["![pixel](https://x.example/p.png)",
                                  "[Approved](https://x.example)",
                                  "<img src=https://x.example/i>"])
def test_markdown_shows_a_name_as_typed_never_as_an_image_a_link_or_html(tmp_path, name):
    folder = _save(tmp_path / "d", corpus={"a": "A."},
                   cases={"q1": {"question": "One?", "relevant": ("a",)}},
                   runs={"q1": {name: {"retrieved": ("a",)}}})
    code, out, err = capture(["report", str(folder), "--format", "markdown"])
    assert code == 0, err
    for line in out.splitlines():
        assert "](" not in line.replace("\\](", "") and "<img" not in line, line


def test_the_share_page_renders_when_every_question_is_answerable_or_no_context(tmp_path):
    """``float()`` of pandas.NA crashed the page (exit 3): the practice collection with its
    unanswerable questions dropped, and its systems' delivered contexts dropped."""
    practice = ragscore.load_dataset("fixtures/practice")
    answerable = {case: labels for case, labels in practice.cases.items()
                  if labels.get("relevant")}
    def without_context(run):
        if isinstance(run, list):  # repeated trials
            return [without_context(trial) for trial in run]
        return {key: value for key, value in run.items() if key != "delivered"}

    runs = {case: {system: without_context(run) for system, run in per_case.items()}
            for case, per_case in practice.runs.items() if case in answerable}
    ragscore.save_dataset(practice._replace(cases=answerable, runs=runs), tmp_path / "d")
    code, out, err = capture(["html", str(tmp_path / "d"), "--baseline", "baseline",
                              "--candidate", "rerank"])
    assert code == 0, err
    assert out.startswith("<!DOCTYPE html>")


def test_the_share_page_draws_a_system_name_holding_mathtext(tmp_path):
    course = ragscore.load_course()
    names = {"A": "$\\foo$", "B": "cost $5 $x$"}
    runs = {case: {names[system]: run for system, run in per_case.items()}
            for case, per_case in course.runs.items()}
    ragscore.save_dataset(course._replace(ids="open", runs=runs), tmp_path / "d")
    code, out, err = capture(["html", str(tmp_path / "d"), "--baseline", names["A"],
                              "--candidate", names["B"]])
    assert code == 0, err
    assert "\\$\\foo\\$" not in out or "$\\foo$" in out  # drawn as typed, not as math


def test_a_baseline_is_never_saved_from_a_recording_with_failed_calls(tmp_path):
    """The wrong PASS: a baseline saved from 8 failed calls let a candidate wrong on those
    questions pass; now the save refuses, and a gate refuses such a file already made."""
    folder = tmp_path / "rec"
    shutil.copytree(ROOT / "fixtures" / "course", folder)
    recorded = ragscore.record(folder, lambda question: (_ for _ in ()).throw(
        RuntimeError("down")) if "alert" in question else {"retrieved": ["launch"]},
        system="live", retries=0)
    assert recorded.manifests["live"]["recorder"]["failed"] == 1
    code, _, err = capture(["baseline", "save", str(folder), "--system", "live", "--out",
                            str(tmp_path / "base.json")])
    assert code == 2 and "1 run recorded as failed" in err, err
    assert not (tmp_path / "base.json").exists()
    # a file an older version saved from the same recording: the gate refuses it
    code, _, err = capture(["baseline", "save", str(folder), "--system", "A", "--out",
                            str(tmp_path / "base.json")])
    assert code == 0, err
    stored = json.loads((tmp_path / "base.json").read_text())
    stored["manifest"] = recorded.manifests["live"]
    (tmp_path / "base.json").write_text(json.dumps(stored))
    code, _, err = capture(["gate", str(folder), "--policy", "fixtures/policies/course.toml",
                            "--candidate", "B", "--baseline-file", str(tmp_path / "base.json")])
    assert code == 2 and "manifest.recorder.failed" in err, err
