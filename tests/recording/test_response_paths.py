"""JSON paths into a response and the request template (worked by hand)."""
import pytest

from ragscore.core.rules import InvalidInputError
from ragscore.recording.paths import (MISSING, ResponseError, fill_template, parse_path,
                                      read_path)

RESPONSE = {"data": {"hits": [{"id": "a", "score": 0.9}, {"id": "b", "score": 0.4}],
                     "answer": "yes"}, "choices": [{"text": "first"}]}


@pytest.mark.parametrize("path, expected", [
    ("data.answer", "yes"),
    ("data.hits[*].id", ["a", "b"]),
    ("data.hits[*].score", [0.9, 0.4]),
    ("choices[0].text", "first"),
    ("choices[1].text", MISSING),
    ("data.nothing", MISSING),
])
def test_read_path(path, expected):
    assert read_path(RESPONSE, parse_path(path)) == expected


@pytest.mark.parametrize("path", ["", "a..b", "a.", "a[x]", "a]b", "a[0]b"])
def test_a_path_that_cannot_be_read_is_refused_naming_it(path):
    with pytest.raises(InvalidInputError, match="path"):
        parse_path(path, option="--retrieved")


def test_an_item_without_the_field_is_a_response_error():
    with pytest.raises(ResponseError, match=r"data.hits has no id"):
        read_path({"data": {"hits": [{"id": "a"}, {"doc": "b"}]}}, parse_path("data.hits[*].id"))
    with pytest.raises(ResponseError, match="expected a list"):
        read_path({"hits": {"id": "a"}}, parse_path("hits[*].id"))


def test_the_template_is_filled_without_evaluating_anything():
    template = {"query": "Q: {question}", "meta": ["{case}", "{trial}"], "n": "{trial}", "k": 5}
    filled = fill_template(template, question="What is {case}?", case="c1", trial=2)
    # a placeholder inside the question text is left as typed (one pass, no re-expansion)
    assert filled == {"query": "Q: What is {case}?", "meta": ["c1", 2], "n": 2, "k": 5}
