"""The ID rule on a column (``column_pattern`` and ``max_length``, RE2 through pyarrow) is the
ID rule on a record (``pattern``, Python's ``re``), for every code point in every place."""
import random
import sys

import pyarrow as pa
import pytest

from ragscore.core.rules import COURSE, OPEN
from ragscore.engine.columnar.arrow import strings
from ragscore.engine.columnar.idcheck import all_ids, id_flags

#: Every code point UTF-8 can carry (surrogates cannot be text in an arrow string column).
CODE_POINTS = [chr(code) for code in range(sys.maxunicode + 1) if not 0xD800 <= code <= 0xDFFF]
#: Every code point up to U+3100 (every control and whitespace character is below U+3001)
#: and 20,000 drawn from the rest: the quick version of the exhaustive test.
SOME_CODE_POINTS = CODE_POINTS[:0x3100] + random.Random(42).sample(CODE_POINTS[0x3100:], 20_000)


def _compare(rules, characters):
    for place in ("alone", "first", "middle", "last"):
        values = {"alone": characters,
                  "first": [char + "a" for char in characters],
                  "middle": ["a" + char + "b" for char in characters],
                  "last": ["a" + char for char in characters]}[place]
        expected = [rules.fullmatch(value) is not None for value in values]
        found = id_flags(pa.array(values, pa.string()), rules).tolist()
        differ = [repr(value) for value, want, got in zip(values, expected, found)
                  if want != got]
        assert not differ, (place, differ[:10])
        assert sum(expected) > 25  # each rule accepts some: the comparison says something


@pytest.mark.parametrize("rules", [COURSE, OPEN], ids=lambda rules: rules.name)
def test_the_column_rule_is_the_record_rule_for_the_special_code_points(rules):
    _compare(rules, SOME_CODE_POINTS)


@pytest.mark.exhaustive
@pytest.mark.parametrize("rules", [COURSE, OPEN], ids=lambda rules: rules.name)
def test_the_column_rule_is_the_record_rule_for_every_code_point(rules):
    _compare(rules, CODE_POINTS)


@pytest.mark.parametrize("rules", [COURSE, OPEN], ids=lambda rules: rules.name)
def test_the_length_limit_is_the_record_rule_s(rules):
    for char in ("a", "\u00e9", "\u4e2d", "\U0001F600"):  # 1 to 4 bytes in UTF-8
        if rules is COURSE and char != "a":
            continue
        values = [char * length for length in (1, rules.max_length, rules.max_length + 1)]
        assert id_flags(strings(values), rules).tolist() == [
            rules.fullmatch(value) is not None for value in values] == [True, True, False]


def test_all_ids_of_empty_null_and_mixed_columns():
    assert all_ids(strings([]), OPEN)
    assert not all_ids(pa.array(["d1", None], pa.string()), OPEN)
    assert not all_ids(strings(["d1", ""]), OPEN)
    assert all_ids(strings(["FBIS3-10082", "doc-1#chunk-2", "a b"]), OPEN)
    assert not all_ids(strings(["FBIS3-10082", "x\u2028"]), OPEN)


@pytest.mark.parametrize("rules", [COURSE, OPEN], ids=lambda rules: rules.name)
def test_the_plain_bytes_are_ids_in_every_place(rules):
    if rules.plain_bytes is None:
        return
    low, high = rules.plain_bytes
    plain = [chr(byte) for byte in range(low, high + 1)]
    for text in plain:  # alone, first, middle, last, and next to each other
        for value in (text, text + "a", "a" + text + "b", "a" + text, text * 2):
            assert rules.fullmatch(value), repr(value)
    assert all_ids(strings(["".join(plain)[:rules.max_length], "doc-1#chunk-2"]), rules)
    # bytes outside the range take the pattern: a space inside is an ID, at an end it is not
    assert all_ids(strings(["a b"]), rules) and not all_ids(strings(["a "]), rules)
