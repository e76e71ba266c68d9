"""The shareable report (``ragscore html``): content worked by hand on the course data, every
input string escaped, the same bytes on every run, the Markdown summary's cells safe."""
import json
import re

from ragscore.cli import capture
from ragscore.io.course import load_course
from ragscore.io.format import Dataset
from ragscore.render.share_github import cell, render_github
from ragscore.render.share_html import compact, render_html, script_json
from ragscore.tables.share import review_data

HOSTILE = '</script><img src=x onerror="alert(1)"> | a\nb & <!--'


def _course_data(**options):
    return review_data(load_course(), baseline="A", candidate="B", k=2,
                       metrics=("recall", "support", "abstention_correct"), **options)


def _embedded(page):
    match = re.search(r'<script type="application/json" id="ragscore-data">(.*?)</script>',
                      page, re.S)
    return json.loads(match.group(1))


def test_course_numbers_by_hand():
    data = _course_data()
    rows = {row["case"]: row for row in data["questions"]}
    assert list(rows) == ["launch", "rollback", "owner", "region"]
    # support at k=2 (seed workbook): launch A 1.00 -> B 0.50; owner A 0.00 -> B 1.00;
    # region B n/a (no claims), so its delta is n/a, not 0.
    assert rows["launch"]["delta"][1] == -0.5
    assert rows["owner"]["delta"][1] == 1.0
    assert rows["region"]["delta"][1] is None
    # recall: rollback A 1 of 2 -> B 2 of 2; pooled parts are hits / relevant
    assert rows["rollback"]["b"]["pooled"]["recall"] == [1, 2]
    assert rows["rollback"]["c"]["pooled"]["recall"] == [2, 2]
    # diagnoses (tests/core/test_diagnosis.py): launch B unsupported, region A should_abstain
    assert rows["launch"]["c"]["diagnosis"] == "unsupported"
    assert rows["region"]["b"]["diagnosis"] == "should_abstain"
    # mean recall over the 3 answerable questions: A (1 + 0.5 + 1) / 3, B 1.0
    recall = data["measures"][0]
    macro = {side: next(m["value"] for m in recall[side] if m["method"] == "macro")
             for side in ("baseline", "candidate")}
    assert abs(macro["baseline"] - 2.5 / 3) < 1e-12 and macro["candidate"] == 1.0
    # 3 pairs: below the 10 that paired statistics need, so no interval is claimed
    assert recall["paired"]["n"] == 3 and recall["paired"]["ci_low"] is None


def test_page_is_deterministic_and_self_contained():
    first, second = render_html(_course_data()), render_html(_course_data())
    assert first == second
    # nothing fetched: no address in a src, href, url() or import (namespaces are names)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//|url\((?!#)|@import""", first)
    assert "<svg" in first and "Date" not in first


def test_embedded_data_unpacks_to_the_same_questions():
    data = _course_data()
    packed = _embedded(render_html(data))
    assert packed == json.loads(json.dumps(compact(data)))
    ids = packed["ids"]
    launch = packed["questions"][0]
    assert launch[0] == "launch" and [ids[i] for i in launch[3]] == ["launch"]
    assert [ids[i] for i in launch[5][4]] == ["launch", "archive"]  # B's ranking


def _hostile_dataset():
    course = load_course()
    cases = {HOSTILE if name == "launch" else name: dict(case, question=HOSTILE)
             if name == "launch" else case for name, case in course.cases.items()}
    runs = {HOSTILE if name == "launch" else name: systems
            for name, systems in course.runs.items()}
    runs[HOSTILE] = {system: dict(run, answer=HOSTILE) for system, run in runs[HOSTILE].items()}
    return Dataset(course.corpus, cases, runs, name=HOSTILE, ids="open")


def test_every_input_string_is_escaped():
    data = review_data(_hostile_dataset(), baseline="A", candidate="B", k=2)
    page = render_html(data)
    assert "<img" not in page and "<!--" not in page
    assert page.count("</script>") == 2  # the data's and the page script's own
    packed = _embedded(page)
    assert packed["questions"][0][0] == HOSTILE and packed["questions"][0][1] == HOSTILE
    assert "\\u003c/script>" in script_json({"x": "</script>"})


def test_github_summary_cells_cannot_break_the_table():
    assert cell("a | b\nc") == "a \\| b c"
    summary = render_github(review_data(_hostile_dataset(), baseline="A", candidate="B", k=2))
    assert "<img" not in summary and "<!--" not in summary
    tables = [[line for line in block.splitlines() if line.startswith("|")]
              for block in summary.split("\n\n")]
    for rows in filter(None, tables):
        # every row has as many unescaped pipes as its table's header row
        pipes = [len(re.findall(r"(?<!\\)\|", row)) for row in rows]
        assert set(pipes) == {pipes[0]}, rows
    assert "1 question fails with B and did not with A" in summary


def test_cli_writes_the_file_and_refuses_bad_input(tmp_path):
    target = tmp_path / "report.html"
    code, out, err = capture(["html", "fixtures/course", "--baseline", "A", "--candidate", "B",
                              "--out", str(target)])
    assert code == 0 and out == "" and "wrote html report of 4 questions" in err
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    code, _, err = capture(["html", "fixtures/course", "--baseline", "A", "--candidate", "B",
                            "--out", str(tmp_path / "missing" / "r.html")])
    assert code == 2 and "its folder" in err and "does not exist" in err
    code, _, err = capture(["html", "fixtures/course", "--baseline", "A", "--candidate", "Z"])
    assert code == 2 and err.count("\n") == 1 and "--candidate 'Z' has no runs" in err
    code, out, _ = capture(["html", "fixtures/course", "--baseline", "A", "--candidate", "B",
                            "--policy", "fixtures/policies/course.toml", "--format", "github"])
    assert code == 0 and "**FAIL**: 3 of 5 rules passed" in out


def test_an_answer_awaiting_review_says_how_many_claims_wait_in_the_page_data():
    from pathlib import Path

    from ragscore.folders import load_dataset

    answers = load_dataset(Path(__file__).resolve().parents[2] / "fixtures" / "answers")
    data = review_data(answers, baseline="draft", candidate="careful", k=2)
    packed = compact(data)
    launch = next(row for row in packed["questions"] if row[0] == "launch")
    # launch: draft's answer has 2 sentences, careful's 1 (its footnote line is no claim),
    # none reviewed; the reason is the last field of each side's packed detail
    assert [launch[-2][-1], launch[-1][-1]] == ["not assessed: 2 claims await review",
                                                "not assessed: 1 claim awaits review"]
