"""Hunting the importers: each fixture file with one line replaced by generated junk (bad
JSON, wrong types, escape sequences, 2 MB tokens) or by a special file ends in a saved-able
dataset or the package's ValueError naming the file, short and printable; never another
exception, never a hang."""
import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragscore.core.rules import InvalidInputError
from ragscore.io.dataset import check_dataset
from ragscore.importers import import_beir, import_llamaindex, import_llamaindex_results, \
    import_ragas, import_trec

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "import"

#: Each importer, with the fixture files it reads (relative to its folder).
IMPORTERS = {
    "trec": (["trec/qrels.txt", "trec/bm25.run", "trec/dense.run"],
             lambda root: import_trec(root / "trec/qrels.txt",
                                      [root / "trec/bm25.run", root / "trec/dense.run"])),
    "beir": (["beir/corpus.jsonl", "beir/queries.jsonl", "beir/qrels/test.tsv", "beir/bm25.run"],
             lambda root: import_beir(root / "beir", runs=[root / "beir/bm25.run"])),
    "ragas": (["ragas/bm25.csv", "ragas/dense.jsonl"],
              lambda root: import_ragas([(root / "ragas/bm25.csv", "bm25"),
                                         (root / "ragas/dense.jsonl", "dense")])),
    "llamaindex": (["llamaindex/qa.json", "llamaindex/vector.run"],
                   lambda root: import_llamaindex(root / "llamaindex/qa.json",
                                                  runs=[root / "llamaindex/vector.run"])),
    "llamaindex results": (["llamaindex/results.json"],
                           lambda root: import_llamaindex_results(
                               root / "llamaindex/results.json", system="vector")),
}

nasty = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["\x1b[2J", "\x1b]0;owned\x07", "\r", "\x00", "\u2028", "\u202e", "\t\t",
                     "NaN", "{", "[", '"', ",", "'", "\\", "Q0", "-1", "1e999", "\ufeff"]),
    st.builds(lambda char, size: char * size, st.sampled_from(["x", "\x1b", "9", " ", ","]),
              st.sampled_from([3, 1000, 2_000_000])),
)
junk_line = st.lists(nasty, min_size=1, max_size=6).map(lambda parts: "".join(parts))


class _Alarm:
    def __enter__(self):
        def hang(*_):
            raise TimeoutError("the importer blocked")
        self.previous = signal.signal(signal.SIGALRM, hang)
        signal.alarm(10)

    def __exit__(self, *_):
        signal.alarm(0)
        signal.signal(signal.SIGALRM, self.previous)


def _check(error, broken):
    message = str(error)
    assert message and len(message) < 2000, (len(message), message[:300])
    assert message.isprintable(), repr(message[:300])
    assert broken.name in message or broken.parent.name in message, message[:300]


@settings(max_examples=100, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(importer=st.sampled_from(sorted(IMPORTERS)), which=st.integers(0, 3),
       line=st.integers(0, 30), text=junk_line, mode=st.sampled_from(["replace", "insert",
                                                                       "append to"]))
def test_a_junk_line_ends_in_a_dataset_or_a_clear_error(importer, which, line, text, mode):
    files, run = IMPORTERS[importer]
    with tempfile.TemporaryDirectory() as root:
        root = Path(root)
        shutil.copytree(FIXTURES, root, dirs_exist_ok=True)
        broken = root / files[which % len(files)]
        lines = broken.read_text().split("\n")
        number = line % len(lines)
        if mode == "replace":
            lines[number] = text
        elif mode == "insert":
            lines.insert(number, text)
        else:
            lines[number] += text
        broken.write_text("\n".join(lines))
        with _Alarm():
            try:
                dataset, _ = run(root)
            except InvalidInputError as error:
                _check(error, broken)
            else:
                check_dataset(dataset)  # what an import returns can be saved


@pytest.mark.parametrize("importer", sorted(IMPORTERS))
@pytest.mark.parametrize("special", ["fifo", "dev-zero", "directory", "missing"])
def test_special_files_in_place_of_an_input(tmp_path, importer, special):
    files, run = IMPORTERS[importer]
    shutil.copytree(FIXTURES, tmp_path, dirs_exist_ok=True)
    for name in files:
        broken = tmp_path / name
        saved = broken.read_bytes()
        broken.unlink()
        if special == "fifo":
            os.mkfifo(broken)
        elif special == "dev-zero":
            broken.symlink_to("/dev/zero")
        elif special == "directory":
            broken.mkdir()
        with _Alarm(), pytest.raises(InvalidInputError) as caught:
            run(tmp_path)
        _check(caught.value, broken)
        if broken.is_dir() and not broken.is_symlink():
            broken.rmdir()
        elif broken.exists() or broken.is_symlink():
            broken.unlink()
        broken.write_bytes(saved)
