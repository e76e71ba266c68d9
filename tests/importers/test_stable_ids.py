"""Stable chunk IDs (issue 44 item 4): LlamaIndex draws a random UUID for every node, so the
same chunker run twice names the same chunks differently and no recorded run survives a
rechunk. With --stable-ids, import spans and rechunk name each LlamaIndex or LangChain chunk
by its place, DOC@START-END, and rename the runs' IDs with them."""
import json
import uuid
from pathlib import Path

import pytest

from ragscore import DatasetFileError, InvalidInputError
from ragscore.cli import main
from ragscore.folders import load_dataset
from ragscore.importers.chunkings import read_chunks
from ragscore.importers.spans import import_spans
from ragscore.io.jsonl import MAX_FILE_BYTES

SPANS = Path(__file__).resolve().parents[2] / "fixtures" / "spans"
#: The course's sentence chunks and their places (fixtures/spans/chunks-sentences.jsonl).
PLACES = {"launch": "release-notes@0-46", "rollback": "release-notes@47-91",
          "checklist": "release-notes@92-127", "owners": "team-notes@0-41",
          "archive": "team-notes@42-91"}


def _llamaindex_run(tmp_path, name, seed):
    """The LlamaIndex dump of the course's chunking as a second run of the chunker writes it:
    the same nodes, new random IDs; and the runs naming those IDs."""
    nodes = [json.loads(line) for line in (SPANS / "chunks-llamaindex.jsonl").open()]
    by_place = {(node["relationships"]["1"]["node_id"], node["start_char_idx"],
                 node["end_char_idx"]): node for node in nodes}
    ids = {}
    for chunk, place in PLACES.items():
        doc, offsets = place.split("@")
        start, end = map(int, offsets.split("-"))
        node = by_place[doc, start, end]
        node["id_"] = ids[chunk] = str(uuid.UUID(int=seed * 100 + len(ids)))
    chunks = tmp_path / f"{name}-chunks.jsonl"
    chunks.write_text("".join(json.dumps(node) + "\n" for node in nodes))
    runs = tmp_path / f"{name}-runs.jsonl"
    lines = []
    for line in (SPANS / "runs-sentences.jsonl").open():
        run = json.loads(line)
        run["retrieved"] = [ids[chunk] for chunk in run["retrieved"]]
        for claim in run.get("claims") or ():
            claim["citations"] = [ids[chunk] for chunk in claim["citations"]]
        lines.append(json.dumps(run) + "\n")
    runs.write_text("".join(lines))
    return chunks, runs


def _import(chunks, runs, **options):
    return import_spans(SPANS / "documents.jsonl", SPANS / "questions.jsonl", chunks,
                        runs=runs, reviewer="ana", date="2026-12-04",
                        max_bytes=MAX_FILE_BYTES, **options)


def test_stable_ids_name_chunks_by_place_and_rename_the_runs(tmp_path):
    chunks, runs = _llamaindex_run(tmp_path, "first", 1)
    dataset, notes = _import(chunks, runs, stable=True)
    assert sorted(dataset.corpus) == sorted(PLACES.values())
    # the course's run A on launch retrieved launch, archive and cited launch for monday
    assert dataset.runs["launch"]["A"]["retrieved"] == (PLACES["launch"], PLACES["archive"])
    assert dataset.runs["launch"]["A"]["claims"] == (("monday", (PLACES["launch"],)),)
    assert notes["chunking"].endswith("each named by its place, DOC@START-END (--stable-ids)")
    # the same chunking from the course's own IDs imports to the same places
    plain, _ = _import(SPANS / "chunks-sentences.jsonl", SPANS / "runs-sentences.jsonl")
    assert {PLACES[chunk]: place for chunk, place in plain.positions.items()} == \
        dataset.positions


def test_a_rechunk_with_new_random_ids_keeps_every_run_only_with_stable_ids(tmp_path,
                                                                          capsys):
    first_chunks, first_runs = _llamaindex_run(tmp_path, "first", 1)
    second_chunks, _ = _llamaindex_run(tmp_path, "second", 2)
    for stable in (True, False):
        folder = tmp_path / f"first-{stable}"
        flag = ["--stable-ids"] * stable
        assert main(["import", "spans", "--documents", str(SPANS / "documents.jsonl"),
                     "--questions", str(SPANS / "questions.jsonl"), "--chunks",
                     str(first_chunks), "--runs", str(first_runs), "--reviewer", "ana",
                     *flag, "--out", str(folder)]) == 0
        again = tmp_path / f"second-{stable}"
        assert main(["rechunk", str(folder), "--chunks", str(second_chunks), *flag, "--out",
                     str(again), "--report", str(tmp_path / f"report-{stable}.json")]) == 0
        out = capsys.readouterr().out
        # runs-sentences.jsonl: 4 questions x systems A and B = 8 runs; region B
        # retrieved nothing, so it names no chunk and survives any rechunk
        assert sum(len(per_case) for per_case in load_dataset(folder).runs.values()) == 8
        carried = sum(len(per_case) for per_case in load_dataset(again).runs.values())
        if stable:  # the same places, the same IDs: every run carried
            assert carried == 8 and "8 runs carried, 0 left out" in out
        else:  # new random IDs: every run naming a chunk left out
            assert carried == 1 and "1 runs carried, 7 left out" in out


def test_stable_ids_refuse_a_chunking_that_names_its_own_chunks():
    with pytest.raises(InvalidInputError, match="a ragscore chunking names its own chunks"):
        read_chunks(SPANS / "chunks-sentences.jsonl", stable=True, max_bytes=MAX_FILE_BYTES)


def test_two_chunks_at_one_place_cannot_have_stable_ids(tmp_path):
    nodes = [json.loads(line) for line in (SPANS / "chunks-llamaindex.jsonl").open()]
    nodes.append(dict(nodes[0], id_="a-copy"))
    path = tmp_path / "chunks.jsonl"
    path.write_text("".join(json.dumps(node) + "\n" for node in nodes))
    with pytest.raises(DatasetFileError, match=f"{path}, line 6 \\(chunk 'a-copy'\\): it lies "
                                               f"at the place of {path}, line 1 "
                                               "\\('release-notes@0-46'\\)"):
        read_chunks(path, stable=True, max_bytes=MAX_FILE_BYTES)


def test_langchain_chunks_take_stable_ids_too():
    placed, layout = read_chunks(SPANS / "chunks-langchain.jsonl", stable=True,
                                 max_bytes=MAX_FILE_BYTES)
    assert layout == "langchain" and sorted(placed) == sorted(PLACES.values())
