"""The span rule by hand: chunk labels derived from spans of documents (relevance with its
overlap option, full and partial support, the strict rule generalised), the equality with
today's strict rule where chunks hold their evidence whole, and spans moved to a new
version of a document: kept, moved, orphaned, ambiguous."""
import random

import pytest

from ragscore.core.counts import claim_cutoff, ranks_of
from ragscore.core.spans import (Chunking, ClaimChunks, anchor, check_offsets, chunk_level,
                                 derive_case, document_version, support_level)

#: "The window starts on Monday." cut in three: a = [0, 11), b = [11, 21), c = [21, 28).
TEXT = "The window starts on Monday."
CHUNKS = Chunking({"a": ("d", 0, 11), "b": ("d", 11, 21), "c": ("d", 21, 28)})


def test_a_span_inside_one_chunk_makes_that_chunk_full_and_relevant():
    evidence = [("monday", "d", 21, 27)]  # "Monday", inside c
    found = derive_case([("d", 21, 27, 2)], evidence, CHUNKS)
    assert found.relevant == {"c": 2}
    assert found.support == {"monday": ClaimChunks(full=("c",), partial=())}
    assert found.evidence == {}  # no partial chunk: no citation list can fall short
    assert support_level(("c",), ((("d", 21, 27)),), CHUNKS.positions.get) == "full"


def test_a_span_across_two_chunks_is_supported_only_when_both_are_cited():
    span = ("d", 11, 27)  # "starts on Monday": 10 characters in b, 6 in c
    found = derive_case([], [("monday", *span)], CHUNKS)
    assert found.support["monday"] == ClaimChunks(full=(), partial=("b", "c"))
    assert found.relevant == {"b": 1, "c": 1}  # evidence is relevant at the lowest grade
    level = found.evidence["monday"].level
    assert level(("b", "c")) == "full"
    assert level(("c", "b")) == "full"  # order of citations does not matter
    assert level(("b",)) == "partial"
    assert level(("c",)) == "partial"
    assert level(("a", "b", "c")) == "partial"  # a extra chunk outside the evidence spoils it
    assert level(("a",)) is None
    assert level(()) is None


def test_several_evidence_spans_are_alternatives():
    spans = (("d", 4, 10), ("d", 21, 27))  # "window" in a, "Monday" in c
    assert support_level(("a",), spans, CHUNKS.positions.get) == "full"
    assert support_level(("c",), spans, CHUNKS.positions.get) == "full"
    assert support_level(("a", "c"), spans, CHUNKS.positions.get) == "full"
    assert support_level(("b",), spans, CHUNKS.positions.get) is None


def test_covering_needs_every_character_of_one_span_not_pieces_of_two():
    chunks = Chunking({"x": ("d", 0, 5), "y": ("d", 5, 10), "z": ("d", 10, 15)})
    spans = (("d", 3, 7), ("d", 8, 12))  # x+y cover the first, y+z the second
    where = chunks.positions.get
    assert support_level(("x", "y"), spans, where) == "full"
    assert support_level(("y", "z"), spans, where) == "full"
    assert support_level(("x", "z"), spans, where) == "partial"  # neither span whole


def test_min_overlap_is_the_characters_a_chunk_must_hold_of_a_relevant_span():
    # "starts on Monday" = [11, 27): b holds 10 characters of it, c holds 6
    assert derive_case([("d", 11, 27, 2)], [], CHUNKS).relevant == {"b": 2, "c": 2}
    assert derive_case([("d", 11, 27, 2)], [], CHUNKS, min_overlap=7).relevant == \
        {"b": 2, "c": 0}
    assert derive_case([("d", 11, 27, 2)], [], CHUNKS, min_overlap=11).relevant == \
        {"b": 0, "c": 0}
    # a span shorter than min_overlap counts when a chunk holds all of it
    assert derive_case([("d", 21, 24, 1)], [], CHUNKS, min_overlap=50).relevant == {"c": 1}
    with pytest.raises(ValueError, match="min_overlap must be a whole number of at least 1"):
        derive_case([], [], CHUNKS, min_overlap=0)


def test_a_chunk_takes_the_highest_grade_of_the_spans_it_holds():
    spans = [("d", 0, 3, 1), ("d", 4, 10, 2), ("d", 12, 14, 0)]
    assert derive_case(spans, [], CHUNKS).relevant == {"a": 2, "b": 0}


def test_spans_no_chunk_holds_are_reported_unreached():
    gappy = Chunking({"a": ("d", 0, 10), "c": ("d", 21, 28)})  # 10..21 dropped
    found = derive_case([("d", 12, 20, 1)], [("monday", "d", 12, 20)], gappy)
    assert found.relevant == {}
    assert found.support == {}
    assert found.unreached == (("d", 12, 20, 1), ("monday", "d", 12, 20))


def test_chunk_level_per_cited_chunk():
    spans = (("d", 11, 27),)
    assert [chunk_level(CHUNKS.positions[chunk], spans) for chunk in "abc"] == \
        [None, "partial", "partial"]
    assert chunk_level(("d", 0, 28), spans) == "full"
    assert chunk_level(("e", 0, 28), spans) is None  # another document


def test_overlapping_finds_exactly_the_chunks_sharing_a_character():
    rng = random.Random(33)
    for _ in range(300):
        positions = {}
        for number in range(rng.randint(1, 12)):
            start = rng.randint(0, 40)
            positions[f"c{number}"] = ("d", start, start + rng.randint(1, 15))
        chunking = Chunking(positions)
        start = rng.randint(0, 50)
        end = start + rng.randint(1, 10)
        expected = sorted(chunk for chunk, (_, s, e) in positions.items()
                          if s < end and e > start)
        assert sorted(chunk for chunk, _, _ in chunking.overlapping("d", start, end)) == \
            expected


def test_first_overlap_names_two_chunks_sharing_a_character():
    assert CHUNKS.first_overlap() is None
    assert Chunking({"a": ("d", 0, 10), "b": ("d", 10, 20), "c": ("d", 15, 30)}
                    ).first_overlap() == ("d", "b", "c")
    assert Chunking({"big": ("d", 0, 30), "x": ("d", 5, 8)}).first_overlap() == \
        ("d", "big", "x")


def test_the_generalised_rule_is_todays_rule_when_chunks_hold_their_evidence_whole():
    """Random non-overlapping chunkings whose chunks each contain an evidence span whole (or
    none of it): the generalised rule (full, every citation visible) decides exactly as
    claim_cutoff over the full chunks does, at every k."""
    rng = random.Random(7)
    for _ in range(400):
        cuts = sorted(rng.sample(range(1, 60), rng.randint(2, 8)))
        bounds = [0, *cuts, 60]
        positions = {f"c{i}": ("d", bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)}
        chunking = Chunking(positions)
        spans = []
        for chunk in rng.sample(sorted(positions), rng.randint(1, 3)):
            _, start, end = positions[chunk]
            inner = rng.randint(start, end - 1)
            spans.append(("x", "d", inner, rng.randint(inner + 1, end)))
        derived = derive_case([], spans, chunking)
        assert derived.support["x"].partial == ()
        full = set(derived.support["x"].full)
        ranking = tuple(rng.sample(sorted(positions), len(positions)))
        rank_of = ranks_of(full, ranking)
        for _ in range(5):
            cited = tuple(rng.sample(sorted(positions), rng.randint(0, 3)))
            today = claim_cutoff(cited, full, rank_of)
            level = support_level(cited, tuple(span[1:] for span in spans), positions.get)
            ranks = [ranking.index(chunk) + 1 for chunk in cited]
            generalised = max(ranks) if level == "full" and ranks else None
            assert generalised == today, (spans, cited, ranking)


@pytest.mark.parametrize("start, end, message", [
    (0, 30, r"field 'end' must be at most the document's length \(28 code points\); got 30"),
    (5, 5, r"field 'end' must be greater than 'start' \(5\): a span holds at least one "
           "character; got 5"),
    (9, 3, r"field 'end' must be greater than 'start' \(9\)"),
    (-1, 3, "field 'start' must be 0 or more; got -1"),
    (1.0, 3, r"field 'start' must be a whole number \(an offset in code points\); got 1.0"),
    (True, 3, "field 'start' must be a whole number .* got True"),
    (0, "3", "field 'end' must be a whole number .* got '3'"),
])
def test_offsets_are_checked_with_the_field_named(start, end, message):
    with pytest.raises(ValueError, match="^line 4: " + message):
        check_offsets(start, end, len(TEXT), "line 4")


def test_offsets_count_code_points():
    text = "Café 🚀 opens Monday."
    assert text[7:13] == "opens "  # the rocket is one code point
    check_offsets(7, 13, len(text), "here")
    assert derive_case([("d", 7, 12, 1)], [], Chunking({"x": ("d", 0, 7),
                                                         "y": ("d", 7, len(text))})
                       ).relevant == {"y": 1}


OLD = "The window starts on Monday. Bring the checklist."


def test_an_edit_above_the_evidence_moves_it():
    new = "Read me first. " + OLD
    found = anchor("starts on Monday", 11, "v1", ("v2", new))
    assert (found.status, found.start, found.end) == ("moved", 26, 42)
    assert new[26:42] == "starts on Monday"


def test_an_edit_inside_the_evidence_orphans_it():
    new = OLD.replace("Monday", "Tuesday")
    assert anchor("starts on Monday", 11, "v1", ("v2", new)).status == "orphaned"
    assert anchor("starts on Monday", 11, "v1", None).status == "orphaned"  # doc removed


def test_a_duplicated_paragraph_makes_it_ambiguous_never_guessed():
    new = OLD + " " + OLD
    found = anchor("starts on Monday", 11, "v1", ("v2", new))
    assert (found.status, found.start, found.end) == ("ambiguous", None, None)


def test_an_edit_elsewhere_keeps_it_where_it_was():
    new = OLD.replace("checklist", "list")
    assert anchor("starts on Monday", 11, "v1", ("v2", new)) == ("kept", 11, 27)
    # the same version is kept without a search, even when the text repeats elsewhere
    assert anchor("Monday", 21, "v1", ("v1", OLD + " Monday")) == ("kept", 21, 27)


def test_a_version_is_the_content_hash_by_default():
    assert document_version(OLD) == document_version(str(OLD))
    assert document_version(OLD) != document_version(OLD + " ")
    assert len(document_version(OLD)) == 16
