"""The nugget flow from the command line (docs/nuggets.md): import nuggets and TREC RAG
answers, review the nugget assignments and the cited passages, report the five nugget
scores and the citation measures; the drafts of an LLM scored only with --drafts; and the
files written back as nuggetizer and ragnarok write them."""
import json
from pathlib import Path

from ragscore.cli import main

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "import" / "nuggets"
IMPORT = ["import", "nuggets", "--nuggets", str(FIXTURE / "nuggets.jsonl"), "--answers",
          str(FIXTURE / "answers.jsonl"), "--qrels", str(FIXTURE / "qrels.txt")]
#: The assignments of the fixture, by (question, run) and nugget: what a reviewer decides.
ASSIGNED = {(record["qid"], record["run_id"]): [nugget["assignment"]
                                               for nugget in record["nuggets"]]
            for record in map(json.loads, (FIXTURE / "assignments.jsonl").open())}
#: Grades of each cited passage: (claim text, passage) -> grade.
GRADES = {("The release window opens on Monday.", "seg-launch"): "full",
          ("The owners sign off first.", "seg-owners"): "full",
          ("The owners sign off first.", "seg-archive"): "none",
          ("Switch traffic back to the previous version.", "seg-rollback"): "full",
          ("The window opens on Monday and closes on Friday.", "seg-launch"): "partial",
          ("Run the smoke checklist, then switch back.", "seg-checklist"): "partial"}


def _table(out):
    rows = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) > 2 and parts[0] in ("t1", "t2") and parts[1].startswith("run-"):
            rows[parts[0], parts[1]] = parts[2:]
    return rows


def _fill(rows, answers):
    """Decide every nugget and citation row as the fixture says."""
    for row in rows:
        if row["kind"] == "nugget":
            system = next(system for (case, system), text in answers.items()
                          if case == row["case"] and text == row["answer"])
            row["decision"] = ASSIGNED[row["case"], system][int(row["nugget"][1:]) - 1]
        elif row["kind"] == "citation":
            row["decision"] = GRADES[row["claim"], row["doc"]]
        row["reviewer"], row["date"] = "ana", "2026-12-05"
    return "".join(json.dumps(row) + "\n" for row in rows)


def test_a_reviewer_assigns_the_nuggets_and_grades_the_citations(tmp_path, capsys):
    folder = str(tmp_path / "d")
    assert main([*IMPORT, "--out", folder]) == 0
    queue = tmp_path / "queue.jsonl"
    assert main(["review", "export", folder, "--pool-depth", "0", "--citations", "--out",
                 str(queue)]) == 0
    assert "10 nugget assignments, 6 citations" in capsys.readouterr().out
    rows = [json.loads(line) for line in queue.open()]
    answers = {(record["topic_id"], record["run_id"]):
               " ".join(sentence["text"] for sentence in record["answer"])
               for record in map(json.loads, (FIXTURE / "answers.jsonl").open())}
    queue.write_text(_fill(rows, answers))
    assert main(["review", "import", folder, str(queue)]) == 0
    capsys.readouterr()
    assert main(["report", folder, "--metrics", "nugget_strict_vital,nugget_strict_all,"
                 "nugget_vital,nugget_all,nugget_weighted,citation_precision,"
                 "citation_recall,alce_precision,alce_recall"]) == 0
    table = _table(capsys.readouterr().out)
    # nugget scores worked by hand in tests/importers/test_nuggetizer.py
    assert table["t1", "run-a"][:5] == ["1.0000", "0.6667", "1.0000", "0.6667", "0.8000"]
    assert table["t2", "run-b"][:5] == ["0.0000", "0.5000", "0.5000", "0.7500", "0.6667"]
    # citations, t1 run-a: launch full; owners full, archive none.
    # precision (1 + 1 + 0) / 3; recall 2 of 2 sentences; ALCE: both sentences supported
    # (a full citation each), archive redundant: 2 of 3, recall 1
    assert table["t1", "run-a"][5:] == ["0.6667", "1.0000", "0.6667", "1.0000"]
    # t2 run-b: checklist partial; "Ask the owners." cites nothing.
    # precision 0.5 / 1; recall 0 of 2; ALCE: neither supported: 0 of 1, 0 of 2
    assert table["t2", "run-b"][5:] == ["0.5000", "0.0000", "0.0000", "0.0000"]


def test_an_llms_assignments_score_only_with_drafts_and_go_back_byte_for_byte(tmp_path,
                                                                                capsys):
    folder = str(tmp_path / "d")
    assert main([*IMPORT, "--assignments", str(FIXTURE / "assignments.jsonl"), "--date",
                 "2026-12-05", "--out", folder]) == 0
    capsys.readouterr()
    assert main(["report", folder, "--metrics", "nugget_weighted", "--na-as-zero"]) == 0
    shown = capsys.readouterr().out
    assert _table(shown)["t1", "run-a"] == ["0.0000"]  # n/a, read as nuggetizer's 0.0
    assert "a nugget score that is n/a counts 0, as nuggetizer writes it" in shown
    assert main(["report", folder, "--metrics", "nugget_weighted", "--drafts"]) == 0
    shown = capsys.readouterr().out
    assert _table(shown)["t1", "run-a"] == ["0.8000"]
    assert "machines' drafts count where no person judged" in shown
    out = tmp_path / "out"
    out.mkdir()
    assert main(["export", "nuggets", folder, "--nuggets", str(out / "nuggets.jsonl"),
                 "--assignments", str(out / "assignments.jsonl"), "--answers",
                 str(out / "answers.jsonl"), "--drafts"]) == 0
    for name in ("nuggets.jsonl", "assignments.jsonl", "answers.jsonl"):
        assert (out / name).read_bytes() == (FIXTURE / name).read_bytes(), name


def test_a_malformed_nuggets_file_exits_2_naming_line_and_field(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "Q?", "qid": "t1", "nuggets": [{"text": "a", '
                   '"importance": "high"}]}\n')
    assert main(["import", "nuggets", "--nuggets", str(bad), "--qrels",
                 str(FIXTURE / "qrels.txt"), "--out", str(tmp_path / "d")]) == 2
    assert "bad.jsonl, line 1: field 'nuggets'[0]['importance'] must be one of vital, okay" \
        in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_a_gate_names_a_nugget_score_and_fails_closed_on_drafts(tmp_path, capsys):
    policy = tmp_path / "policy.toml"
    policy.write_text('k = 2\n\n[[rule]]\nname = "complete answers"\nmetric = '
                      '"nugget_weighted"\ncheck = "min_mean"\nthreshold = 0.65\n')
    drafted, reviewed = str(tmp_path / "drafted"), str(tmp_path / "reviewed")
    assignments = ["--assignments", str(FIXTURE / "assignments.jsonl"), "--date", "2026-12-05"]
    assert main([*IMPORT, *assignments, "--out", drafted]) == 0
    assert main([*IMPORT, *assignments, "--origin", "post-edited", "--reviewer", "ana",
                 "--out", reviewed]) == 0
    capsys.readouterr()
    # W by hand: run-a (0.8 + 1/1.5) / 2 = 0.7333; run-b (0.6 + 1/1.5) / 2 = 0.6333
    assert main(["gate", reviewed, "--policy", str(policy), "--candidate", "run-a"]) == 0
    assert "mean W 0.7333 over 2 of the 2 questions" in capsys.readouterr().out
    assert main(["gate", reviewed, "--policy", str(policy), "--candidate", "run-b"]) == 1
    assert "mean W 0.6333" in capsys.readouterr().out
    # an LLM's drafts alone: nothing shows the rule passes
    assert main(["gate", drafted, "--policy", str(policy), "--candidate", "run-a"]) == 1
    assert "no defined W in the 2 questions" in capsys.readouterr().out


def test_the_html_report_shows_each_nuggets_importance_and_assignment(tmp_path):
    from ragscore.folders import load_dataset
    from ragscore.tables.share import review_data

    folder = tmp_path / "d"
    assert main([*IMPORT, "--assignments", str(FIXTURE / "assignments.jsonl"), "--origin",
                 "post-edited", "--reviewer", "ana", "--out", str(folder)]) == 0
    data = review_data(load_dataset(folder), baseline="run-a", candidate="run-b", k=2)
    first = data["questions"][0]
    assert first["case"] == "t1"
    assert first["c"]["nuggets"] == [
        ["n1", "The release window opens on Monday", "vital", "support"],
        ["n2", "The owners sign off before launch", "vital", "not_support"],
        ["n3", "The window closes on Friday", "okay", "support"]]
    assert first["c"]["answer"] == "The window opens on Monday and closes on Friday."


def test_the_audit_reports_how_often_people_kept_the_drafts(tmp_path, capsys):
    from ragscore import save_dataset
    from ragscore.importers.nuggetizer import import_nuggets

    files = {name: FIXTURE / f"{name}.jsonl" for name in ("nuggets", "assignments", "answers")}
    drafted, _ = import_nuggets(files["nuggets"], assignments=files["assignments"],
                                answers=files["answers"], date="2026-12-05")
    edited = tmp_path / "edited.jsonl"  # the assessor changed one of the ten: run-b t2 n1
    edited.write_text(files["assignments"].read_text().replace(
        '"assignment": "partial_support"', '"assignment": "not_support"'))
    people, _ = import_nuggets(files["nuggets"], assignments=edited, answers=files["answers"],
                               origin="post-edited", reviewer="ana", date="2026-12-06")
    folder = save_dataset(drafted._replace(judgements=drafted.judgements + people.judgements),
                          tmp_path / "d")
    assert main(["audit", str(folder)]) == 0
    shown = capsys.readouterr().out
    assert "by origin: llm-draft 10, post-edited 10" in shown
    assert ("nugget: people who edited the draft (post-edited) agree exactly with a "
            "machine's draft on 9 of 10 items (90%") in shown
