"""Paths given to the readers and to save_dataset: a wrong type, a NUL character or a name
too long for the system is the package's ValueError with a bounded message."""
import pytest

import ragscore
from ragscore import InvalidInputError, load_dataset, save_dataset
from ragscore.engine import count_folder as read_counts


@pytest.mark.parametrize("path, message", [
    (None, r"path must be a str or os\.PathLike naming a folder; got None"),
    (7, r"path must be a str or os\.PathLike naming a folder; got 7"),
    (b"data", r"path must be a str or os\.PathLike naming a folder; got b'data'"),
    ("da\x00ta", r"path must not contain a NUL character; got 'da\\x00ta'"),
])
def test_bad_paths(path, message, tmp_path):
    for call in (lambda: load_dataset(path), lambda: read_counts(path),
                 lambda: save_dataset(ragscore.load_course(), path)):
        with pytest.raises(InvalidInputError, match=message):
            call()


def test_a_name_too_long_is_a_bounded_error(tmp_path):
    path = tmp_path / ("x" * 5000)
    for read in (load_dataset, read_counts):
        with pytest.raises(InvalidInputError) as caught:
            read(path)
        message = str(caught.value)
        assert "5,0" in message and "characters, cut" in message and len(message) < 500
        assert "File name too long" in message
