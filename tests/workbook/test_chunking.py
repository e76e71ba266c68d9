"""Chapter 10's chunker in miniature and its panel, without a browser: the cut, a run
re-expressed on another chunking, and the slider that derives the labels and scores again.
Values worked by hand from fixtures/spans."""

import pytest

from ragscore.core.spans import Chunking
from ragscore.workbook.chunking import (chunk_size_explorer, chunked, cut, derived_rows,
                                        project_run, score_rows)


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
    assert rows[("rollback", "switch")]["full"] == ""
    assert rows[("rollback", "switch")]["partial"] == "release-notes@0, release-notes@74"
    assert rows[("rollback", "smoke")]["full"] == "release-notes@74"
    assert at_80.runs["rollback"]["B"] == {
        "retrieved": ("release-notes@0", "release-notes@74"),
        "claims": (("switch", ("release-notes@0",)), ("smoke", ("release-notes@74",)))}
    scores = {row["case"]: row for row in score_rows(at_80, k=2, system="B")}
    assert (scores["rollback"]["support"], scores["rollback"]["coverage"]) == ("0.50", "0.50")


def test_the_panel_follows_its_slider(sentences):
    panel = chunk_size_explorer(sentences, size=60, k=2, system="B")
    assert repr(panel) == "chunk size explorer: 60 characters, system B, k=2"
    labels, scores = panel.rows()
    assert [row["support"] for row in scores] == ["0.50", "0.00", "1.00", "n/a"]
    panel.size.value = 100  # every evidence span whole again: the course's values for B
    labels, scores = panel.rows()
    assert [row["support"] for row in scores] == ["0.50", "1.00", "1.00", "n/a"]
    assert all(row["partial"] == "" for row in labels)
    assert ('<tr data-case="rollback"><td data-field="case">rollback</td><td '
            'data-field="recall">1.00</td><td data-field="support">1.00</td>') \
        in panel.scores.value
    assert "chunks of at most 100 characters" in panel.snapshot()
    with pytest.raises(ValueError, match="size must be a whole number from 20 to 160"):
        chunk_size_explorer(sentences, size=5)
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
