"""Chapter 10's chunker in miniature and its panel, without a browser: the cut, a run
re-expressed on another chunking, and the slider that derives the labels and scores again.
Values worked by hand from fixtures/spans."""

from pathlib import Path

import pytest

from ragscore.core.spans import Chunking
from ragscore.importers.spans import import_spans
from ragscore.io.jsonl import MAX_FILE_BYTES
from ragscore.workbook.chunking import (CHUNKS, chunk_size_explorer, chunked, cut, derived_rows,
                                        project_run, score_rows)

SPANS = Path(__file__).resolve().parents[2] / "fixtures" / "spans"


def test_cut_packs_words_up_to_the_size(sentences):
    # "The fictional release window starts on Monday." is 46 characters: at 46 it is one
    # chunk, at 45 its last word moves on
    positions = cut(sentences.documents, 46)
    assert positions["release-notes@0"] == ("release-notes", 0, 46)
    assert cut(sentences.documents, 45)["release-notes@0"] == ("release-notes", 0, 38)
    assert cut({"d": ("v", "averyverylongword x")}, 4) == {"d@0": ("d", 0, 17),
                                                            "d@18": ("d", 18, 19)}
    with pytest.raises(ValueError, match="size must be a whole number of characters"):
        cut(sentences.documents, 0)


def test_a_run_is_re_expressed_on_another_chunking():
    old = {"s1": ("d", 0, 10), "s2": ("d", 11, 20)}
    new = Chunking({"a": ("d", 0, 6), "b": ("d", 6, 14), "c": ("d", 14, 20)})
    run = {"retrieved": ("s2", "s1"), "claims": (("x", ("s1",)), ("y", ("s2", "s1")))}
    # s2 = 11..20 meets b (3 characters) and c (6); s1 = 0..10 meets a (6) and b (4)
    assert project_run(run, old, new) == {
        "retrieved": ("b", "c", "a"), "claims": (("x", ("a",)), ("y", ("c", "a")))}


def test_at_80_characters_switch_is_cut_and_b_loses_it(sentences):
    """The release notes cut at 73/74: switch (47-90) has two partial chunks; B cites the
    one holding most of the rollback sentence (26 characters against 17), which does not
    hold the evidence whole: unsupported; smoke is whole in @74, ranked 2: supported."""
    at_80 = chunked(sentences, 80)
    rows = {(row["case"], row["claim"]): row for row in derived_rows(at_80)}
    assert rows[("rollback", "switch")][CHUNKS] == ("release-notes@0 (partial), "
                                                    "release-notes@74 (partial)")
    assert rows[("rollback", "smoke")][CHUNKS] == "release-notes@74 (full)"
    assert at_80.runs["rollback"]["B"] == {
        "retrieved": ("release-notes@0", "release-notes@74"),
        "claims": (("switch", ("release-notes@0",)), ("smoke", ("release-notes@74",)))}
    scores = {row["case"]: row for row in score_rows(at_80, k=2, system="B")}
    assert (scores["rollback"]["support"], scores["rollback"]["coverage"]) == ("0.50", "0.50")


def test_chapter_10s_comparison_by_characters(sentences):
    """Chapter 10's step 3, span R@2 and chars@2 of system A on both chunkings, worked by
    hand from fixtures/spans. Sentences: launch 0-46 (46 characters), rollback 47-91 (44),
    checklist 92-127 (35), owners 0-41 (41), archive 42-91 (49); whole notes: release-notes
    0-127 (127), team-notes 0-91 (91). Relevant characters (relevant and evidence spans
    merged): launch 0-46 = 46, rollback 47-91 + 92-127 = 79, owner 0-41 = 41, region none.
    A's top 2 on sentences: launch + archive (46 of 46 covered; 46 + 49 = 95 read),
    rollback (44 of 79; 44), archive + owners (41 of 41; 49 + 41 = 90), archive (n/a; 49).
    On whole notes: release-notes + team-notes (46/46; 127 + 91 = 218), release-notes
    (79/79; 127), team-notes (41/41; 91), team-notes (n/a; 91)."""
    notes, _ = import_spans(SPANS / "documents.jsonl", SPANS / "questions.jsonl",
                            SPANS / "chunks-notes.jsonl", runs=SPANS / "runs-notes.jsonl",
                            reviewer="ana", date="2026-12-04", max_bytes=MAX_FILE_BYTES)
    names = ("span_recall", "characters_read")
    assert score_rows(sentences, k=2, system="A", names=names) == [
        {"case": "launch", "span R@2": "1.00", "chars@2": "95"},
        {"case": "rollback", "span R@2": "0.56", "chars@2": "44"},  # 44/79 = 0.557
        {"case": "owner", "span R@2": "1.00", "chars@2": "90"},
        {"case": "region", "span R@2": "n/a", "chars@2": "49"}]
    assert score_rows(notes, k=2, system="A", names=names) == [
        {"case": "launch", "span R@2": "1.00", "chars@2": "218"},
        {"case": "rollback", "span R@2": "1.00", "chars@2": "127"},
        {"case": "owner", "span R@2": "1.00", "chars@2": "91"},
        {"case": "region", "span R@2": "n/a", "chars@2": "91"}]
    with pytest.raises(ValueError, match=r"names must be registry metric names \(nearest: "
                                         r"span_recall.*; got 'span_recal'"):
        score_rows(notes, k=2, system="A", names=("span_recal",))


def test_the_panel_follows_its_slider(sentences):
    panel = chunk_size_explorer(sentences, size=60, k=2, system="B")
    assert repr(panel) == "chunk size explorer: 60 characters, system B, k=2"
    labels, scores = panel.rows()
    assert [row["support"] for row in scores] == ["0.50", "0.00", "1.00", "n/a"]
    panel.size.value = 100  # every evidence span whole again: the course's values for B
    labels, scores = panel.rows()
    assert [row["support"] for row in scores] == ["0.50", "1.00", "1.00", "n/a"]
    # at 100 the release notes are cut before "rollback," (98-107): 0-97 holds monday
    # (14-45) and switch (47-90) whole, 98-127 smoke (108-126); the team notes (91) are one
    assert [row[CHUNKS] for row in labels] == [
        "release-notes@0 (full)", "release-notes@0 (full)", "release-notes@98 (full)",
        "team-notes@0 (full)", ""]
    assert ('<tr data-case="rollback"><td data-field="case">rollback</td><td '
            'data-field="recall">1.00</td><td data-field="support">1.00</td>') \
        in panel.scores.value
    assert "chunks of at most 100 characters" in panel.snapshot()
    with pytest.raises(ValueError, match="size must be a whole number from 40 to 160"):
        chunk_size_explorer(sentences, size=30)  # below the slider's 40
    with pytest.raises(ValueError, match="system must be one of A, B"):
        chunk_size_explorer(sentences, system="C")


def test_chapter_10s_exercise_chunking_by_the_rule():
    """The exercises' chunker (release notes cut at 62 and 112, spaces kept): worked by hand
    in docs/instructor.md (4 partial pairs; lists b and d supported at k = 3), checked here
    against the package's rule."""
    from ragscore.core.spans import Chunking, derive_case, support_level

    places = {"r@0": ("r", 0, 62), "r@62": ("r", 62, 112), "r@112": ("r", 112, 127)}
    derived = derive_case([], [("monday", "r", 14, 45), ("switch", "r", 47, 90),
                               ("smoke", "r", 108, 126)], Chunking(places))
    assert sum(len(chunks.partial) for chunks in derived.support.values()) == 4
    evidence = {"switch": (("r", 47, 90),), "smoke": (("r", 108, 126),)}
    lists = [("switch", ("r@0",)), ("switch", ("r@0", "r@62")),
             ("switch", ("r@0", "r@62", "r@112")), ("smoke", ("r@62", "r@112")),
             ("smoke", ("r@112",))]
    levels = [support_level(cited, evidence[claim], places.get) for claim, cited in lists]
    assert levels == ["partial", "full", "partial", "full", "partial"]
