"""``ragscore import trec`` keeps the dataset in columns and writes its folder from them: the
same files, byte for byte, as saving import_trec's dataset of Python objects; and the
dataset's corpus, cases and runs read as the dicts they stand for."""
import random

import pytest

import ragscore
from ragscore.engine.columnar.trec_folder import TrecRuns, columns_of
from ragscore.importers.trec import import_trec, import_trec_columns

DOCS = ["d1", "d10", "d2", "D5", "a", "z", "\u00e9t\u00e9", "doc-1#chunk-2", 'say"hi"',
        "back\\slash", "FBIS3-10082", "\u4e2d\u6587"]


def _files(tmp_path, rng):
    questions = [f"q{number}" for number in range(rng.randint(1, 9))] + ['q"7\\']
    qrels = [f"{qid} 0 {doc} {rng.choice([-2, 0, 1, 2, 3])}\n"
             for qid in questions if rng.random() < 0.8
             for doc in rng.sample(DOCS, rng.randint(1, 6))] or [f"{questions[0]} 0 d1 1\n"]
    rng.shuffle(qrels)
    paths = []
    for file_number in range(rng.randint(1, 2)):
        lines = []
        for tag in (f"run{file_number}a", f"run{file_number}b")[:rng.randint(1, 2)]:
            for qid in rng.sample(questions, rng.randint(1, len(questions))):
                lines += [f"{qid}\tQ0\t{doc}\t{rank}\t{rng.choice(['1', '2.5', '2.5', '-1'])}"
                          f"\t{tag}\n"
                          for rank, doc in enumerate(rng.sample(DOCS, rng.randint(1, 8)), 1)]
        if rng.random() < 0.5:
            rng.shuffle(lines)
        paths.append(tmp_path / f"run{file_number}.txt")
        paths[-1].write_text("".join(lines), encoding="utf-8")
    (tmp_path / "qrels.txt").write_text("".join(qrels), encoding="utf-8")
    return tmp_path / "qrels.txt", paths


def _folder_bytes(folder):
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize("seed", range(16))
def test_the_folder_written_from_columns_is_the_folder_of_the_dataset(tmp_path, seed):
    rng = random.Random(seed)
    qrels, runs = _files(tmp_path, rng)
    options = [{}, {"max_depth": 2}, {"missing_run": "skip"},
               {"min_relevance": 2, "missing_run": "skip", "max_depth": 1}][seed % 4]
    kept, kept_notes = import_trec_columns(qrels, runs, name="x", **options)
    assert columns_of(kept) is not None  # read in columns, not line by line
    plain, plain_notes = import_trec(qrels, runs, name="x", **options)
    assert kept_notes == plain_notes
    assert _folder_bytes(ragscore.save_dataset(kept, tmp_path / "kept")) == \
        _folder_bytes(ragscore.save_dataset(plain, tmp_path / "plain"))
    # and the mappings read as the dicts they stand for
    assert dict(kept.corpus) == plain.corpus and list(kept.corpus) == list(plain.corpus)
    assert dict(kept.cases) == plain.cases and list(kept.cases) == list(plain.cases)
    assert {case: dict(systems) for case, systems in kept.runs.items()} == plain.runs
    assert list(kept.runs) == list(plain.runs) and kept.systems == plain.systems
    assert sum(map(len, kept.runs.values())) == sum(map(len, plain.runs.values()))


def test_a_kept_dataset_changed_in_part_is_saved_as_plain_dicts(tmp_path):
    qrels, runs = _files(tmp_path, random.Random(3))
    kept, _ = import_trec_columns(qrels, runs, name="x")
    changed = kept._replace(runs={case: dict(systems) for case, systems in kept.runs.items()})
    assert columns_of(changed) is None
    plain, _ = import_trec(qrels, runs, name="x")
    assert _folder_bytes(ragscore.save_dataset(changed, tmp_path / "a")) == \
        _folder_bytes(ragscore.save_dataset(plain, tmp_path / "b"))
    assert isinstance(kept.runs, TrecRuns)
