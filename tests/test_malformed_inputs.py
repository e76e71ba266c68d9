"""Malformed input refused with exit 2 and one line naming the file, the line and the field
(issue 40): dates are YYYY-MM-DD in ASCII digits naming a real day, checked by one function
everywhere; nesting too deep and integers too large never reach the user as RecursionError
or OverflowError; a queue's note must be text and a reviewer's name holds no control
character; a lone surrogate or an answer too long is refused at its file and line."""
import ast
import json
import shutil
from pathlib import Path

import pytest

from ragscore.cli import build_parser, capture

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SPANS = FIXTURES / "spans"
NESTED = "[" * 100_000


def _refused(argv, *fragments):
    code, _, err = capture([str(part) for part in argv])
    assert code == 2, (code, err)
    assert len(err.splitlines()) == 1 and "Traceback" not in err and \
        "internal error" not in err, err
    for fragment in fragments:
        assert fragment in err, err
    return err


@pytest.fixture
def answers(tmp_path):
    folder = tmp_path / "answers"
    shutil.copytree(FIXTURES / "answers", folder)
    return folder


@pytest.fixture
def queue_row(answers, tmp_path):
    """A filled-in row of the answers dataset's queue (a pooled passage judged 1)."""
    path = tmp_path / "queue.jsonl"
    code, _, err = capture(["review", "export", str(answers), "--out", str(path)])
    assert code == 0, err
    row = json.loads(path.read_text().splitlines()[0])
    assert row["kind"] == "relevance"
    return dict(row, decision=1, reviewer="ana", date="2026-01-02")


def _queue(tmp_path, *rows, raw=None):
    path = tmp_path / "filled.jsonl"
    path.write_text(raw if raw is not None else "".join(json.dumps(row) + "\n" for row in rows),
                    encoding="utf-8")
    return path


# ---- dates: one function, everywhere -----------------------------------------------------

BAD_DATES = [("2026-13-45", "(no such day)"), ("2026-02-30", "(no such day)"),
             ("\uff12\uff10\uff12\uff16-\uff10\uff11-\uff10\uff12",
              "(digits must be ASCII 0-9)"), ("2026-1-2", "must be a date YYYY-MM-DD")]


@pytest.mark.parametrize("date, reason", BAD_DATES)
def test_a_bad_date_is_refused_by_every_option_that_takes_one(tmp_path, date, reason):
    spans = ["import", "spans", "--documents", SPANS / "documents.jsonl", "--questions",
             SPANS / "questions.jsonl", "--chunks", SPANS / "chunks-sentences.jsonl",
             "--reviewer", "ana", "--out", tmp_path / "spans"]
    nuggets = FIXTURES / "import" / "nuggets"
    for argv in (spans + ["--date", date],
                 ["labels", "anchor", FIXTURES / "course", "--documents",
                  SPANS / "documents.jsonl", "--out", tmp_path / "anchored", "--date", date],
                 ["review", "import", FIXTURES / "answers", tmp_path / "none.jsonl", "--date",
                  date],
                 ["import", "nuggets", "--nuggets", nuggets / "nuggets.jsonl", "--answers",
                  nuggets / "answers.jsonl", "--assignments", nuggets / "assignments.jsonl",
                  "--origin", "human", "--reviewer", "ana", "--out", tmp_path / "n",
                  "--date", date]):
        _refused(argv, "--date must be a date YYYY-MM-DD", reason)


@pytest.mark.parametrize("date, reason", BAD_DATES)
def test_a_bad_date_in_a_file_is_refused_with_its_file_and_line(tmp_path, queue_row, answers,
                                                               date, reason):
    queue = _queue(tmp_path, dict(queue_row, date=date))
    _refused(["review", "import", answers, queue], "filled.jsonl, line 1: field 'date' must "
             "be a date YYYY-MM-DD", reason)
    questions = [json.loads(line) for line in (SPANS / "questions.jsonl").open()]
    questions[1]["relevant"][0]["date"] = date  # a span's own date
    (tmp_path / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in questions))
    _refused(["import", "spans", "--documents", SPANS / "documents.jsonl", "--questions",
              tmp_path / "questions.jsonl", "--chunks", SPANS / "chunks-sentences.jsonl",
              "--reviewer", "ana", "--out", tmp_path / "spans"],
             "must be a date YYYY-MM-DD", reason)


def test_every_date_option_and_every_date_check_is_the_one_function():
    from ragscore.importers.registry import date_option

    def actions(parser):
        for action in parser._actions:
            if hasattr(action, "choices") and isinstance(action.choices, dict):
                for child in action.choices.values():
                    yield from actions(child)
            yield action

    dated = [action for action in actions(build_parser()) if action.dest == "date"]
    assert len(dated) >= 4 and all(action.type is date_option for action in dated)
    package = ROOT / "ragscore"
    for path in package.rglob("*.py"):  # no other way to read a date
        text = path.read_text(encoding="utf-8")
        for pattern in ("fromisoformat", "strptime", r"\d{4}-", "[0-9]{4}-"):
            if pattern in text:
                assert path.relative_to(package).as_posix() == "core/rules.py", (path, pattern)


# ---- nesting too deep, integers too large ------------------------------------------------

def test_a_queue_line_nesting_100000_arrays_is_refused(tmp_path, answers):
    _refused(["review", "import", answers, _queue(tmp_path, raw=NESTED + "\n")],
             "filled.jsonl, line 1: not JSON (nested too deeply)")


@pytest.mark.parametrize("engine", ["columnar", "reference"])
def test_an_index_nesting_100000_arrays_is_refused(tmp_path, answers, engine):
    (answers / "dataset.json").write_text(NESTED)
    _refused(["report", answers, "--engine", engine], "dataset.json", "nested too deeply")


def test_toml_nesting_100000_arrays_is_refused(tmp_path, answers):
    policy = tmp_path / "gate.toml"
    policy.write_text("k = " + "[" * 100_000 + "]" * 100_000 + "\n")
    _refused(["gate", answers, "--policy", policy, "--candidate", "draft"],
             "gate.toml: not valid TOML: nested too deeply")
    config = tmp_path / "record.toml"
    config.write_text("trials = " + "[" * 100_000 + "]" * 100_000 + "\n")
    _refused(["record", answers, "--config", config, "--endpoint", "http://127.0.0.1:9/ask",
              "--system", "x"], "record.toml: not valid TOML (nested too deeply)")


def test_a_ragas_list_cell_nesting_100000_arrays_is_refused(tmp_path):
    path = tmp_path / "answers.csv"
    path.write_text('user_input,retrieved_contexts\n"Who?","' + NESTED + '"\n')
    _refused(["import", "ragas", "--file", path, "--system", "s", "--out", tmp_path / "o"],
             "answers.csv", "line 2")


def _plain_trec(tmp_path):
    """A qrels file and a run laid out plainly (read in columns by the columnar reader)."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("".join(f"q{n} 0 d{n} 1\n" for n in range(30)))
    run.write_text("".join(f"q{n} Q0 d{(n + r) % 40} {r + 1} {50 - r}.5 sys\n"
                           for n in range(30) for r in range(10)))
    return qrels, run


@pytest.mark.parametrize("value", ["99999999999999999999", str(2 ** 63)])
def test_a_huge_ranking_depth_is_refused(tmp_path, value):
    qrels, run = _plain_trec(tmp_path)
    _refused(["eval", qrels, run, "-M", value], "--max-depth must be a whole number of at "
             "least 1 and at most 9,223,372,036,854,775,807")
    _refused(["import", "trec", "--qrels", qrels, "--run", run, "--max-depth", value, "--out",
              tmp_path / "o"], "--max-depth must be a whole number")
    code, out, err = capture(["eval", str(qrels), str(run), "-M", str(2 ** 63 - 1)])
    assert code == 0 and "sys" in out, err  # the largest depth: no cut


# ---- a queue's note and a reviewer's name ------------------------------------------------

def test_a_queue_note_given_as_an_object_is_refused(tmp_path, answers, queue_row):
    _refused(["review", "import", answers, _queue(tmp_path, dict(queue_row, note={"a": 1}))],
             "filled.jsonl, line 1: field 'note' must be text; got {'a': 1}")


@pytest.mark.parametrize("reviewer", ["ana\nverdict: PASS", "ana\x1b[2J", "ana\u2028",
                                      " ana", "ana\x85"])
def test_a_reviewer_holding_a_control_character_is_refused(tmp_path, answers, queue_row,
                                                           reviewer):
    _refused(["review", "import", answers, _queue(tmp_path, dict(queue_row,
                                                                 reviewer=reviewer))],
             "filled.jsonl, line 1: field 'reviewer' must be a name of 1 to 512 characters "
             "with no control character")
    _refused(["review", "import", answers, _queue(tmp_path, dict(queue_row, reviewer="")),
              "--reviewer", reviewer], "field 'reviewer' must be a name")


def test_a_judgement_record_with_a_control_character_in_its_reviewer_is_refused():
    from ragscore.core.labels import check_record
    from ragscore.core.rules import InvalidInputError

    record = {"kind": "answerability", "case": "q", "key": "0" * 16, "decision": "answerable",
              "reviewer": "ana\nben", "date": "2026-01-02", "origin": "human",
              "batch": "1" * 16}
    with pytest.raises(InvalidInputError, match="line 3: field 'reviewer' must be a name"):
        check_record(record, "line 3")
    with pytest.raises(InvalidInputError, match=r"line 3: field 'date' must be a date "
                                                r"YYYY-MM-DD; got '2026-13-45' \(no such"):
        check_record(dict(record, reviewer="ana", date="2026-13-45"), "line 3")


def test_a_queue_row_of_the_wrong_types_is_refused_with_its_line(tmp_path, answers,
                                                                 queue_row):
    for change, fragment in (({"kind": ["relevance"]}, "field 'kind' must be one of"),
                             ({"case": ["launch"]}, "field 'case': no relevance item"),
                             ({"states": ["monday"]}, "field 'states' must name")):
        _refused(["review", "import", answers, _queue(tmp_path, dict(queue_row, **change))],
                 "filled.jsonl, line 1: ", fragment)


# ---- refusals that name the file and the line --------------------------------------------

def test_a_lone_surrogate_in_a_queue_is_refused_with_its_line(tmp_path, answers, queue_row):
    row = {key: value for key, value in queue_row.items() if key != "note"}
    line = json.dumps(row)[:-1] + ', "note": "\\ud800"}\n'
    _refused(["review", "import", answers, _queue(tmp_path, raw="\n" + line)],
             "filled.jsonl, line 2: holds a lone surrogate U+D800")


def _spans_argv(tmp_path, **files):
    found = {"documents": SPANS / "documents.jsonl", "questions": SPANS / "questions.jsonl",
             "chunks": SPANS / "chunks-sentences.jsonl", **files}
    argv = ["import", "spans", "--reviewer", "ana", "--out", tmp_path / "spans"]
    for name, path in found.items():
        argv += [f"--{name}", path]
    return argv


def test_a_lone_surrogate_in_a_document_or_a_run_is_refused_with_its_line(tmp_path):
    documents = (SPANS / "documents.jsonl").read_text().splitlines()
    documents[1] = documents[1][:-2] + '\\udfff"}'
    (tmp_path / "docs.jsonl").write_text("\n".join(documents) + "\n")
    _refused(_spans_argv(tmp_path, documents=tmp_path / "docs.jsonl"),
             "docs.jsonl, line 2: holds a lone surrogate U+DFFF")
    runs = (SPANS / "runs-sentences.jsonl").read_text().splitlines()
    runs[2] = runs[2].replace('"claim": "', '"claim": "\\ud83d', 1)
    (tmp_path / "runs.jsonl").write_text("\n".join(runs) + "\n")
    _refused(_spans_argv(tmp_path, runs=tmp_path / "runs.jsonl"),
             "runs.jsonl, line 3: field 'claims'[0].claim holds a lone surrogate")


def test_a_lone_surrogate_in_a_claim_is_refused_by_a_save_never_a_crash(tmp_path):
    import ragscore
    from ragscore.core.rules import InvalidInputError

    dataset = ragscore.Dataset(corpus={"d1": "t"}, cases={"q": {"relevant": ("d1",)}},
                               runs={"q": {"s": {"retrieved": ("d1",),
                                                 "claims": (("c\ud800", ("d1",)),)}}},
                               ids="open")
    with pytest.raises(InvalidInputError, match=r"runs record case 'q', system 's': holds a "
                                                r"lone surrogate"):
        ragscore.save_dataset(dataset, tmp_path / "saved")
    assert not (tmp_path / "saved").exists()


def test_an_answer_too_long_to_split_is_refused_with_its_file_and_line(tmp_path):
    lines = (FIXTURES / "import" / "log" / "answers.jsonl").read_text().splitlines()
    record = json.loads(lines[1])
    record["answer"] = "word " * 30_000
    lines[1] = json.dumps(record)
    (tmp_path / "log.jsonl").write_text("\n".join(lines) + "\n")
    _refused(["import", "log", tmp_path / "log.jsonl", "--out", tmp_path / "o"],
             "log.jsonl, line 2: run['answer'] has 150,000 characters; an answer split into "
             "claims has at most 100,000")


def test_every_json_decoding_of_input_catches_nesting_too_deep():
    """Each call of json.loads, json.load or a decoder's decode in the package sits in a
    try whose handlers catch RecursionError (or is on the package's own files)."""
    own = {("io/schemas.py", "schema"),  # the schemas shipped in the package
           ("workbook/toy_system.py", "do_POST"),  # the course's toy server, on localhost
           ("usecases/baselines.py", "verify_baseline"),  # a round trip of its own json.dumps
           ("render/sweep.py", "sweep_json")}  # a round trip of render_frame's own json
    package = ROOT / "ragscore"
    unguarded = []
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if not any(call in text for call in ("json.load", "tomllib.load", "DECODER.decode")):
            continue
        tree = ast.parse(text)
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and (node.func.attr in ("loads", "load") and isinstance(
                        node.func.value, ast.Name) and node.func.value.id in ("json",
                                                                                "tomllib")
                         or node.func.attr == "decode" and isinstance(node.func.value,
                                                                      ast.Name)
                         and node.func.value.id == "DECODER")):
                continue
            up, function, guarded = node, None, False
            while up in parents:
                up = parents[up]
                if isinstance(up, ast.Try) and any(
                        "RecursionError" in ast.unparse(handler.type or ast.Name("BaseException"))
                        or handler.type is None for handler in up.handlers):
                    guarded = True
                if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)) and function is None:
                    function = up.name
            where = (path.relative_to(package).as_posix(), function)
            if not guarded and where not in own:
                unguarded.append(where)
    assert unguarded == [], unguarded
