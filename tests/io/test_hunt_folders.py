"""Hunting malformed dataset folders: generated bad JSON, wrong types, special files, huge keys
and escape sequences must end in the package's own ValueError, whose message names the file
(and the line, for a bad record), stays short and carries no raw control character."""
import json
import os
import re
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragscore
from ragscore.core.rules import InvalidInputError
from ragscore.io.course import COURSE_PATH
from ragscore.engine import count_folder as read_counts
from ragscore.folders import load_dataset
from ragscore.io.content import named_digest
from tests.folder_edits import rehash

MAX_MESSAGE = 2000
KINDS = ("corpus", "cases", "runs")


def _base_folders():
    """A version 1 folder (plain names), a version 2 folder (content names) and an imported
    open-rules folder (version 2: every file JSON Lines, for the line edits), made once."""
    from ragscore.io.write import save_dataset as save_jsonl

    root = Path(tempfile.mkdtemp(prefix="ragscore-hunt-"))
    shutil.copytree(COURSE_PATH, root / "v1")
    save_jsonl(ragscore.load_course(), root / "v2", version=2)
    trec = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "trec"
    from ragscore.importers import import_trec

    imported, _ = import_trec(trec / "qrels.txt", [trec / "bm25.run", trec / "dense.run"])
    save_jsonl(imported, root / "open", version=2)  # open IDs, graded, no text, no claims
    return root


BASE = _base_folders()


def _file_names(folder):
    """``{kind: file name}`` of a folder, the index included."""
    index = json.loads((folder / "dataset.json").read_text())
    names = index.get("files") or {kind: f"{kind}.jsonl" for kind in KINDS}
    return {"index": "dataset.json", **names}


# ---- what to break, and how ---------------------------------------------------------------

nasty_text = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["\x1b[2J", "\x1b]0;owned\x07", "\r\nragscore: ok", "\x00", "\u2028",
                     "\u202e", "\x9b31m", "a\tb"]),
    # huge: 2 MB of a plain or a control character (built, not drawn, to stay fast)
    st.builds(lambda char, size: char * size, st.sampled_from(["x", "\x1b", "\u00e9"]),
              st.sampled_from([100, 5_000, 2_000_000])),
)
json_scalar = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                        st.floats(allow_nan=False, allow_infinity=False), nasty_text)
json_value = st.recursive(json_scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(nasty_text, inner, max_size=3)), max_leaves=6)
bad_json = st.one_of(
    st.sampled_from(["{", "[", "NaN", "{\"id\": NaN}", "{\"a\": 1, \"a\": 2}", "\"x\"", "1e999",
                     "{\"id\": \"launch\",}", "[" * 5000, "{" * 3000, "\ufeff{}", "null"]),
    st.text(max_size=40),
    st.binary(max_size=20).map(lambda data: data.decode("latin-1")),
)


def _edit_record(record, key, value, mode):
    record = dict(record)
    if mode == "set":
        record[key] = value
    elif mode == "drop":
        record.pop(key, None)
    else:  # an extra key, possibly huge or full of escape sequences
        record[key] = value
    return record


@st.composite
def breakage(draw):
    version = draw(st.sampled_from(["v1", "v2", "open"]))
    target = draw(st.sampled_from(["index", *KINDS]))
    how = draw(st.sampled_from(["line", "record", "special", "bytes"]))
    if how == "special":
        return version, target, how, draw(st.sampled_from(
            ["fifo", "dev-zero", "directory", "unreadable", "dangling", "empty", "missing",
             "loop"]))
    if how == "bytes":
        return version, target, how, draw(st.sampled_from(
            [b"\xff\xfe", b"{\"id\": \"\xc3\"}\n", b"\x00" * 10, b"\n\n\n"]))
    if how == "line":
        return version, target, how, draw(bad_json)
    keys = {"index": ["format", "version", "name", "description", "ids", "files", "notes",
                      "min_relevance"],
            "corpus": ["id", "text", "source", "version"],
            "cases": ["id", "question", "relevant", "support"],
            "runs": ["case", "system", "retrieved", "claims"]}[target]
    key = draw(st.one_of(st.sampled_from(keys), nasty_text))
    mode = draw(st.sampled_from(["set", "drop", "extra"]))
    return version, target, how, (key, draw(json_value), mode)


def _break(folder, target, how, detail, line):
    """Apply one breakage to ``folder``; return the broken file's path and whether a record
    error there must name a line."""
    path = folder / _file_names(folder)[target]
    if how == "special":
        path.unlink()
        if detail == "fifo":
            os.mkfifo(path)
        elif detail == "dev-zero":
            path.symlink_to("/dev/zero")
        elif detail == "directory":
            path.mkdir()
        elif detail == "unreadable":
            path.write_text("{}\n")
            path.chmod(0)
        elif detail == "dangling":
            path.symlink_to(folder / "nowhere")
        elif detail == "empty":
            path.write_bytes(b"")
        elif detail == "loop":
            path.symlink_to(path)
        return path, False
    if how == "bytes":
        path.write_bytes(detail)
        return path, target != "index"
    lines = path.read_text().splitlines()
    if target == "index":
        if how == "line":
            path.write_text(detail)
        else:
            key, value, mode = detail
            path.write_text(json.dumps(_edit_record(json.loads(path.read_text()), key, value,
                                                    mode)))
        return path, False
    number = line % len(lines)
    if how == "line":
        lines[number] = detail.replace("\n", " ").replace("\r", " ")
    else:
        key, value, mode = detail
        lines[number] = json.dumps(_edit_record(json.loads(lines[number]), key, value, mode))
    path.write_text("\n".join(lines) + "\n")
    return path, True


def _check_message(error, folder, names, broken, line_expected):
    message = str(error)
    assert message, "an error needs a message"
    assert len(message) < MAX_MESSAGE, (len(message), message[:300])
    assert message.isprintable(), f"raw control character in {message[:300]!r}"
    names = [*names, folder.name]
    assert any(name in message for name in names), message
    if line_expected and broken.name in message and str(folder / broken.name) in message:
        whole_file = ("holds no" in message or "grew past" in message
                      or "cannot be read" in message or "is not a regular file" in message)
        assert whole_file or re.search(rf"{re.escape(broken.name)}, line \d+", message), \
            message


class _Alarm:
    """Fail rather than hang (a FIFO that blocks a reader would otherwise stop the suite)."""

    def __enter__(self):
        def hang(*_):
            raise TimeoutError("the reader blocked")

        self.previous = signal.signal(signal.SIGALRM, hang)
        signal.alarm(10)

    def __exit__(self, *_):
        signal.alarm(0)
        signal.signal(signal.SIGALRM, self.previous)


HUNT = settings(max_examples=80, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


@HUNT
@given(broken=breakage(), line=st.integers(0, 20), renamed=st.booleans())
def test_a_broken_folder_gives_only_a_clear_error(broken, line, renamed):
    """``renamed``: a broken data file of a saved folder is given the name of its new
    content, as a tool rewriting it would, so that the record rules meet it; else the
    content check refuses it first, naming the whole file."""
    version, target, how, detail = broken
    if how == "special" and detail == "unreadable" and os.geteuid() == 0:
        return  # root reads a mode-000 file: nothing to test
    with tempfile.TemporaryDirectory() as root:
        folder = Path(root) / "data"
        shutil.copytree(BASE / version, folder)
        names = list(_file_names(folder).values())
        path, line_expected = _break(folder, target, how, detail, line)
        if line_expected and named_digest(path) is not None:
            if renamed:
                path = rehash(folder)[target]
                names = list(_file_names(folder).values())
            else:
                line_expected = False
        for read in (load_dataset, read_counts):
            with _Alarm():
                try:
                    read(folder)
                except InvalidInputError as error:
                    _check_message(error, folder, names, path, line_expected)
                else:
                    # only a change that leaves a valid dataset may load (an empty runs
                    # file is one: a test set without runs yet)
                    assert how in ("record", "line", "bytes") or (
                        (target, detail) == ("runs", "empty")), (how, detail)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("special", ["fifo", "dev-zero", "directory", "loop"])
def test_special_files_are_refused_by_name(tmp_path, kind, special):
    folder = tmp_path / "data"
    shutil.copytree(COURSE_PATH, folder)
    path, _ = _break(folder, kind, "special", special, 0)
    for read in (load_dataset, read_counts):
        with _Alarm(), pytest.raises(InvalidInputError, match=rf"{kind}\.jsonl: "):
            read(folder)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a mode-000 file")
def test_an_unreadable_file_is_refused_by_name(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(COURSE_PATH, folder)
    _break(folder, "runs", "special", "unreadable", 0)
    with pytest.raises(InvalidInputError, match=r"runs\.jsonl: cannot be read \(Permission"):
        load_dataset(folder)


def test_a_huge_key_gives_a_bounded_message_stating_its_length(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(COURSE_PATH, folder)
    huge = "\x1b[2J" + "k" * 2_000_000
    record = {"id": "launch", "text": "x", huge: 1}
    (folder / "corpus.jsonl").write_text(json.dumps(record) + "\n")
    with pytest.raises(InvalidInputError) as caught:
        load_dataset(folder)
    message = str(caught.value)
    assert message.startswith(f"{folder / 'corpus.jsonl'}, line 1: unknown key ")
    assert "2,000,004 characters" in message and "\\x1b[2J" in message
    assert len(message) < 400 and message.isprintable()


def _tiny(folder):
    folder.mkdir()
    tiny = {"dataset.json": '{"format": "ragscore-dataset", "version": 1}',
            "corpus.jsonl": "".join(f'{{"id": "d{n}", "text": "x"}}\n' for n in range(20)),
            "cases.jsonl": '{"id": "q", "relevant": ["d0"], "support": {"c": ["d0"]}}',
            "runs.jsonl": '{"case": "q", "system": "s", "retrieved": ["d0"], "claims": []}'}
    for name, text in tiny.items():
        (folder / name).write_text(text)
    return folder


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_the_size_limit_counts_the_bytes_read_of_a_proc_file(tmp_path):
    """/proc files are regular with st_size 0: only counting what is read stops them."""
    folder = _tiny(tmp_path / "data")
    assert load_dataset(folder, max_bytes=600).cases
    (folder / "dataset.json").unlink()
    (folder / "dataset.json").symlink_to("/proc/self/status")
    assert os.stat(folder / "dataset.json").st_size == 0
    for read in (load_dataset, read_counts):
        with pytest.raises(InvalidInputError, match=r"dataset\.json: grew past the limit of "
                                                    r"600 bytes while being read"):
            read(folder, max_bytes=600)


def test_the_size_limit_counts_the_bytes_read_of_a_growing_file(tmp_path, monkeypatch):
    """A file that grew after its size was checked (st_size said 0) is cut at the limit."""
    folder = _tiny(tmp_path / "data")
    real = os.fstat

    def stale(descriptor):
        info = real(descriptor)
        return os.stat_result((*info[:6], 0, *info[7:10]))

    monkeypatch.setattr(os, "fstat", stale)
    for read in (load_dataset, read_counts):
        with pytest.raises(InvalidInputError, match=r"corpus\.jsonl: grew past the limit of "
                                                    r"300 bytes while being read"):
            read(folder, max_bytes=300)


@pytest.mark.parametrize("claim, shown", [
    ("\x1f", r"key 'support' entry '\\x1f' must be an array of IDs; got None"),
    ("c" * 3_000_000, r"key 'support' entry a str of 3,000,000 characters, cut: 'ccc"),
    ("a", r"key 'support\.a' must be an array of IDs; got None"),
])
def test_a_support_key_is_shown_safely(tmp_path, claim, shown):
    """Found by the hunt: a support key reached the message raw (control characters, 3 MB)."""
    folder = tmp_path / "data"
    shutil.copytree(COURSE_PATH, folder)
    lines = (folder / "cases.jsonl").read_text().splitlines()
    record = json.loads(lines[0])
    record["support"] = {claim: None}
    lines[0] = json.dumps(record)
    (folder / "cases.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(InvalidInputError, match=rf"cases\.jsonl, line 1: {shown}") as caught:
        load_dataset(folder)
    assert len(str(caught.value)) < 400 and str(caught.value).isprintable()


@pytest.mark.parametrize("ids", [[], {}, ["open"]])
def test_an_index_ids_of_the_wrong_type(tmp_path, ids):
    """Found by the hunt: an unhashable 'ids' in dataset.json escaped as a TypeError."""
    folder = ragscore.save_dataset(ragscore.load_course(), tmp_path / "data")
    index = json.loads((folder / "dataset.json").read_text())
    (folder / "dataset.json").write_text(json.dumps(dict(index, ids=ids)))
    for read in (load_dataset, read_counts):
        with pytest.raises(InvalidInputError, match=r"dataset\.json: key 'ids' must be one of "
                                                    r"course, open; got "):
            read(folder)
