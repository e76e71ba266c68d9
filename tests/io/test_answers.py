"""Runs that record only answer text: derived claims, reused judgements, not-assessed
answers, the review queue and its import, the ``claims`` command; values worked by hand."""
import json
from fractions import Fraction

import pytest

from ragscore.cli import main
from ragscore.core.answers import derive_run, normalise
from ragscore.core.metrics import REGISTRY
from ragscore.engine import ENGINES, count_folder
from ragscore.io.dataset import Dataset
from ragscore.folders import load_dataset, save_dataset

CORPUS = {"launch": "The release window starts on Monday.",
          "owners": "Ana and Ben own the release.", "archive": "Old notes."}
CASES = {"when": {"question": "When does the release start?", "relevant": ("launch",),
                  "support": {"monday": ("launch",)}},
         "who": {"question": "Who owns the release?", "relevant": ("owners",),
                 "support": {"ana": ("owners",), "ben": ("owners",)}}}
ANSWERS = {"when": "It starts on Monday [1]. Bring snacks.",
           "who": "Ana owns it [1]. Ben too [owners]. Carl as well [2]."}
DECISIONS = {"it starts on monday": ("supported", "monday"), "bring snacks": ("not a claim", ""),
             "ana owns it": ("supported", "ana"), "ben too": ("supported", "ben"),
             "carl as well": ("unsupported", "")}


def folder(tmp_path, answers=ANSWERS):
    dataset = Dataset(ids="open", corpus=CORPUS, cases=CASES, runs={
        "when": {"A": {"retrieved": ("launch", "archive"), "answer": answers["when"]}},
        "who": {"A": {"retrieved": ("owners",), "delivered": ("owners",),
                      "answer": answers["who"]}}})
    return str(save_dataset(dataset, tmp_path / "answers", overwrite=True))


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def review_all(capsys, tmp_path, path):
    code, out, _ = run(capsys, "review", "export", path, "--system", "A")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    for row in rows:
        if row["kind"] == "support":  # the pooled passage ('archive') is left to review
            row["decision"], row["states"] = DECISIONS[normalise(row["claim"])]
    filled = tmp_path / "decisions.jsonl"
    filled.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert run(capsys, "review", "import", path, str(filled), "--reviewer", "ana",
               "--date", "2026-12-04")[0] == 0
    return rows


def test_normalise_folds_markers_case_space_and_punctuation():
    assert normalise("  It starts on MONDAY [1],\n at 9.30. ") == "it starts on monday, at 9.30"
    assert normalise("- Ben too [^2]!") == normalise("ben too")


def test_derive_run_by_hand():
    from ragscore.core.labels import claim_key

    judged = {claim_key("ships monday", ["k-launch"]): ("supported", "monday"),
              claim_key("bring snacks", []): ("not a claim", None),
              claim_key("ships tuesday", ["k-archive"]): ("unsupported", None)}
    derived = derive_run({"monday": ("launch",)},
                         {"answer": "Ships Monday [2]. Bring snacks. Ships Tuesday [1].",
                          "retrieved": ("archive", "launch")}, judged,
                         key_of=lambda doc: "k-" + doc)
    # [2] is launch in the retrieved ranking; snacks left out; Tuesday an unsupportable claim
    assert derived.source == "retrieved" and derived.waiting == 0
    assert derived.pairs == (("monday", ("launch",)), ("claim-3", ("archive",)))


def test_unreviewed_answers_are_not_assessed_with_the_reason(capsys, tmp_path):
    path = folder(tmp_path)
    for engine in ENGINES:
        counted = count_folder(path, engine=engine)
        assert counted.values(REGISTRY["support"], 2) == [None, None]
        assert counted.values(REGISTRY["coverage"], 2) == [None, None]
    code, out, _ = run(capsys, "report", path)
    # 2 claims in "when", 3 in "who"
    assert code == 0 and ("system A: support and coverage n/a for 2 answers (not assessed: "
                          "5 claims await review)") in out


def test_reviewed_answers_score_as_recorded_claims(capsys, tmp_path):
    path = folder(tmp_path)
    review_all(capsys, tmp_path, path)
    # a save writes format version 5 (the judgements file is one of its files)
    assert json.loads((tmp_path / "answers" / "dataset.json").read_text())["version"] == 5
    # when: one claim (snacks is not a claim), monday cited launch at rank 1: support 1,
    # coverage 1/1. who: ana and ben supported by owners (delivered), carl not: support
    # 2/3, coverage 2/2.
    for engine in ENGINES:
        counted = count_folder(path, engine=engine)
        assert counted.values(REGISTRY["support"], 2) == [1.0, 2 / 3]
        assert counted.values(REGISTRY["coverage"], 2) == [1.0, 1.0]
    code, out, _ = run(capsys, "report", path)
    assert "await review" not in out


def test_a_changed_answer_queues_only_its_new_sentence(capsys, tmp_path):
    path = folder(tmp_path)
    review_all(capsys, tmp_path, path)
    changed = dict(ANSWERS, who="Ana owns it [1]. Ben too [owners]. Dana signs off [1].")
    dataset = load_dataset(path)
    dataset = dataset._replace(runs={**dataset.runs, "who": {"A": {
        **dataset.runs["who"]["A"], "answer": changed["who"]}}})
    save_dataset(dataset, path, overwrite=True)
    code, out, _ = run(capsys, "review", "export", path, "--system", "A")
    assert [normalise(json.loads(line)["claim"]) for line in out.splitlines()
            if json.loads(line)["kind"] == "support"] == ["dana signs off"]
    queue = tmp_path / "one.jsonl"
    _, out, _ = run(capsys, "review", "export", path, "--system", "A", "--out", str(queue),
                    "--pool-depth", "0")
    assert out == (f"wrote {queue}: 1 item awaits review (0 passages, 0 questions, "
                   "1 claim)\n")
    _, out, _ = run(capsys, "report", path)
    assert "n/a for 1 answer (not assessed: 1 claim awaits review)" in out


def _exported(capsys, path):
    _, out, _ = run(capsys, "review", "export", path, "--system", "A")
    return {normalise(row["claim"]) or row["doc"]: row
            for row in map(json.loads, out.splitlines())}


@pytest.mark.parametrize("change, message", [
    ({"decision": "maybe"}, "line 1: field 'decision' must be one of supported, unsupported, "
                            "not a claim for a support row"),
    ({"case": "nope"}, "line 1: field 'case': no support item of this test set has case "
                       "'nope'"),
    ({"key": "Ana owns it [1]."}, "line 1: field 'key': no support item of this test set "
                                  "has case 'who' and key 'Ana owns it [1].'"),
    ({"states": "carl"}, "line 1: field 'states' must name an expected claim of case 'who' "
                         "(ana, ben); got 'carl'"),
    ({"citations": ["archive"]}, "line 1: field 'citations' must be the claim's citations as "
                                 "exported (['owners'])"),
    ({"kind": "rating"}, "line 1: field 'kind' must be one of relevance, support, "
                         "answerability, span-relevance, evidence, nugget, citation"),
])
def test_import_refusals_name_line_and_field_and_change_nothing(capsys, tmp_path, change,
                                                                 message):
    path = folder(tmp_path)
    row = dict(_exported(capsys, path)["ana owns it"], decision="supported", states="ana")
    row.update(change)
    before = (tmp_path / "answers" / "dataset.json").read_text()
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(row) + "\n")
    code, _, err = run(capsys, "review", "import", path, str(bad), "--reviewer", "ana")
    assert code == 2 and message in err and "bad.jsonl, line 1" in err
    assert (tmp_path / "answers" / "dataset.json").read_text() == before


def test_a_line_that_is_not_json_is_refused(capsys, tmp_path):
    path = folder(tmp_path)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    code, _, err = run(capsys, "review", "import", path, str(bad), "--reviewer", "ana")
    assert code == 2 and "bad.jsonl, line 1: not JSON" in err


def test_csv_queue_round_trip(capsys, tmp_path):
    import csv

    path = folder(tmp_path)
    queue = tmp_path / "queue.csv"
    assert run(capsys, "review", "export", path, "--out", str(queue))[0] == 0
    rows = [row for row in csv.DictReader(queue.open()) if row["kind"] == "support"]
    assert [normalise(row["claim"]) for row in rows] == list(DECISIONS)
    for row in rows:
        row["decision"], row["states"] = DECISIONS[normalise(row["claim"])]
    with queue.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert run(capsys, "review", "import", path, str(queue), "--reviewer", "ben",
               "--date", "2026-12-04")[0] == 0
    assert count_folder(path).values(REGISTRY["support"], 2) == [1.0, 2 / 3]


def test_claims_command_json(capsys, tmp_path):
    path = folder(tmp_path)
    code, out, _ = run(capsys, "claims", path, "--format", "json")
    found = json.loads(out)
    assert code == 0 and len(found) == 5
    assert found[0] == {"case": "when", "system": "A", "trial": None,
                        "claim": "It starts on Monday [1].", "span": [0, 24],
                        "citations": ["launch"], "markers": ["[1]"], "findings": [],
                        "source": "retrieved", "decision": None}
    assert found[4]["findings"] == ["[2] points past the 1 delivered passages"]
    assert found[4]["source"] == "delivered"


def test_claims_command_refuses_an_unknown_system(capsys, tmp_path):
    code, _, err = run(capsys, "claims", folder(tmp_path), "--system", "Z")
    assert code == 2 and "system 'Z' is not in the dataset" in err


def test_a_judge_is_kept_apart_and_agreement_is_measured(capsys, tmp_path):
    from ragscore.core.reviews import agreement
    from ragscore.io.judging import apply_judge, example_overlap_judge

    path = folder(tmp_path)
    dataset, added = apply_judge(load_dataset(path), example_overlap_judge, name="overlap",
                                 date="2026-12-04")
    assert added == 5
    save_dataset(dataset, path, overwrite=True)
    # the judge's decisions are not people's: every answer still awaits review
    assert count_folder(path).values(REGISTRY["support"], 2) == [None, None]
    review_all(capsys, tmp_path, path)
    # judge vs ana over the 5 claims (overlap of 4+ letter words with a cited passage):
    # "it starts on monday" -> starts, monday in launch: supported (ana supported)
    # "bring snacks" -> no cited passage: unsupported (ana: not a claim, negative)
    # "ana owns it" -> no 4+ letter word: words empty, unsupported (ana supported)
    # "ben too" -> no 4+ letter word: unsupported (ana supported)
    # "carl as well" -> carl, well not in owners: unsupported (ana unsupported)
    # each decision as it is (issue 40: "not a claim" is not "unsupported"): agreed 2 of 5
    # (monday, carl); ana supported 3, not a claim 1, unsupported 1; judge supported 1,
    # unsupported 4: pe = (3*1 + 1*0 + 1*4)/25 = 7/25,
    # kappa = (2/5 - 7/25) / (1 - 7/25) = (3/25) / (18/25) = 1/6
    reviewed = load_dataset(path)
    (found,) = agreement(reviewed.cases, reviewed.judgements)
    assert (found.kind, found.first, found.second, found.items, found.agreed) == (
        "support", "ana", "judge:overlap", 5, 2)
    assert found.kappa == Fraction(1, 6)



def test_the_widget_review_queue_editor_walks_the_export_queue_and_scores_appear(tmp_path):
    from ragscore.engine import count_dataset
    from ragscore.io.review_queue import review_queue
    from ragscore.workbook.answer_review import answer_queue_editor

    path = folder(tmp_path)
    dataset = load_dataset(path)
    panel = answer_queue_editor(dataset, system="A", reviewer="ana", date="2026-12-04",
                                path=path, pool_depth=0)
    assert [normalise(row["claim"]) for row in review_queue(dataset, system="A",
                                                            pool_depth=0)] == list(DECISIONS)
    # "supported" (its passages back it) and "states NAME" (the expected claim it makes)
    assert sorted(panel.buttons) == ["not a claim", "supported, states monday",
                                     "supported, states none", "unsupported"]
    for key, (decision, states) in DECISIONS.items():
        assert normalise(panel.current()["claim"]) == key
        if decision == "supported":
            panel.buttons[f"supported, states {states}"].click()
        else:
            panel.buttons[decision].click()
    assert panel.current() is None and "The queue is empty" in panel.view.value
    panel.save.click()
    # as in test_reviewed_answers_score_as_recorded_claims: support 1 and 2/3, coverage 1, 1
    counted = count_dataset(load_dataset(path))
    assert counted.values(REGISTRY["support"], 2) == [1.0, 2 / 3]
    assert counted.values(REGISTRY["coverage"], 2) == [1.0, 1.0]


def test_the_live_queue_hides_its_stored_view_and_the_stored_view_shows(tmp_path):
    from ragscore.workbook.answer_review import answer_queue_editor

    panel = answer_queue_editor(load_dataset(folder(tmp_path)), system="A", reviewer="ana",
                                date="2026-12-04")
    # drawn live, the panel hides the stored view beside it (chapter 9 showed both, the stored
    # one stale after a click); the stored view itself carries no rule hiding it
    assert ".ragscore-snapshot{display:none}" in panel.view.value
    assert "display:none" not in panel.snapshot()
    assert panel.current()["claim"] in panel.snapshot()


def test_the_gate_says_why_support_is_missing(capsys, tmp_path):
    path = folder(tmp_path)
    policy = tmp_path / "gate.toml"
    policy.write_text('k = 2\n\n[[rule]]\nname = "mean support"\nmetric = "support"\n'
                      'check = "min_mean"\nthreshold = 0.5\n')
    code, out, _ = run(capsys, "gate", path, "--policy", str(policy), "--candidate", "A")
    # fails closed: no defined support, and the note says why
    assert code == 1 and out.splitlines()[1] == (
        "note: system A: support and coverage n/a for 2 answers (not assessed: 5 claims "
        "await review)")


def test_the_audit_reads_answer_judgements_and_the_judges_agreement(capsys, tmp_path):
    from ragscore.io.judging import apply_judge, example_overlap_judge

    path = folder(tmp_path)
    review_all(capsys, tmp_path, path)
    dataset, _ = apply_judge(load_dataset(path), example_overlap_judge, name="overlap",
                             date="2026-12-04")
    save_dataset(dataset, path, overwrite=True)
    code, out, err = run(capsys, "audit", path)
    # a judge disagreeing with a person is agreement to report, not a disputed label;
    # po = 2/5 = 0.40, pe = 7/25 = 0.28, kappa = 1/6 = 0.17 (worked in the judge test)
    assert code == 0 and err == ""
    assert "Disputed labels (reviewers decided differently): 0" in out
    lines = out.splitlines()
    assert lines[lines.index(next(line for line in lines if line.startswith("Agreement "))) + 2
                 ].split() == ["support", "ana", "judge:overlap", "5", "2", "3", "0.40", "0.28",
                               "0.17"]
    # alpha is the people's: ana alone judged, so nothing to compare
    assert lines[-1].split()[:6] == ["support", "nominal", "5", "1", "0", "n/a"]
