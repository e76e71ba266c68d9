"""Every validation rule, each with its error message pinned."""
import re

import pytest

from ragscore import InvalidInputError, evaluate, ids, validate

CORPUS = {"launch": "The release window starts on Monday.", "owners": "Aurora owns it.",
          "archive": "An old note."}
CASE = {"relevant": ("owners",), "support": {"aurora": ("owners",)}}
RUN = {"retrieved": ("owners", "archive"), "claims": (("aurora", ("owners",)),)}


def check(message, corpus=CORPUS, case=CASE, run=RUN, k=2):
    with pytest.raises(InvalidInputError, match=message):
        validate(corpus, case, run, k)


def test_invalid_input_error_is_a_value_error():
    assert issubclass(InvalidInputError, ValueError)


def test_ids_returns_the_set_of_ids():
    assert ids(("launch", "archive")) == {"launch", "archive"}
    assert ids(()) == set()


@pytest.mark.parametrize("value, message", [
    (["launch"], r"ids must be a tuple of at most 100 IDs; got \['launch'\]"),
    ("launch", r"ids must be a tuple of at most 100 IDs; got 'launch'"),
    (None, r"ids must be a tuple of at most 100 IDs; got None"),
    (tuple(f"d{n}" for n in range(101)), r"ids must be a tuple of at most 100 IDs; "
                                        r"got '101 items'"),
    (("ok", 3), r"ids\[1\] must be an ID matching \[a-z\]\[a-z0-9-\]\{0,31\}; got 3"),
    (("Launch",), r"ids\[0\] must be an ID matching .*; got 'Launch'"),
    (("9lives",), r"ids\[0\] must be an ID matching .*; got '9lives'"),
    (("-dash",), r"ids\[0\] must be an ID matching .*; got '-dash'"),
    (("has space",), r"ids\[0\] must be an ID matching .*; got 'has space'"),
    (("",), r"ids\[0\] must be an ID matching .*; got ''"),
    (("a" * 33,), r"ids\[0\] must be an ID matching .*; got 'a{33}'"),
    (("launch\n",), r"ids\[0\] must be an ID matching .*; got 'launch\\n'"),
    (("a", "b", "a"), r"ids\[2\] must be unique within the tuple; got 'a'"),
    ((["x"],), r"ids\[0\] must be an ID matching .*; got \['x'\]"),
])
def test_ids_rejects(value, message):
    with pytest.raises(InvalidInputError, match=message):
        ids(value)


def test_ids_accepts_the_longest_and_shortest_ids():
    longest = "a" + "b0-" * 10 + "z"  # 32 characters
    assert len(longest) == 32
    assert ids((longest, "a", "x-1")) == {longest, "a", "x-1"}


@pytest.mark.parametrize("corpus, message", [
    ({}, r"corpus must be a non-empty dict of ID to text; got \{\}"),
    ([("launch", "text")], r"corpus must be a non-empty dict of ID to text; got \[\("),
    (None, r"corpus must be a non-empty dict of ID to text; got None"),
    ({"Launch": "text"}, r"corpus key must be an ID matching .*; got 'Launch'"),
    ({1: "text"}, r"corpus key must be an ID matching .*; got 1"),
    ({"launch": "  \n"}, r"corpus\['launch'\] must be non-blank text; got '  \\n'"),
    ({"launch": ""}, r"corpus\['launch'\] must be non-blank text; got ''"),
    ({"launch": None}, r"corpus\['launch'\] must be non-blank text; got None"),
    ({"launch": b"bytes"}, r"corpus\['launch'\] must be non-blank text; got b'bytes'"),
])
def test_corpus_rejects(corpus, message):
    check(message, corpus=corpus)


@pytest.mark.parametrize("case, message", [
    (None, r"case must be a dict; got None"),
    ([], r"case must be a dict; got \[\]"),
    ({"support": {}}, r"case\['relevant'\] must be present; got \{'support': \{\}\}"),
    ({"relevant": ()}, r"case\['support'\] must be present; got \{'relevant': \(\)\}"),
    ({"relevant": ["owners"], "support": {}}, r"case\['relevant'\] must be a tuple of at "
                                               r"most 100 IDs; got \['owners'\]"),
    ({"relevant": ("nowhere",), "support": {"x": ("nowhere",)}},
     r"case\['relevant'\]\[0\] must be an ID in the corpus; got 'nowhere'"),
    ({"relevant": ("owners", "owners"), "support": {}},
     r"case\['relevant'\]\[1\] must be unique within the tuple; got 'owners'"),
    ({"relevant": ("owners",), "support": [("aurora", ("owners",))]},
     r"case\['support'\] must be a dict of claim ID to source IDs; got \[\("),
    ({"relevant": ("owners",), "support": {f"c{n}": ("owners",) for n in range(101)}},
     r"case\['support'\] must be at most 100 claims; got '101 claims'"),
    ({"relevant": ("owners",), "support": {"Aurora": ("owners",)}},
     r"case\['support'\] key must be a claim ID matching .*; got 'Aurora'"),
    ({"relevant": ("owners",), "support": {7: ("owners",)}},
     r"case\['support'\] key must be a claim ID matching .*; got 7"),
    ({"relevant": ("owners",), "support": {"aurora": ()}},
     r"case\['support'\]\['aurora'\] must be at least one source ID; got \(\)"),
    ({"relevant": ("owners",), "support": {"aurora": ["owners"]}},
     r"case\['support'\]\['aurora'\] must be a tuple of at most 100 IDs; got \['owners'\]"),
    ({"relevant": ("owners",), "support": {"aurora": ("archive",)}},
     r"case\['support'\]\['aurora'\]\[0\] must be a source within case\['relevant'\]; "
     r"got 'archive'"),
    ({"relevant": ("owners",), "support": {"aurora": ("owners", "owners")}},
     r"case\['support'\]\['aurora'\]\[1\] must be unique within the tuple; got 'owners'"),
    ({"relevant": ("owners",), "support": {}},
     r"case must be labelled consistently: 'relevant' empty exactly when 'support' is; "
     r"got \{'relevant': \('owners',\), 'support': \{\}\}"),
    ({"relevant": (), "support": {"x": ("owners",)}},
     r"case\['support'\]\['x'\]\[0\] must be a source within case\['relevant'\]; "
     r"got 'owners'"),
])
def test_case_rejects(case, message):
    check(message, case=case)


@pytest.mark.parametrize("run, message", [
    (None, r"run must be a dict; got None"),
    ({"claims": ()}, r"run\['retrieved'\] must be present; got \{'claims': \(\)\}"),
    ({"retrieved": ()}, r"run\['claims'\] must be present; got \{'retrieved': \(\)\}"),
    ({"retrieved": ["owners"], "claims": ()},
     r"run\['retrieved'\] must be a tuple of at most 100 IDs; got \['owners'\]"),
    ({"retrieved": ("owners", "elsewhere"), "claims": ()},
     r"run\['retrieved'\]\[1\] must be an ID in the corpus; got 'elsewhere'"),
    ({"retrieved": ("owners", "Owners"), "claims": ()},
     r"run\['retrieved'\]\[1\] must be an ID matching .*; got 'Owners'"),
    ({"retrieved": ("owners",), "claims": [("aurora", ("owners",))]},
     r"run\['claims'\] must be a tuple of at most 100 \(claim, citations\) pairs; got \[\("),
    ({"retrieved": ("owners",), "claims": None},
     r"run\['claims'\] must be a tuple of at most 100 \(claim, citations\) pairs; got None"),
    ({"retrieved": ("owners",), "claims": (("aurora",),)},
     r"run\['claims'\]\[0\] must be a \(claim, citations\) pair; got \('aurora',\)"),
    ({"retrieved": ("owners",), "claims": (["aurora", ("owners",)],)},
     r"run\['claims'\]\[0\] must be a \(claim, citations\) pair; got \['aurora'"),
    ({"retrieved": ("owners",), "claims": (("aurora", ("owners",), "extra"),)},
     r"run\['claims'\]\[0\] must be a \(claim, citations\) pair; got \('aurora'"),
    ({"retrieved": ("owners",), "claims": (("ok", ()), ("Bad", ()))},
     r"run\['claims'\]\[1\]\[0\] must be a claim ID matching .*; got 'Bad'"),
    ({"retrieved": ("owners",), "claims": ((None, ()),)},
     r"run\['claims'\]\[0\]\[0\] must be a claim ID matching .*; got None"),
    ({"retrieved": ("owners",), "claims": ((["aurora"], ()),)},
     r"run\['claims'\]\[0\]\[0\] must be a claim ID matching .*; got \['aurora'\]"),
    ({"retrieved": ("owners",), "claims": (("aurora", ()), ("aurora", ()))},
     r"run\['claims'\]\[1\]\[0\] must be unique within the run; got 'aurora'"),
    ({"retrieved": ("owners",), "claims": (("aurora", "owners"),)},
     r"run\['claims'\]\[0\]\[1\] must be a tuple of at most 100 IDs; got 'owners'"),
    ({"retrieved": ("owners",), "claims": (("aurora", ("owners", "Not An ID")),)},
     r"run\['claims'\]\[0\]\[1\]\[1\] must be an ID matching .*; got 'Not An ID'"),
    ({"retrieved": ("owners",), "claims": (("aurora", ("x", "x")),)},
     r"run\['claims'\]\[0\]\[1\]\[1\] must be unique within the tuple; got 'x'"),
])
def test_run_rejects(run, message):
    check(message, run=run)


def test_citations_unknown_to_the_corpus_are_valid_but_unsupported():
    run = {"retrieved": ("owners",), "claims": (("aurora", ("not-in-corpus",)),)}
    checked = validate(CORPUS, CASE, run, 2)
    assert checked.claims == (("aurora", ("not-in-corpus",)),)
    assert evaluate(CORPUS, CASE, run)["support"] == 0.0


def test_claims_not_in_the_labels_are_valid_but_unsupported():
    run = {"retrieved": ("owners",), "claims": (("aurora", ("owners",)), ("extra", ("owners",)))}
    assert evaluate(CORPUS, CASE, run)["support"] == 0.5


def test_validate_returns_checked_parts():
    checked = validate(CORPUS, CASE, RUN, 2)
    assert checked.relevant == {"owners"}
    assert checked.support == {"aurora": {"owners"}}
    assert checked.retrieved == ("owners", "archive")
    assert checked.claims == (("aurora", ("owners",)),)


def test_extra_keys_in_records_are_ignored():
    case = dict(CASE, question="Who owns the alert?", notes="reviewed")
    run = dict(RUN, latency_ms=12)
    assert evaluate(CORPUS, case, run)["support"] == 1.0


def test_messages_show_long_values_shortened():
    with pytest.raises(InvalidInputError) as caught:
        ids(("x" * 500,))
    assert len(str(caught.value)) < 200
    assert str(caught.value).endswith("...")


def test_a_value_with_a_broken_repr_still_gets_a_clear_message():
    class Broken:
        def __repr__(self):
            raise RuntimeError("no repr")

    with pytest.raises(InvalidInputError, match=re.escape("got <unprintable Broken>")):
        ids((Broken(),))


def test_ids_accepts_exactly_100_and_refuses_101():
    hundred = tuple(f"d{n}" for n in range(100))
    assert len(ids(hundred)) == 100
    with pytest.raises(InvalidInputError, match=r"got '101 items'"):
        ids(hundred + ("d100",))


def test_support_with_exactly_100_expected_claims_is_accepted():
    case = {"relevant": ("owners",), "support": {f"c{n}": ("owners",) for n in range(100)}}
    run = {"retrieved": ("owners",), "claims": (("c0", ("owners",)),)}
    assert evaluate(CORPUS, case, run)["coverage"] == 1 / 100


def test_a_grade_must_fit_a_signed_64_bit_integer():
    # the columnar engine holds grades as int64: one past either end is refused by name
    from ragscore.core.rules import OPEN
    from ragscore.core.validation import validate_labels

    known = {"d1", "d2"}
    for grade in (2 ** 63 - 1, -2 ** 63):
        labels = validate_labels({"relevant": {"d1": grade, "d2": 1}}, known, rules=OPEN)
        assert labels.grades["d1"] == grade
    for grade, bits in ((2 ** 63, 64), (-2 ** 63 - 1, 64), (10 ** 30, 100)):
        with pytest.raises(InvalidInputError, match=re.escape(
                "case['relevant']['d1'] must be an int grade from -2**63 to 2**63 - 1 (a "
                f"signed 64-bit integer); got 'an int of {bits} bits'")):
            validate_labels({"relevant": {"d1": grade}}, known, rules=OPEN)
