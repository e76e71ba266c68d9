"""The columnar engine asks numpy for ordinary pages while it counts, and gives numpy its
setting back."""
from numpy._core import multiarray

from ragscore.engine.pages import ordinary_pages


def _setting():
    previous = multiarray._set_madvise_hugepage(False)  # read by setting, then put back
    multiarray._set_madvise_hugepage(previous)
    return previous


def test_numpy_setting_is_off_within_and_restored_after(monkeypatch):
    monkeypatch.delenv("NUMPY_MADVISE_HUGEPAGE", raising=False)
    before = multiarray._set_madvise_hugepage(True)
    try:
        with ordinary_pages():
            assert _setting() is False
        assert _setting() is True
    finally:
        multiarray._set_madvise_hugepage(before)


def test_the_users_environment_variable_wins(monkeypatch):
    monkeypatch.setenv("NUMPY_MADVISE_HUGEPAGE", "1")
    before = multiarray._set_madvise_hugepage(True)
    try:
        with ordinary_pages():
            assert _setting() is True
    finally:
        multiarray._set_madvise_hugepage(before)


def test_restored_when_the_block_raises(monkeypatch):
    monkeypatch.delenv("NUMPY_MADVISE_HUGEPAGE", raising=False)
    before = multiarray._set_madvise_hugepage(True)
    try:
        try:
            with ordinary_pages():
                raise ValueError("stop")
        except ValueError:
            pass
        assert _setting() is True
    finally:
        multiarray._set_madvise_hugepage(before)
