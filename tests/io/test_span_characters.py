"""Chunkers compared by characters (issue 44, item 4): span R@k and chars@k on the course
notes cut two ways (docs/spans.md), in both engines, each value worked out by hand from the
offsets in fixtures/spans; n/a, with its reason, on a test set whose labels name chunks."""
from pathlib import Path

import pytest

from ragscore.cli import capture
from ragscore.core.metrics import REGISTRY
from ragscore.core.spans import Characters
from ragscore.engine import count_folder

SPANS = Path(__file__).resolve().parents[2] / "fixtures" / "spans"
COURSE = Path(__file__).resolve().parents[2] / "ragscore" / "data" / "course"


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    found = {}
    for chunking in ("sentences", "notes"):
        out = tmp_path_factory.mktemp("spans") / chunking
        code, _, err = capture([
            "import", "spans", "--documents", str(SPANS / "documents.jsonl"), "--questions",
            str(SPANS / "questions.jsonl"), "--chunks", str(SPANS / f"chunks-{chunking}.jsonl"),
            "--runs", str(SPANS / f"runs-{chunking}.jsonl"), "--reviewer", "ana", "--date",
            "2026-12-04", "--out", str(out)])
        assert code == 0, err
        found[chunking] = out
    return found


def _values(folder, name, k, engine):
    counted = count_folder(folder, engine=engine)
    view = counted.take(counted.positions("A"))
    return dict(zip((case for case, _ in view.keys), view.values(REGISTRY[name], k)))


@pytest.mark.parametrize("engine", ["reference", "columnar"])
def test_span_recall_counts_relevant_characters_once(folders, engine):
    # launch: relevant 0-46 (evidence 14-45 inside it): 46 characters, all in sentence
    # "launch" (0-46). rollback: 47-91 and 92-127 (evidence inside): 44 + 35 = 79; system A
    # retrieves only sentence "rollback" (47-91): 44 / 79. owner: 0-41; A ranks "archive"
    # (42-91) first: 0 at k=1, then "owners" (0-41): 41 / 41. region: nothing relevant: n/a
    sentences = _values(folders["sentences"], "span_recall", 1, engine)
    assert sentences == {"launch": 1.0, "rollback": 44 / 79, "owner": 0.0, "region": None}
    assert _values(folders["sentences"], "span_recall", 2, engine)["owner"] == 1.0
    # the whole notes hold every relevant character at rank 1
    notes = _values(folders["notes"], "span_recall", 1, engine)
    assert notes == {"launch": 1.0, "rollback": 1.0, "owner": 1.0, "region": None}


@pytest.mark.parametrize("engine", ["reference", "columnar"])
def test_characters_read_is_what_the_top_k_hand_on(folders, engine):
    # sentences: launch 46 (+ archive 49 at k=2), rollback 44, owner 49 + 41, region 49
    assert _values(folders["sentences"], "characters_read", 2, engine) == {
        "launch": 95, "rollback": 44, "owner": 90, "region": 49}
    # notes: release-notes is 127 characters, team-notes 91
    assert _values(folders["notes"], "characters_read", 1, engine) == {
        "launch": 127, "rollback": 127, "owner": 91, "region": 91}


@pytest.mark.parametrize("engine", ["reference", "columnar"])
def test_na_elsewhere_with_the_reason(engine):
    counted = count_folder(COURSE, engine=engine)
    for name in ("span_recall", "characters_read"):
        assert set(counted.values(REGISTRY[name], 2)) == {None}
        assert {reason.split(" (")[0] for reason in counted.reasons(REGISTRY[name], 2)} == {
            "not a span test set"}
    code, out, _ = capture(["report", str(COURSE), "--measures", "chars@2", "--format",
                            "json", "--system", "A"])
    total = next(row for row in __import__("json").loads(out)["summary"])
    assert code == 0 and total["value"] is None and total["left_out"] == 4  # not 0


def test_overlapping_chunks_cover_a_character_once():
    # relevant 0-10; a holds 0-6, b 4-10: b adds 6-10 only (4 new), each reads its own 6
    found = Characters.of([("d", 0, 10), ("d", 2, 5)], {"a": ("d", 0, 6), "b": ("d", 4, 10)})
    assert found.relevant == {"d": ((0, 10),)}
    assert found.read_at(("a", "b")) == (10, ((1, 6, 6), (2, 4, 6)))
    assert found.read_at(("b", "a")) == (10, ((1, 6, 6), (2, 4, 6)))
