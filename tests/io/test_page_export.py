"""A review page's export read back by ``ragscore review import``: the file the page writes
imports unchanged; one edited by hand, made from another folder or another export, with an
unknown key or a decision off its item's scale is refused naming the file, the line and the
field (exit 2), and nothing is stored."""
import json
import shutil
from pathlib import Path

import pytest

from ragscore.cli import capture
from ragscore.folders import load_dataset, save_dataset
from ragscore.io.page_export import export_text, line_check, page_identity
from ragscore.io.review_queue import review_queue

ROOT = Path(__file__).resolve().parents[2]
ANSWERS = ROOT / "fixtures" / "answers"


@pytest.fixture
def folder(tmp_path):
    target = tmp_path / "answers"
    shutil.copytree(ANSWERS, target)
    return target


def _export(folder, *, reviewer="ana", decided=None):
    dataset = load_dataset(folder)
    rows = review_queue(dataset, reviewer=reviewer)
    identity = page_identity(dataset, rows, reviewer)
    if decided is None:  # every passage 0, every claim unsupported, the rest open
        decided = {position: (0 if row["kind"] == "relevance" else "unsupported", None)
                   for position, row in enumerate(rows)}
    return rows, export_text(identity, rows, decided, reviewer=reviewer, date="2026-12-04")


def _lines(text):
    return [json.loads(line) for line in text.splitlines()]


def _text(lines):
    return "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for line in lines)


def _import(folder, text, tmp_path, name="page.jsonl"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    before = len(load_dataset(folder).judgements)
    code, out, err = capture(["review", "import", str(folder), str(path)])
    after = len(load_dataset(folder).judgements)
    return code, out, err, after - before, path


def _refused(folder, text, tmp_path):
    code, out, err, added, path = _import(folder, text, tmp_path)
    assert (code, out, added) == (2, "", 0), err
    assert err.startswith(f"ragscore: error: {path}, line "), err
    assert err.count("\n") == 1
    return err


def test_the_export_imports_unchanged(folder, tmp_path):
    rows, text = _export(folder)
    code, out, err, added, _ = _import(folder, text, tmp_path)
    assert (code, err, added) == (0, "", 19)
    assert out == f"{folder}: 19 judgements added\n"
    # the same file again is refused: a file is imported once
    code, _, err, added, _ = _import(folder, text, tmp_path, "again.jsonl")
    assert (code, added) == (2, 0) and "already imported" in err


def test_open_items_are_left_to_review(folder, tmp_path):
    _, text = _export(folder, decided={0: (0, None)})
    code, out, err, added, _ = _import(folder, text, tmp_path)
    assert (code, added) == (0, 1)
    assert out == f"{folder}: 1 judgement added; 18 left to review\n"


def test_a_decision_edited_by_hand_is_refused_by_its_check(folder, tmp_path):
    _, text = _export(folder)
    lines = _lines(text)
    lines[3]["decision"] = "supported"  # line 4: the third item, a claim
    err = _refused(folder, _text(lines), tmp_path)
    assert "line 4: field 'check' does not match the line" in err


def test_a_line_removed_or_moved_is_refused_by_the_export(folder, tmp_path):
    _, text = _export(folder)
    lines = _lines(text)
    err = _refused(folder, _text(lines[:5] + lines[6:]), tmp_path)
    assert "line 1: field 'export': the file's 18 item lines do not make export" in err
    lines[2], lines[3] = lines[3], lines[2]
    err = _refused(folder, _text(lines), tmp_path)
    assert "line 1: field 'export': the file's 19 item lines" in err


def test_a_line_from_another_export_is_refused(folder, tmp_path):
    _, mine = _export(folder, reviewer="ana")
    _, theirs = _export(folder, reviewer="ben")  # another export: another identity
    lines = _lines(mine)
    lines[2] = _lines(theirs)[2]
    assert lines[2]["key"] == _lines(mine)[2]["key"]  # the same item, from the other file
    err = _refused(folder, _text(lines), tmp_path)
    assert "line 3: field 'check'" in err and "taken from another export" in err


def test_an_export_from_another_folder_is_refused(folder, tmp_path):
    _, text = _export(folder)
    dataset = load_dataset(folder)
    cases = dict(dataset.cases)
    cases["owner"] = dict(cases["owner"], question="Who owns the alert now?")
    other = save_dataset(dataset._replace(cases=cases), tmp_path / "other")
    path = tmp_path / "page.jsonl"
    path.write_text(text, encoding="utf-8")
    code, out, err = capture(["review", "import", str(other), str(path)])
    assert (code, out) == (2, "")
    assert f"{path}, line 1: field 'folder': this page was made from another test set" in err
    assert len(load_dataset(other).judgements) == 0


def test_an_unknown_key_is_refused(folder, tmp_path):
    _, text = _export(folder)
    lines = _lines(text)
    lines[2]["extra"] = 1
    err = _refused(folder, _text(lines), tmp_path)
    assert "line 3: unknown field 'extra'" in err
    lines = _lines(text)
    lines[0]["extra"] = 1
    err = _refused(folder, _text(lines), tmp_path)
    assert "line 1: unknown field 'extra' in the page's header" in err


def _resigned(lines, position, **changes):
    """Line ``position`` changed and its check worked out again (as the page would)."""
    line = dict(lines[position], **changes)
    line["check"] = line_check(lines[0]["export"], line)
    return lines[:position] + [line] + lines[position + 1:]


def test_decisions_outside_the_items_scale_are_refused(folder, tmp_path):
    rows, text = _export(folder)
    lines = _lines(text)
    assert rows[0]["kind"] == "relevance" and rows[1]["kind"] == "support"
    err = _refused(folder, _text(_resigned(lines, 1, decision=3)), tmp_path)
    assert "line 2: field 'decision' must be one of 0, 1, 2 for a relevance row" in err
    err = _refused(folder, _text(_resigned(lines, 2, decision="maybe")), tmp_path)
    assert "line 3: field 'decision' must be one of supported, unsupported, not a claim" in err
    err = _refused(folder, _text(_resigned(lines, 2, decision="supported", states="friday")),
                   tmp_path)
    assert "line 3: field 'states' must name an expected claim of case 'launch' (monday)" in err


def test_a_header_out_of_shape_is_refused(folder, tmp_path):
    _, text = _export(folder)
    lines = _lines(text)
    header = dict(lines[0], ragscore_review_page=2)
    err = _refused(folder, _text([header] + lines[1:]), tmp_path)
    assert "line 1: field 'ragscore_review_page' must be 1" in err
    header = {key: value for key, value in lines[0].items() if key != "folder"}
    err = _refused(folder, _text([header] + lines[1:]), tmp_path)
    assert "line 1: field 'folder' is missing" in err
