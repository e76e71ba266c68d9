"""The two ID rule sets and the safe rendering of values in error messages."""
import pytest

from ragscore.core.rules import COURSE, OPEN, InvalidInputError, check_k, show


@pytest.mark.parametrize("value, course, open_", [
    ("launch", True, True),
    ("FR940202-2-00150", False, True),                       # a TREC docno
    ("msmarco_v2.1_doc_29_677149#3_1284514", False, True),     # an MS MARCO v2.1 segment
    ("doc_12#chunk-3", False, True),
    ("3f2b9c1e-4a5d-4e6f-8a7b-9c0d1e2f3a4b", False, True),     # a UUID
    ("x" * 512, False, True),
    ("x" * 513, False, False),
    ("", False, False),
    (" lead", False, False),
    ("trail ", False, False),
    ("tab\there", False, False),
    ("line\u2028break", False, False),
    ("para\u2029sep", False, False),
    ("del\x7f", False, False),
    ("nel\x85", False, False),
    ("lаunch", False, True),                                  # Cyrillic а: an ID, shown apart
    (3, False, False),
])
def test_which_ids_each_rule_set_accepts(value, course, open_):
    assert COURSE.is_id(value) is course
    assert OPEN.is_id(value) is open_


def test_limits_of_each_rule_set():
    assert (COURSE.max_ids, COURSE.max_k, COURSE.max_claims) == (100, 100, 100)
    assert (OPEN.max_ids, OPEN.max_k) == (10_000, 10_000)
    assert check_k(10_000, rules=OPEN) == 10_000
    with pytest.raises(InvalidInputError, match=r"k must be an int from 1 to 100; got 101"):
        check_k(101)
    with pytest.raises(InvalidInputError, match=r"k must be an int from 1 to 10000; got 10001"):
        check_k(10_001, rules=OPEN)


def test_show_escapes_control_characters():
    assert show("\x1b[2Jforged\nline") == r"'\x1b[2Jforged\nline'"
    assert "\x1b" not in show({"\x1b[2J": 1})


def test_show_cuts_long_values_and_states_their_length():
    text = show("y" * 2_000_000)
    assert len(text) < 120
    assert text.startswith("a str of 2,000,000 characters, cut: 'yyy")
    assert show(tuple(range(1000))).endswith("(a tuple of 1,000 items, cut)")


def test_show_names_look_alike_characters():
    assert show("lаunch") == "'lаunch' (non-ASCII: U+0430 CYRILLIC SMALL LETTER A at 1)"
    assert show("launch") == "'launch'"


def test_show_survives_broken_reprs_and_deep_nesting():
    class Broken:
        def __repr__(self):
            raise RuntimeError("no repr")

    assert show(Broken()) == "<unprintable Broken>"
    deep = ()
    for _ in range(1_000_000):
        deep = (deep,)
    assert show(deep) == "(((((...),),),),)"


def test_claim_ids_are_matched_by_each_rule_set_s_own_pattern():
    import re

    from ragscore.core.rules import COURSE

    upper = COURSE._replace(pattern=re.compile("[A-Z]+"))  # the same name, its own pattern
    for _ in range(2):  # asked again, the remembered answers are the same
        assert COURSE.claim_match("launch") and not COURSE.claim_match("Launch")
        assert upper.claim_match("LAUNCH") and not upper.claim_match("launch")
