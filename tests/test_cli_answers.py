"""The documented path from a JSONL of answers to a table (docs/import.md): two commands,
and each answer-format importer reachable from the command line."""
import json
from pathlib import Path

from ragscore.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "import"


def test_a_jsonl_of_answers_reaches_a_table_in_two_commands(tmp_path, capsys):
    log = tmp_path / "answers.jsonl"
    log.write_text("".join(json.dumps(record) + "\n" for record in [
        {"question": "Who owns the billing alert?", "answer": "The Aurora team.",
         "retrieved": ["runbook-billing", "oncall-rota"], "reference": "the Aurora team",
         "relevant": ["runbook-billing"]},
        {"question": "How long are audit logs kept?", "answer": "About a year.",
         "retrieved": ["oncall-rota"], "reference": "400 days",
         "relevant": ["retention-policy"]}]))
    assert main(["import", "log", str(log), "--system", "mine", "--out",
                 str(tmp_path / "d")]) == 0
    capsys.readouterr()
    assert main(["report", str(tmp_path / "d")]) == 0
    table = capsys.readouterr().out
    rows = [line.split()[1:] for line in table.splitlines()]
    # the answers' claims await review: support, coverage and abstention are shown n/a
    # (issue 35: the columns stay, they are not dropped as if no answer was recorded)
    assert ["system", "P@2", "R@2", "RR@2", "support", "coverage", "abstention", "EM",
            "F1"] in [r[:9] for r in rows]
    # answer 1: "aurora team" = reference: EM 1, F1 1; RR@2 = 1. Answer 2: no shared token
    # with "400 days": 0, 0; nothing relevant retrieved: P 0, R 0, RR 0
    assert ["mine", "0.5000", "1.0000", "1.0000", "n/a", "n/a", "n/a", "1.0000",
            "1.0000"] in [r[:9] for r in rows]
    assert ["mine", "0.0000", "0.0000", "0.0000", "n/a", "n/a", "n/a", "0.0000",
            "0.0000"] in [r[:9] for r in rows]


def test_every_answer_importer_runs_from_the_command_line(tmp_path, capsys):
    commands = [
        ["log", str(FIXTURES / "log" / "answers.csv"), "--question-field", "query",
         "--system-field", "model", "--retrieved-field", "contexts", "--answer-field",
         "response", "--reference-field", "gold"],
        ["openinference", str(FIXTURES / "openinference" / "spans.jsonl"), "--system", "prod"],
        # traces carry no references or labels: the table says n/a, and why
        ["llamaindex-rag", "--dataset", str(FIXTURES / "llamaindex" / "rag_dataset.json"),
         "--predictions", str(FIXTURES / "llamaindex" / "vector_predictions.json"),
         "--system", "vector"],
        ["ragas", "--file", str(FIXTURES / "ragas" / "answers.jsonl"), "--system", "dense"],
    ]
    for number, command in enumerate(commands):
        out = str(tmp_path / f"d{number}")
        assert main(["import", *command, "--out", out]) == 0, command
        assert main(["report", out]) == 0
        shown = capsys.readouterr().out
        assert ("F1" in shown) != (command[0] == "openinference"), command


def test_a_malformed_log_exits_2_naming_line_and_field(tmp_path, capsys):
    log = tmp_path / "bad.jsonl"
    log.write_text('{"question": "Q?", "retrieved": "d1", "system": "s"}\n')
    assert main(["import", "log", str(log), "--out", str(tmp_path / "d")]) == 2
    assert "bad.jsonl, line 1: field 'retrieved' must be a list; got 'd1'" in \
        capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def _documented_commands():
    """The shell block under "The three commands" in docs/answers.md, one command a line."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "answers.md").read_text()
    section = text.split("## The three commands", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line.split() for line in block.splitlines() if line.strip()]


def test_the_documented_path_reaches_a_support_table_in_three_commands(
        tmp_path, capsys, monkeypatch):
    import csv

    from ragscore.core.metrics import REGISTRY
    from ragscore.engine import count_folder

    commands = _documented_commands()
    assert len(commands) <= 3 and all(command[0] == "ragscore" for command in commands)
    monkeypatch.chdir(tmp_path)
    Path("answers.jsonl").write_text("".join(json.dumps(record) + "\n" for record in [
        {"question": "When does the window open?",
         "answer": "The window opens on Monday [1]. Rollback takes two steps [2].",
         "retrieved": ["launch", "rollback"]},
        {"question": "Who owns the launch?", "answer": "Ana owns the launch [1].",
         "retrieved": ["owners", "launch"]}]))
    assert main(commands[0][1:]) == 0
    with open("queue.csv", newline="") as handle:  # the one review file, filled in
        rows = list(csv.DictReader(handle))
    assert [row["claim"] for row in rows] == [
        "The window opens on Monday [1].", "Rollback takes two steps [2].",
        "Ana owns the launch [1]."]
    for row, decision in zip(rows, ["supported", "unsupported", "supported"]):
        row.update(decision=decision, reviewer="ana", date="2026-12-04")
    with open("queue.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    for command in commands[1:]:
        assert main(command[1:]) == 0
    table = capsys.readouterr().out
    assert "support" in table
    counted = count_folder("DIR")
    # window: 1 of 2 claims supported (the second judged unsupported); owner: 1 of 1
    assert counted.values(REGISTRY["support"], 2) == [0.5, 1.0]


def test_a_review_file_in_a_missing_folder_stops_the_import_before_anything_is_written(
        tmp_path, capsys):
    log = tmp_path / "answers.jsonl"
    log.write_text(json.dumps({"question": "Q?", "answer": "A [1].",
                               "retrieved": ["d1"]}) + "\n")
    code = main(["import", "log", str(log), "--system", "mine", "--out", str(tmp_path / "d"),
                 "--review-out", str(tmp_path / "missing" / "queue.csv")])
    assert code == 2
    assert "--review-out" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()
