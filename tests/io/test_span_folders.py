"""Span test sets in folders: the import (three chunk layouts), every broken input refused
with its file, line and field, the course as spans scoring as the course, a chunking of
whole documents scoring as --unit document, re-chunking and re-versioning (kept, moved,
orphaned, ambiguous; runs carried or left out) and a chunk-ID test set anchored in its
documents. Expected values are the course's, or worked by hand in the comments."""
import json
import shutil
from pathlib import Path

import pytest

from ragscore.core.metrics import CONTRACT, REGISTRY
from ragscore.engine import ENGINES, count_dataset, count_folder
from ragscore.folders import load_dataset, save_dataset
from ragscore.importers.chunkings import read_chunks
from ragscore.importers.spans import import_spans
from ragscore.io.answers import labelled
from ragscore.io.course import load_course
from ragscore.io.jsonl import MAX_FILE_BYTES
from ragscore.io.rechunk import anchor_chunks, rechunk, span_report
from tests.folder_edits import rehash

SPANS = Path(__file__).resolve().parents[2] / "fixtures" / "spans"
RELEASE = ("The fictional release window starts on Monday. Switch traffic back to the "
           "previous version. After rollback, run the smoke test.")
TEAM = "The fictional Aurora team owns the alert. An old planning note discusses a retired project."
PROVENANCE = {"reviewer": "ana", "date": "2026-12-04", "origin": "human",
              "batch": "0123456789abcdef"}


def imported(chunks="chunks-sentences.jsonl", runs="runs-sentences.jsonl", **options):
    return import_spans(SPANS / "documents.jsonl", SPANS / "questions.jsonl", SPANS / chunks,
                        runs=None if runs is None else SPANS / runs, reviewer="ana",
                        date="2026-12-04", max_bytes=MAX_FILE_BYTES, **options)[0]


def values(counted, k):
    return {metric: counted.values(REGISTRY[metric], k) for metric in CONTRACT}


@pytest.mark.parametrize("engine", ENGINES)
def test_the_course_as_spans_scores_exactly_as_the_course(tmp_path, engine):
    """Sentence chunks hold their evidence whole: the span rule is today's rule there."""
    folder = save_dataset(imported(), tmp_path / "sentences")
    course = count_dataset(load_course(), engine=engine)
    spans = count_folder(folder, engine=engine)
    assert spans.keys == course.keys
    for k in (1, 2, 3):
        assert values(spans, k) == values(course, k)


def test_the_derived_labels_of_the_course_are_the_course_labels(tmp_path):
    folder = save_dataset(imported(), tmp_path / "sentences")
    cases = labelled(load_dataset(folder)).dataset.cases
    for name, case in load_course().cases.items():
        assert {doc for doc, grade in cases[name]["relevant"].items() if grade > 0} == \
            set(case["relevant"])
        assert {claim: set(sources) for claim, sources in (cases[name].get("support")
                                                           or {}).items()} == \
            {claim: set(sources) for claim, sources in case["support"].items()}


@pytest.mark.parametrize("chunks, layout", [("chunks-llamaindex.jsonl", "llamaindex"),
                                            ("docstore.json", "llamaindex"),
                                            ("chunks-langchain.jsonl", "langchain"),
                                            ("chunks-sentences.jsonl", "ragscore")])
def test_llamaindex_and_langchain_chunkings_place_the_same_chunks(chunks, layout):
    placed, read_as = read_chunks(SPANS / chunks, max_bytes=MAX_FILE_BYTES)
    assert read_as == layout
    assert sorted((doc, start, end) for doc, start, end, *_ in placed.values()) == [
        ("release-notes", 0, 46), ("release-notes", 47, 91), ("release-notes", 92, 127),
        ("team-notes", 0, 41), ("team-notes", 42, 91)]
    if layout == "langchain":  # no ID in the dump: DOC@START
        assert list(placed)[:2] == ["release-notes@0", "release-notes@47"]
    dataset = imported(chunks, runs=None)
    derived = labelled(dataset).spans.cases["rollback"]
    by_place = {dataset.positions[chunk][1:]: grade for chunk, grade in
                derived.relevant.items()}
    assert by_place == {(47, 91): 1, (92, 127): 1}


def write(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def copy_inputs(tmp_path):
    for name in ("documents.jsonl", "questions.jsonl", "chunks-sentences.jsonl"):
        shutil.copy(SPANS / name, tmp_path / name)
    return tmp_path


def import_from(folder, **options):
    return import_spans(folder / "documents.jsonl", folder / "questions.jsonl",
                        folder / "chunks-sentences.jsonl", reviewer="ana", date="2026-12-04",
                        max_bytes=MAX_FILE_BYTES, **options)


def broken_chunk(tmp_path, line, **changes):
    folder = copy_inputs(tmp_path)
    rows = [json.loads(text) for text in (folder / "chunks-sentences.jsonl").open()]
    rows[line - 1].update(changes)
    write(folder / "chunks-sentences.jsonl", rows)
    return folder


@pytest.mark.parametrize("line, changes, message", [
    (2, {"end": 500}, "field 'end' must be at most the document's length (127 code points); "
                      "got 500"),
    (3, {"start": 100, "end": 95}, "field 'end' must be greater than 'start' (100)"),
    (1, {"start": "0"}, "field 'start' must be a whole number"),
    (4, {"end": 41.0}, "field 'end' must be a whole number"),
    (5, {"doc": "wiki"}, "field 'doc' must name a document of the documents file; got "
                         "'wiki'"),
    (2, {"start": 40}, "it shares characters of document 'release-notes' with chunk "
                       "'launch'"),
    (3, {"id": "launch"}, "duplicate chunk id 'launch' (first at"),
])
def test_a_broken_chunk_is_refused_with_its_file_line_and_field(tmp_path, line, changes,
                                                                message):
    folder = broken_chunk(tmp_path, line, **changes)
    with pytest.raises(ValueError) as error:
        import_from(folder)
    assert f"chunks-sentences.jsonl, line {line}" in str(error.value)
    assert message in str(error.value)


def test_overlapping_chunks_import_when_allowed(tmp_path):
    folder = broken_chunk(tmp_path, 2, start=40)  # rollback now starts inside launch
    dataset, _ = import_from(folder, allow_overlap=True)
    saved = load_dataset(save_dataset(dataset, tmp_path / "out"))
    assert saved.overlapping_chunks is True
    derived = labelled(saved).spans.cases["launch"]
    # evidence "release window starts on Monday" = [14, 45): launch holds it whole, the
    # widened rollback chunk [40, 91) holds "onday" of it
    assert derived.support["monday"] == (("launch",), ("rollback",))


def broken_question(tmp_path, change):
    folder = copy_inputs(tmp_path)
    rows = [json.loads(text) for text in (folder / "questions.jsonl").open()]
    change(rows)
    write(folder / "questions.jsonl", rows)
    return folder


@pytest.mark.parametrize("change, line, message", [
    (lambda rows: rows[0]["relevant"][0].update(end=999), 1,
     "relevant[0]: field 'end' must be at most the document's length (127 code points)"),
    (lambda rows: rows[1]["evidence"][1].update(start=120, end=110), 2,
     "evidence[1]: field 'end' must be greater than 'start' (120)"),
    (lambda rows: rows[2]["evidence"][0].update(start=1.5), 3,
     "evidence[0]: field 'start' must be a whole number"),
    (lambda rows: rows[2]["relevant"][0].update(doc="wiki"), 3,
     "relevant[0]: field 'doc' must name a document of the documents file; got 'wiki'"),
    (lambda rows: rows[0]["relevant"][0].update(grade="high"), 1,
     "relevant[0]: field 'grade' must be a whole number"),
    (lambda rows: rows[3].update(id="launch"), 4, "duplicate question id 'launch' (first on "
                                                  "line 1)"),
    (lambda rows: rows[0].update(answerable=False), 1,
     "question 'launch' is answerable: false, yet lists evidence"),
    (lambda rows: rows[0]["evidence"][0].pop("claim"), 1, "evidence[0]: field 'claim' is "
                                                          "missing"),
    (lambda rows: rows[0].update(relevants=[]), 1, "unknown field 'relevants'"),
])
def test_a_broken_question_is_refused_with_its_file_line_and_field(tmp_path, change, line,
                                                                   message):
    folder = broken_question(tmp_path, change)
    with pytest.raises(ValueError) as error:
        import_from(folder)
    assert f"questions.jsonl, line {line}" in str(error.value)
    assert message in str(error.value)


def test_a_duplicate_document_is_refused_with_its_line(tmp_path):
    folder = copy_inputs(tmp_path)
    write(folder / "documents.jsonl", [{"id": "release-notes", "text": RELEASE},
                                       {"id": "release-notes", "text": TEAM}])
    with pytest.raises(ValueError, match=r"documents.jsonl, line 2: duplicate document id "
                                         "'release-notes'"):
        import_from(folder)


def saved(tmp_path, **options):
    return save_dataset(imported(**options), tmp_path / "sentences")


def edit_index_file(folder, kind, change):
    """Rewrite one data file of a saved folder, renamed to the hash of its new content (a
    file changed in place is refused for that alone), so that reading it meets the change;
    return its new path."""
    index = json.loads((folder / "dataset.json").read_text())
    path = folder / index["files"][kind]
    rows = [json.loads(text) for text in path.open()]
    change(rows)
    write(path, rows)
    return rehash(folder)[kind]


@pytest.mark.parametrize("change, message", [
    (lambda rows: rows[1].update(end=400), "field 'end' must be at most the document's "
                                           "length (127 code points); got 400"),
    (lambda rows: rows[1].update(source="wiki"), "field 'source' must name a document of "
                                                 "the documents file; got 'wiki'"),
    (lambda rows: rows[1].update(text="Switch traffic forward."),
     "field 'text' must be the document's text from 'start' to 'end'"),
    (lambda rows: rows[1].update(version="old"), "field 'version' is 'old', but the "
                                                 "documents file holds version"),
    (lambda rows: [rows[1].pop("start"), rows[1].pop("end")],
     "fields 'start' and 'end' are missing"),
])
def test_a_broken_chunk_in_a_folder_is_refused_with_its_line(tmp_path, change, message):
    folder = saved(tmp_path)
    path = edit_index_file(folder, "corpus", change)
    with pytest.raises(ValueError) as error:
        load_dataset(folder)
    assert f"{path.name}, line 2" in str(error.value)
    assert message in str(error.value)
    with pytest.raises(ValueError, match=message[:30].replace("(", r"\(")):
        count_folder(folder)


def test_a_broken_span_label_in_a_folder_is_refused_with_its_line(tmp_path):
    folder = saved(tmp_path)
    path = edit_index_file(folder, "judgements",
                           lambda rows: rows[0].update(text="The fictional"))
    with pytest.raises(ValueError, match=rf"{path.name}, line 1: field 'text' must hold end "
                                         r"- start = 46 code points; got 13"):
        load_dataset(folder)


def test_one_chunk_per_document_scores_as_unit_document(tmp_path):
    """The sentence chunking scored with --unit document (each chunk stands for its document,
    labels derived on whole documents) equals the chunking of one chunk per document whose
    runs name the documents. By hand at k=2 for system A on 'owner': the ranking
    (archive, owners) collapses to (team-notes), relevant {team-notes}: P@2 = 1/2,
    R@2 = 1, and the claim 'aurora' citing archive now cites team-notes, which holds its
    evidence whole: supported."""
    sentences = count_folder(saved(tmp_path), unit="document", engine="reference")
    documents = count_dataset(imported("chunks-notes.jsonl", "runs-notes.jsonl"),
                              engine="reference")
    assert sentences.keys == documents.keys
    for k in (1, 2, 3):
        assert values(sentences, k) == values(documents, k)
    row = sentences.keys.index(("owner", "A"))
    assert [values(sentences, 2)[name][row] for name in ("precision", "recall", "support")] \
        == [0.5, 1.0, 1.0]
    assert sentences.field("collapsed")[row] == 1


def rechunked(tmp_path, release=RELEASE, team=TEAM, chunks=None):
    """The course span test set moved to new document texts, cut into sentences again."""
    folder = load_dataset(saved(tmp_path))
    documents = {"release-notes": ("v2", release), "team-notes": ("v2", team)}
    placed = {}
    for doc, (_, text) in documents.items():
        start = 0
        for number, sentence in enumerate(text.split(". ")):
            end = start + len(sentence) + (0 if sentence.endswith(".") else 1)
            placed[f"{doc}#{number}"] = (doc, start, end, None, None, f"line {number}")
            start = end + 1
    from ragscore.io.documents import Placed

    placed = {chunk: Placed(*place) for chunk, place in (chunks or placed).items()}
    return rechunk(folder, placed, documents=documents)


def statuses(dataset):
    return {(label["case"], label["kind"], label["claim"]): label["status"]
            for label in span_report(dataset)["labels"]}


def test_a_paragraph_added_above_moves_every_label_below_it(tmp_path):
    changed, left = rechunked(tmp_path, release="Read this first. " + RELEASE)
    found = statuses(changed)
    assert found[("launch", "evidence", "monday")] == "moved"
    assert found[("owner", "evidence", "aurora")] == "kept"  # team-notes did not change
    label = next(item for item in span_report(changed)["labels"]
                 if item["claim"] == "monday")
    assert (label["start"], label["now"]["start"]) == (14, 14 + 17)  # "Read this first. "
    derived = labelled(changed).spans.cases["launch"]
    assert derived.support["monday"].full == ("release-notes#1",)
    # every course run names a chunk now renamed, but region B, which retrieved nothing
    assert left == {"A": ["launch", "rollback", "owner", "region"],
                    "B": ["launch", "rollback", "owner"]}


def test_an_edit_inside_the_evidence_orphans_it_and_the_test_set_still_scores(tmp_path):
    changed, _ = rechunked(tmp_path, team=TEAM.replace("Aurora", "Borealis"))
    found = statuses(changed)
    assert found[("owner", "evidence", "aurora")] == "orphaned"
    assert found[("owner", "span-relevance", None)] == "orphaned"
    assert found[("launch", "evidence", "monday")] == "kept"
    report = span_report(changed)
    assert report["lost"] == 2
    assert report["counts"] == {"kept": 6, "moved": 0, "orphaned": 2, "ambiguous": 0,
                                "unreached": 0}
    from ragscore.io.answers import derive_with_waiting

    notes = derive_with_waiting(changed)[0].notes
    assert "span labels: 2 of 8 lost (2 orphaned, 0 ambiguous, 0 in no chunk)" in notes[-1]


def test_a_duplicated_paragraph_makes_its_labels_ambiguous(tmp_path):
    changed, _ = rechunked(tmp_path, team=TEAM + " " + TEAM)
    found = statuses(changed)
    assert found[("owner", "evidence", "aurora")] == "ambiguous"
    assert found[("owner", "span-relevance", None)] == "ambiguous"
    assert span_report(changed)["counts"]["ambiguous"] == 2


def test_runs_are_carried_only_when_their_chunks_keep_their_text(tmp_path):
    folder = load_dataset(saved(tmp_path))
    placed, _ = read_chunks(SPANS / "chunks-sentences.jsonl", max_bytes=MAX_FILE_BYTES)
    placed["owners"] = placed["owners"]._replace(end=40)  # "...owns the alert" loses "."
    changed, left = rechunk(folder, placed)
    # only the owner runs name 'owners' (both systems retrieved it)
    assert left == {"A": ["owner"], "B": ["owner"]}
    assert {case: sorted(runs) for case, runs in changed.runs.items()} == \
        {"launch": ["A", "B"], "rollback": ["A", "B"], "region": ["A", "B"]}


def test_a_chunk_id_test_set_is_anchored_in_its_documents(tmp_path):
    documents = {"release-notes": ("v1", RELEASE), "team-notes": ("v1", TEAM)}
    anchored, report = anchor_chunks(load_course(), documents, provenance=PROVENANCE)
    # 8 labels: launch 1 relevant + 1 evidence, rollback 2 + 2, owner 1 + 1
    assert report["counts"] == {"kept": 8, "moved": 0, "orphaned": 0, "ambiguous": 0}
    assert report["runs left out"]["count"] == 0
    folder = save_dataset(anchored, tmp_path / "anchored")
    for k in (1, 2, 3):
        assert values(count_folder(folder), k) == values(count_dataset(load_course()), k)


def test_anchoring_never_guesses(tmp_path):
    """'archive' is nowhere in these documents (orphaned), 'owners' twice (ambiguous): both
    are left out, with the labels naming them and every run that names them."""
    documents = {"release-notes": ("v1", RELEASE),
                 "team-notes": ("v1", TEAM.replace("An old planning note discusses a retired "
                                                   "project.", "The fictional Aurora team "
                                                   "owns the alert."))}
    anchored, report = anchor_chunks(load_course(), documents, provenance=PROVENANCE)
    assert report["chunks"] == {"kept": 3, "moved": 0, "orphaned": 1, "ambiguous": 1}
    lost = {(label["case"], label["chunk"], label["status"]) for label in report["labels"]
            if label["status"] != "kept"}
    assert lost == {("owner", "owners", "ambiguous")}  # listed relevant, and aurora's source
    assert report["lost"] == 2
    assert sorted(anchored.corpus) == ["checklist", "launch", "rollback"]
    # every run naming owners or archive; region B retrieved nothing
    assert report["runs left out"] == {"count": 5, "by system": {
        "A": ["launch", "owner", "region"], "B": ["launch", "owner"]}}


@pytest.mark.parametrize("engine", ENGINES)
def test_evidence_cut_in_two_is_supported_only_by_both_halves_visible(tmp_path, engine):
    """'launch' cut at 30: l1 = [0, 30) and l2 = [30, 46) each hold part of the evidence
    [14, 45) of 'monday'. A cites l1 alone: partial, never supported. B cites both: supported
    from k = 2 (l2 is ranked second), not at k = 1. C cites both but retrieved only l1:
    not visible at any k. By hand: support A 0 at k = 1, 2; B 0 at k = 1 and 1 at k = 2;
    C 0 at both; coverage the same (one expected claim)."""
    placed, _ = read_chunks(SPANS / "chunks-sentences.jsonl", max_bytes=MAX_FILE_BYTES)
    from ragscore.io.documents import Placed

    del placed["launch"]
    placed = {"l1": Placed("release-notes", 0, 30, None, None, "line 1"),
              "l2": Placed("release-notes", 30, 46, None, None, "line 2"), **placed}
    dataset = load_dataset(saved(tmp_path))
    changed, _ = rechunk(dataset, placed)
    changed = changed._replace(runs={"launch": {
        "A": {"retrieved": ("l1", "l2"), "claims": (("monday", ("l1",)),)},
        "B": {"retrieved": ("l1", "l2"), "claims": (("monday", ("l1", "l2")),)},
        "C": {"retrieved": ("l1",), "claims": (("monday", ("l1", "l2")),)}}})
    folder = save_dataset(changed, tmp_path / "cut")
    assert labelled(load_dataset(folder)).spans.cases["launch"].support["monday"] == \
        ((), ("l1", "l2"))
    counted = count_folder(folder, engine=engine)
    assert [key for key in counted.keys] == [("launch", "A"), ("launch", "B"), ("launch", "C")]
    for k, expected in ((1, [0.0, 0.0, 0.0]), (2, [0.0, 1.0, 0.0]), (3, [0.0, 1.0, 0.0])):
        assert counted.values(REGISTRY["support"], k) == expected
        assert counted.values(REGISTRY["coverage"], k) == expected
    # both halves are relevant (they hold evidence): R@1 = 1/2, R@2 = 2/2 for A and B
    assert counted.values(REGISTRY["recall"], 1) == [0.5, 0.5, 0.5]
    assert counted.values(REGISTRY["recall"], 2) == [1.0, 1.0, 0.5]


def test_a_span_test_set_queues_no_chunk_for_relevance(tmp_path):
    """Every chunk is judged by the spans: the review queue offers no passage of the pool
    (the course under open rules offers archive, which its lists never graded)."""
    from ragscore.io.review_queue import review_queue

    dataset = load_dataset(saved(tmp_path))
    assert [row for row in review_queue(dataset) if row["kind"] == "relevance"] == []
    chunk_ids = load_course()._replace(ids="open")
    assert [row["doc"] for row in review_queue(chunk_ids) if row["kind"] == "relevance"
            and row["case"] == "launch"] == ["archive"]


def test_two_reviewers_disputing_an_evidence_span_are_audited_and_resolved(tmp_path):
    """ben says the span of 'monday' is not evidence: the item is disputed (the audit names
    it) and resolves conservatively to not evidence, so launch expects no claim any more."""
    from ragscore.tables.audit import audit

    dataset = load_dataset(saved(tmp_path))
    first = next(record for record in dataset.judgements if record["kind"] == "evidence")
    disputed = dataset._replace(judgements=dataset.judgements + (
        dict(first, reviewer="ben", decision="not evidence"),))
    findings = [finding.detail for finding in audit(disputed, k=2).findings
                if finding.kind == "disputed"]
    assert findings == ["evidence for claim 'monday' in span 14-45 'release window starts on "
                        "Monday' disputed: ana evidence, ben not evidence"]
    support = labelled(disputed).dataset.cases["launch"].get("support")
    assert support is None  # its one claim's evidence no longer stands


@pytest.mark.parametrize("record, message", [
    ({"id_": "n1", "text": "x", "start_char_idx": None, "end_char_idx": None,
      "relationships": {"1": {"node_id": "release-notes"}}, "class_name": "TextNode"},
     "node 'n1': fields 'start_char_idx' and 'end_char_idx' must be offsets; got None and "
     "None (LlamaIndex leaves them null when it could not find the node's text"),
    ({"id_": "n1", "text": "x", "start_char_idx": 0, "end_char_idx": 1,
      "class_name": "TextNode"}, "node 'n1' names no document"),
    ({"page_content": "The fictional", "metadata": {"source": "release-notes"}},
     "field 'metadata.start_index' is missing (split with add_start_index=True"),
    ({"page_content": "The fictional", "metadata": {"source": "release-notes",
                                                    "start_index": -1}},
     "the splitter could not find the chunk in its document"),
])
def test_a_chunk_a_pipeline_could_not_place_is_refused_with_its_line(tmp_path, record,
                                                                     message):
    path = write(tmp_path / "chunks.jsonl", [record])
    with pytest.raises(ValueError) as error:
        read_chunks(path, max_bytes=MAX_FILE_BYTES)
    assert str(error.value).startswith(f"{path}, line 1: ")
    assert message in str(error.value)


def _llamaindex_source(row, doc):
    row["relationships"]["1"]["node_id"] = doc


@pytest.mark.parametrize("chunks, line, change, message", [
    ("chunks-llamaindex.jsonl", 2, lambda row: row.update(end_char_idx=500),
     "field 'end_char_idx' must be at most the document's length (127 code points); got 500"),
    ("chunks-llamaindex.jsonl", 1, lambda row: _llamaindex_source(row, "wiki"),
     "field 'relationships[\"1\"].node_id' must name a document of the documents file; "
     "got 'wiki'"),
    ("chunks-llamaindex.jsonl", 4, lambda row: row.update(text="The fictional Borealis team"),
     "field 'text' must be the document's text from 'start_char_idx' to 'end_char_idx'"),
    ("chunks-langchain.jsonl", 3, lambda row: row["metadata"].update(start_index=90),
     "field 'page_content' must be the document's text from 'metadata.start_index' to "
     "'metadata.start_index + the length of page_content'"),
    ("chunks-langchain.jsonl", 5, lambda row: row["metadata"].update(source="wiki"),
     "field 'metadata.source' must name a document of the documents file; got 'wiki'"),
])
def test_a_pipeline_chunk_off_its_document_is_refused_naming_its_own_field(
        tmp_path, chunks, line, change, message):
    rows = [json.loads(text) for text in (SPANS / chunks).open()]
    change(rows[line - 1])
    path = write(tmp_path / chunks, rows)
    with pytest.raises(ValueError) as error:
        import_spans(SPANS / "documents.jsonl", SPANS / "questions.jsonl", path,
                     reviewer="ana", date="2026-12-04", max_bytes=MAX_FILE_BYTES)
    assert str(error.value).startswith(f"{path}, line {line} (chunk ")
    assert message in str(error.value)


def test_langchain_dumpd_and_a_json_array_read_as_the_same_chunks(tmp_path):
    rows = [json.loads(line) for line in (SPANS / "chunks-langchain.jsonl").open()]
    dumped = [{"lc": 1, "type": "constructor", "id": ["langchain", "schema", "document",
                                                      "Document"],
               "kwargs": {"page_content": row["page_content"], "metadata": row["metadata"]}}
              for row in rows]
    as_array = tmp_path / "chunks.json"
    as_array.write_text(json.dumps(dumped))
    placed, layout = read_chunks(as_array, max_bytes=MAX_FILE_BYTES)
    expected, _ = read_chunks(SPANS / "chunks-langchain.jsonl", max_bytes=MAX_FILE_BYTES)
    assert layout == "langchain"
    assert {chunk: place[:3] for chunk, place in placed.items()} == \
        {chunk: place[:3] for chunk, place in expected.items()}
    assert str(placed["release-notes@47"].where) == f"{as_array}, item 1"
