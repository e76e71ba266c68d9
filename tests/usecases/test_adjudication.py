"""Adjudication (issue 43 item 3): review export --disputed lists the items reviewers decided
differently with each decision; a decision imported with --role adjudicator (or by a
reviewer the folder names) settles the dispute and is the one scored; the audit lists
disputes open and settled and measures agreement before adjudication."""
import csv
import json
import shutil
from pathlib import Path

import pytest

from ragscore.cli import capture
from ragscore.core.adjudication import disputes
from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_dataset
from ragscore.folders import load_dataset

ROOT = Path(__file__).resolve().parents[2]
ANSWERS = ROOT / "fixtures" / "answers"
DECISIONS = ROOT / "fixtures" / "answers-decisions.csv"
# careful's launch answer: "The release window starts on Monday [^1]." citing launch
CLAIM = "The release window starts on Monday [1]."


@pytest.fixture
def folder(tmp_path):
    """Chapter 9's answers judged by ana (the frozen decisions) and by ben, who differs on
    one claim: the one draft and careful share on launch."""
    target = tmp_path / "answers"
    shutil.copytree(ANSWERS, target)
    assert capture(["review", "import", str(target), str(DECISIONS)])[0] == 0
    with open(DECISIONS, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    ben = []
    for row in rows:
        if row["claim"] == CLAIM:
            ben.append(dict(row, decision="unsupported", states="", reviewer="ben"))
    path = tmp_path / "ben.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(ben)
    assert capture(["review", "import", str(target), str(path)])[0] == 0
    return target


def _support(folder, case, system):
    counted = count_dataset(load_dataset(folder))
    return dict(zip(counted.keys, counted.values(REGISTRY["support"], 2)))[case, system]


def _disputed(folder):
    code, out, err = capture(["review", "export", str(folder), "--disputed"])
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_an_adjudicator_settles_the_dispute_and_is_scored(folder, tmp_path):
    # ana: supported, states monday; ben: unsupported. Open, it scores the conservative way:
    # unsupported, so careful's launch answer (one claim) has support 0 of 1
    assert _support(folder, "launch", "careful") == 0.0
    rows = _disputed(folder)
    assert [(row["kind"], row["case"], row["claim"]) for row in rows] == [
        ("support", "launch", CLAIM)]
    assert rows[0]["decisions"] == {"ana": "supported, states monday", "ben": "unsupported"}
    code, out, _ = capture(["audit", str(folder)])
    assert ("Disputes: 1 open, 0 settled by an adjudicator" in out
            and "  open: support, case launch, item " in out)
    before = out[out.index("Agreement between reviewers"):]
    assert "per kind of item" in before and "Krippendorff's alpha per kind" in before
    # cat adjudicates: supported, stating monday
    decided = tmp_path / "cat.jsonl"
    decided.write_text(json.dumps(dict(rows[0], decision="supported", states="monday",
                                       reviewer="cat", date="2026-12-05")) + "\n")
    code, out, err = capture(["review", "import", str(folder), str(decided), "--role",
                              "adjudicator"])
    assert (code, err) == (0, ""), err
    records = [record for record in load_dataset(folder).judgements
               if record["reviewer"] == "cat"]
    assert [record["role"] for record in records] == ["adjudicator"]
    # now scored as cat decided: careful's launch claim states monday and cites launch,
    # labelled for monday: 1 of 1; draft's launch answer: that claim and one judged
    # unsupported by ana alone: 1 of 2
    assert _support(folder, "launch", "careful") == 1.0
    assert _support(folder, "launch", "draft") == 0.5
    assert _disputed(folder) == []
    code, out, _ = capture(["audit", str(folder)])
    assert "Disputes: 0 open, 1 settled by an adjudicator" in out
    assert "ana supported, states monday; ben unsupported; settled by cat: supported, " \
           "states monday" in out
    # agreement is measured before adjudication: cat's decision changes none of it
    after = out[out.index("Agreement between reviewers"):]
    assert after.replace("(before adjudication: the adjudicators' decisions are left out)\n",
                         "") == before
    code, out, _ = capture(["audit", str(folder), "--format", "json"])
    assert json.loads(out)["disputes"][0]["settled_by"] == "cat"


def test_a_reviewer_the_folder_names_adjudicates_without_the_role(folder, tmp_path):
    index = json.loads((folder / "dataset.json").read_text())
    index["adjudicators"] = ["cat"]
    (folder / "dataset.json").write_text(json.dumps(index))
    row = _disputed(folder)[0]
    decided = tmp_path / "cat.jsonl"
    decided.write_text(json.dumps(dict(row, decision="supported", states="monday",
                                       reviewer="cat", date="2026-12-05")) + "\n")
    assert capture(["review", "import", str(folder), str(decided)])[0] == 0
    dataset = load_dataset(folder)
    assert dataset.adjudicators == ("cat",)
    assert [dispute.settled_by for dispute in disputes(dataset.judgements,
                                                       dataset.adjudicators)] == ["cat"]
    assert _support(folder, "launch", "careful") == 1.0


def test_without_an_adjudicator_a_third_reviewer_only_adds_an_opinion(folder, tmp_path):
    row = _disputed(folder)[0]
    decided = tmp_path / "dan.jsonl"
    decided.write_text(json.dumps(dict(row, decision="supported", states="monday",
                                       reviewer="dan", date="2026-12-05")) + "\n")
    assert capture(["review", "import", str(folder), str(decided)])[0] == 0
    assert _support(folder, "launch", "careful") == 0.0  # still the conservative way
    assert _disputed(folder)[0]["decisions"] == {
        "ana": "supported, states monday", "ben": "unsupported",
        "dan": "supported, states monday"}


def test_a_bad_role_or_adjudicators_key_is_refused(folder, tmp_path):
    code, out, err = capture(["review", "import", str(folder), "x.jsonl", "--role", "judge"])
    assert code == 2 and "invalid choice: 'judge'" in err
    index = json.loads((folder / "dataset.json").read_text())
    index["adjudicators"] = "cat"
    (folder / "dataset.json").write_text(json.dumps(index))
    code, out, err = capture(["report", str(folder)])
    assert code == 2 and "key 'adjudicators' must be an array of distinct reviewer names; " \
                         "got 'cat'" in err
    from ragscore.core.labels import check_record

    record = {"kind": "answerability", "case": "q", "key": "0123456789abcdef",
              "decision": "answerable", "reviewer": "cat", "date": "2026-12-04",
              "origin": "human", "batch": "fedcba9876543210", "role": "judge"}
    with pytest.raises(ValueError, match="line 1: field 'role' must be 'adjudicator' \\(or "
                                         "left out\\); got 'judge'"):
        check_record(record, "line 1")


def test_disputed_does_not_combine_with_an_order(folder):
    code, out, err = capture(["review", "export", str(folder), "--disputed", "--order",
                              "decision", "--candidate", "careful", "--metric", "support",
                              "--baseline", "draft"])
    assert (code, out) == (2, "") and "--disputed lists the items people decided " \
                                      "differently" in err
