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


def _documented(fence):
    """The block fenced ``fence`` under "The engineer's flow" in docs/answers.md."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "answers.md").read_text()
    section = text.split("## The engineer's flow", 1)[1].split("\n## ", 1)[0]
    return section.split(f"```{fence}\n", 1)[1].split("```", 1)[0]


#: The reviewer's decisions, as the doc's table gives them: grades by (question, passage),
#: answerability by question, support by claim as written.
RELEVANT = {("When does the release window open?", "p-window"),
            ("Who owns the release?", "p-owners")}
SUPPORT = {"The window opens on Friday [1].": "unsupported",
           "It opens at 09:00 [2].": "supported",
           "The window opens on Monday [1].": "supported",
           "The rollback team owns it [1].": "unsupported",
           "The Aurora team owns the release [1].": "supported"}


def test_the_engineers_flow_in_the_docs_runs_as_written(tmp_path, capsys, monkeypatch):
    """import log with a review queue, a person's judgements of the pool, the questions
    and the claims, review import, report and html: the doc's own commands on the doc's own
    log, and the numbers worked out by hand."""
    import csv

    from ragscore.core.metrics import REGISTRY
    from ragscore.engine import count_folder

    commands = [line.split() for line in _documented("sh").splitlines() if line.strip()]
    assert [command[:2] for command in commands] == [
        ["ragscore", "import"], ["ragscore", "review"], ["ragscore", "report"],
        ["ragscore", "html"]]
    monkeypatch.chdir(tmp_path)
    Path("answers.jsonl").write_text(_documented("jsonl"))
    assert main(commands[0][1:]) == 0
    with open("queue.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    # the pool (3 distinct passages for the window question, 4 for the owner one), the two
    # questions, the five claims: 14 items, question by question
    assert [row["kind"] for row in rows] == (["relevance"] * 3 + ["answerability"]
                                              + ["support"] * 3 + ["relevance"] * 4
                                              + ["answerability"] + ["support"] * 2)
    for row in rows:
        if row["kind"] == "relevance":
            row["decision"] = str(int((row["question"], row["doc"]) in RELEVANT))
        elif row["kind"] == "answerability":
            row["decision"] = "answerable"
        else:
            row["decision"] = SUPPORT[row["claim"]]
    with open("queue.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    for command in commands[1:]:
        assert main(command[1:]) == 0, command
    out = capsys.readouterr().out
    assert "DIR: 14 judgements added" in out and Path("report.html").stat().st_size > 0
    counted = count_folder("DIR")
    by_key = {key: position for position, key in enumerate(counted.keys)}
    window, owner = (case for case, _ in counted.keys[::2])
    values = {name: counted.values(REGISTRY[name], 2) for name in ("support", "recall",
                                                                    "precision", "judged")}

    def value(name, case, system):
        return values[name][by_key[case, system]]

    # old on the window question: "Friday" unsupported, "09:00" cites p-window (rank 2):
    # 1 of 2; p-window, the one relevant passage, at rank 2: R@2 = 1, P@2 = 1/2
    assert (value("support", window, "old"), value("recall", window, "old"),
            value("precision", window, "old")) == (0.5, 1.0, 0.5)
    # old on the owner question: its one claim unsupported: 0 of 1, and it stays in the
    # denominator; p-owners not retrieved: R@2 = 0
    assert (value("support", owner, "old"), value("recall", owner, "old")) == (0.0, 0.0)
    # new: each claim supported, the relevant passage at rank 1
    assert [value("support", case, "new") for case in (window, owner)] == [1.0, 1.0]
    assert [value("recall", case, "new") for case in (window, owner)] == [1.0, 1.0]
    # every passage in every top 2 was judged
    assert set(values["judged"]) == {1.0}
    # old's means over both questions: support (0.5 + 0.0) / 2, recall (1 + 0) / 2
    assert "- old answerable support (macro) = 0.2500: mean support over the 2 answerable" in out
    assert "- old answerable recall (macro) = 0.5000: mean R@2 over the 2 answerable" in out
    assert "not labelled yet" not in out and "unjudged" not in out


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
