"""A saved folder is never trusted on its own word: edit each field of its index
(dataset.json) and ``report`` and ``validate`` agree (issue 21, item 7).

Before issue 20, a ``checked`` mark let ``report`` read a folder fast after only its file
names were checked: changing ``"ids": "open"`` to ``"course"`` kept the fast reading, and
``report`` scored IDs that ``validate`` refused. Here every index field is replaced by
values of the right and the wrong kind (and removed); for each edit both commands either
succeed or exit 2, and neither ever exits 3.
"""
import json
import shutil

import pytest

from ragscore.cli import capture
from ragscore.io.course import load_course
from ragscore.folders import save_dataset


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """The course saved with open IDs, the note 'launch' renamed 'Launch' (an open ID the
    course rules refuse: they allow [a-z][a-z0-9-]{0,31})."""
    course = load_course()

    def renamed(value):
        if value == "launch":
            return "Launch"
        if type(value) is dict:
            return {renamed(key): renamed(item) for key, item in value.items()}
        if type(value) in (tuple, list):
            return type(value)(map(renamed, value))
        return value

    folder = tmp_path_factory.mktemp("index") / "saved"
    save_dataset(course._replace(corpus=renamed(course.corpus), cases=renamed(course.cases),
                                 runs=renamed(course.runs), ids="open", notes=("a note",)),
                 folder)
    return folder


EDITS = {
    "format": ["ragscore-dataset-x", 1, None],
    "version": [1, 2, 3, 4, "3", 3.0, True, None],
    "name": ["other", "", 5, None, "x\ny"],
    "description": ["other", 5, None],
    "ids": ["course", "open", "closed", None, 1],
    "min_relevance": [0, 1, 2, -1, 1.5, "1", None],
    "notes": [[], ["x"], "x", [1], None],
    "checked": [True, "yes", {"files": "all"}, None],
    "rubric": ["other", 5, None],
    "manifests": [{}, {"A": {}}, [], None, {"Z": {"run_id": "r", "date": "d", "model": "m"}}],
    "files": [{}, {"corpus": "corpus.jsonl"}, None, "x"],
}
REMOVED = object()


def _edits():
    for field, values in EDITS.items():
        for value in [*values, REMOVED]:
            yield pytest.param(field, value, id=f"{field}={'removed' if value is REMOVED else value!r}")


@pytest.mark.parametrize("field, value", list(_edits()))
def test_report_and_validate_agree_on_every_index_edit(saved, tmp_path, field, value):
    folder = tmp_path / "edited"
    shutil.copytree(saved, folder)
    index = json.loads((folder / "dataset.json").read_text())
    if field == "files" and type(value) is dict and value:  # a real file under another key
        value = {"corpus": index["files"]["corpus"]}
    if value is REMOVED:
        index.pop(field, None)
    else:
        index[field] = value
    (folder / "dataset.json").write_text(json.dumps(index))
    reported, out, report_error = capture(["report", str(folder)])
    validated, _, validate_error = capture(["validate", str(folder)])
    assert reported in (0, 2) and validated in (0, 2), (report_error, validate_error)
    assert reported == validated, (report_error, validate_error)
    if field == "ids" and value == "course":  # 'Launch' is not a course ID: both refuse it
        assert reported == 2 and "Launch" in report_error
