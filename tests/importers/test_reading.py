"""The progress of ``ragscore import``: the bytes of the input files read, as a bar with a
percentage on a terminal (a real pseudo-terminal here), nothing at all on a pipe."""
import os
import pty
import select
import sys
from pathlib import Path

import pytest

from ragscore.cli import main
from ragscore.io import input_bytes as _reading
from ragscore.io.input_bytes import bytes_reported, input_bytes
from ragscore.importers.trec import import_trec

TREC = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "trec"
FILES = [TREC / "qrels.txt", TREC / "bm25.run", TREC / "dense.run"]


def test_every_byte_of_the_inputs_is_reported_once():
    reports = []
    with bytes_reported(reports.append):
        import_trec(FILES[0], FILES[1:], missing_run="skip")
    # the runs are read twice (the columnar reader declines these hand-made files, the
    # line reader reads them again), yet each file counts once: the last report is the
    # three files' sizes
    assert reports == sorted(reports) and reports[-1] == sum(
        path.stat().st_size for path in FILES)
    assert input_bytes([str(FILES[0]), [str(FILES[1]), str(FILES[2])], None, 3]) == sum(
        path.stat().st_size for path in FILES)
    assert input_bytes([str(TREC)]) == sum(path.stat().st_size for path in TREC.iterdir())
    import_trec(FILES[0], FILES[1:], missing_run="skip")  # no report active: not counted
    assert len(reports) == 3


def test_a_file_read_in_columns_is_reported_when_its_rankings_are_made(tmp_path):
    qrels, run = tmp_path / "qrels.txt", tmp_path / "plain.run"
    qrels.write_text("q1 0 a 1\nq2 0 b 1\n")
    run.write_text("q1 Q0 a 1 2.5 s\nq2 Q0 c 1 1.5 s\n")
    reports = []
    with bytes_reported(reports.append):
        import_trec(qrels, run)
    # both plain: each file read at once and reported once, whole, when it is done with
    assert reports == [qrels.stat().st_size, qrels.stat().st_size + run.stat().st_size]


def test_a_file_read_in_columns_is_not_reported_before_its_work_is_done(tmp_path,
                                                                         monkeypatch):
    # a file read whole and counted as it is read would also give one report of its size:
    # what shows the report waits for the work is that none has come when the work starts
    from ragscore.engine.columnar import trec as _trec_columns

    qrels, run = tmp_path / "qrels.txt", tmp_path / "plain.run"
    qrels.write_text("q1 0 a 1\nq2 0 b 1\n")
    run.write_text("q1 Q0 a 1 2.5 s\nq2 Q0 c 1 1.5 s\n")
    reports, at_work = [], []
    table = _trec_columns.table_of

    def noting_table(*args, **kwargs):  # each file's parsing starts
        at_work.append(list(reports))
        return table(*args, **kwargs)

    monkeypatch.setattr(_trec_columns, "table_of", noting_table)
    with bytes_reported(reports.append):
        import_trec(qrels, run)
    assert at_work == [[], [qrels.stat().st_size]]


def _slow_reads(monkeypatch):
    """Each read that returns bytes pauses, so the progress thread (redrawing every 0.1 s,
    from the start: no delay) draws the share read so far between reads."""
    import time

    from ragscore.render import progress

    monkeypatch.setattr(progress, "DELAY", 0.0)
    counting = _reading._CountingFile
    readinto, readall = counting.readinto, counting.readall

    def slow_readinto(self, buffer):
        count = readinto(self, buffer)
        time.sleep(0.3 if count else 0)
        return count

    def slow_readall(self):
        data = readall(self)
        time.sleep(0.3 if data else 0)
        return data

    monkeypatch.setattr(counting, "readinto", slow_readinto)
    monkeypatch.setattr(counting, "readall", slow_readall)


def _import(tmp_path, stream, monkeypatch):
    monkeypatch.setattr(sys, "stderr", stream)
    code = main(["import", "trec", "--qrels", str(FILES[0]), "--run", str(FILES[1]),
                 "--run", str(FILES[2]), "--missing-run", "skip", "--out",
                 str(tmp_path / "out")])
    stream.flush()
    return code


def _drain(descriptor):
    found = b""
    while select.select([descriptor], [], [], 0.2)[0]:
        try:
            chunk = os.read(descriptor, 65536)
        except OSError:  # a pseudo-terminal's other end closed
            break
        if not chunk:
            break
        found += chunk
    return found.decode()


def test_a_terminal_sees_the_share_of_bytes_read(tmp_path, monkeypatch):
    _slow_reads(monkeypatch)
    controller, terminal = pty.openpty()
    stream = os.fdopen(terminal, "w")
    try:
        assert _import(tmp_path, stream, monkeypatch) == 0
        shown = _drain(controller)
    finally:
        stream.close()
        os.close(controller)
    total = sum(path.stat().st_size for path in FILES) / 1e6
    assert "ragscore: importing (trec) [" in shown
    # after the qrels (the first file read) some share is shown, then all of it
    shares = [part.split("%")[0].split()[-1] for part in shown.split("\r") if "%" in part]
    assert shares and all(share.isdigit() for share in shares), shown
    assert 0 < int(shares[0]) < 100 and "100" in shares, shares
    assert f"/{total:,.1f} MB" in shown
    assert shown.endswith("\r")  # wiped before the results


def test_a_pipe_sees_nothing(tmp_path, monkeypatch):
    _slow_reads(monkeypatch)
    reader, writer = os.pipe()
    stream = os.fdopen(writer, "w")
    try:
        assert _import(tmp_path, stream, monkeypatch) == 0
    finally:
        stream.close()
    with os.fdopen(reader) as pipe:
        assert pipe.read() == ""


@pytest.mark.parametrize("kind", ["beir"])
def test_a_folder_import_counts_the_folder(kind):
    folder = TREC.parent / kind
    assert input_bytes([str(folder)]) == sum(path.stat().st_size for path in
                                             folder.rglob("*") if path.is_file())


def test_a_folder_is_counted_two_levels_deep_only(tmp_path):
    """A folder named by mistake (``--folder /``) is not walked to its end for a progress
    line: the folder and its sub-folders count (BEIR's qrels/), nothing deeper."""
    (tmp_path / "a" / "b").mkdir(parents=True)
    for path, size in ((tmp_path / "top", 3), (tmp_path / "a" / "one", 5),
                       (tmp_path / "a" / "b" / "deep", 7)):
        path.write_bytes(b"x" * size)
    assert input_bytes([str(tmp_path)]) == 3 + 5
