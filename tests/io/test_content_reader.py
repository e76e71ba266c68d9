"""The checking reader of ragscore.io.content: a content-named file read to its end is
compared with its name's hash at the end; one read in part or out of order is hashed in full
when asked; ``unverified`` and plain names read as they are."""
import hashlib
import io

import pytest

from ragscore.io.content import check_handle, named_digest, open_checked, unverified
from ragscore.io.jsonl import DatasetFileError, open_regular

MISMATCH = "its content does not match the hash its name carries"


def test_named_digest():
    assert named_digest("f/runs.0a1b2c3d4e5f6071.parquet") == "0a1b2c3d4e5f6071"
    assert named_digest("runs.jsonl") is None and named_digest("runs.0A1B2C3D4E5F6071.jsonl") \
        is None and named_digest("runs.0a1b.jsonl") is None


def _named(tmp_path, data, *, wrong=False):
    digest = hashlib.sha256(data + (b"x" if wrong else b"")).hexdigest()[:16]
    path = tmp_path / f"cases.{digest}.jsonl"
    path.write_bytes(data)
    return path


def _opened(path):
    return open_checked(path, open_regular(path))


@pytest.mark.parametrize("size", [0, 10, (1 << 20) + 7, 3 << 20])
def test_a_file_read_to_its_end_is_checked_at_the_end(tmp_path, size):
    data = bytes(range(256)) * (size // 256) + b"\n" * (size % 256)
    with _opened(_named(tmp_path, data)) as handle:
        assert b"".join(handle) == data and handle.raw.checked
    with _opened(_named(tmp_path, data, wrong=True)) as handle:
        with pytest.raises(DatasetFileError, match=MISMATCH):
            b"".join(handle)
    with _opened(_named(tmp_path, data, wrong=True)) as handle:
        with pytest.raises(DatasetFileError, match=MISMATCH):
            handle.read()


def test_a_file_read_in_part_or_out_of_order_is_hashed_in_full_when_asked(tmp_path):
    data = b"".join(b'{"n": %d}\n' % number for number in range(300_000))
    path = _named(tmp_path, data)
    with _opened(path) as handle:
        handle.seek(1000)  # a part skipped: no verdict from the reading
        handle.read(5000)
        assert not handle.raw.checked
        check_handle(path, handle)
        assert handle.raw.checked and handle.tell() == 6000
    wrong = _named(tmp_path, data, wrong=True)
    with _opened(wrong) as handle:
        handle.readline()
        with pytest.raises(DatasetFileError, match=MISMATCH):
            check_handle(wrong, handle)
    with _opened(path) as handle:  # read, gone back, read again: one digest, still right
        handle.read(70_000)
        handle.seek(0)
        assert handle.read() == data and handle.raw.checked


def test_unverified_opens_plain_files_and_plain_names_are_not_checked(tmp_path):
    wrong = _named(tmp_path, b"{}\n", wrong=True)
    with unverified():
        handle = _opened(wrong)
    with handle:
        assert isinstance(handle, io.BufferedReader) and not hasattr(handle.raw, "expected")
        assert handle.read() == b"{}\n"
    plain = tmp_path / "cases.jsonl"
    plain.write_bytes(b"{}\n")
    with _opened(plain) as handle:
        assert handle.read() == b"{}\n"
