"""Blocks of whole lines (``_common.blocks``): every line once, in order, numbered from 1,
whatever the block size; a line longer than a block, a last line without its ending, a
byte-order mark and a decoding error in a later block."""
import io
import re

import pytest

from ragscore import DatasetFileError
from ragscore.importers._common import blocks, lines

TEXT = "first\nsecond line\n\nx\n" + "a long line " * 20 + "\nlast without ending"


def _blocks(data, size):
    return list(blocks("f.txt", io.BytesIO(data), 1 << 20, size=size))


@pytest.mark.parametrize("size", [1, 2, 3, 7, 16, 1000])
def test_blocks_hold_whole_lines_numbered_in_order(size):
    found = _blocks(TEXT.encode(), size)
    assert "".join(text for _, _, text in found) == TEXT
    numbered = [(number + offset, line) for number, _, text in found
                for offset, line in enumerate(text.split("\n")[:-1] if text.endswith("\n")
                                              else text.split("\n"))]
    assert numbered == list(enumerate(TEXT.split("\n"), start=1))
    assert all(data.decode() == text for _, data, text in found)
    assert all(text.endswith("\n") for _, _, text in found[:-1])


def test_a_byte_order_mark_is_dropped_and_lines_are_read_as_before(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"\xef\xbb\xbfone\ntwo\n")
    assert list(lines(path, 1 << 20)) == [(1, "one"), (2, "two")]
    assert _blocks(b"\xef\xbb\xbfone\n", 2)[0][2] == "one\n"


@pytest.mark.parametrize("size", [4, 64, 1 << 16])
def test_an_undecodable_line_is_named_in_any_block(size):
    data = b"".join(b"line %d\n" % n for n in range(1, 30)) + b"bad \xff here\nafter\n"
    with pytest.raises(DatasetFileError, match=re.escape("f.txt, line 30: not UTF-8 text")):
        _blocks(data, size)


def test_a_file_growing_past_the_limit_is_refused():
    with pytest.raises(DatasetFileError, match="grew past the limit of 10 bytes"):
        list(blocks("f.txt", io.BytesIO(b"12345\n67890\n1\n"), 10, size=4))
