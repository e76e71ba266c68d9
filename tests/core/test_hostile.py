"""Hostile objects through the Python API: types are checked before anything is hashed or
compared, so no object poses as an ID, no input crashes the interpreter, and a broken
``__hash__`` or ``__eq__`` ends in the package's ValueError; a progress callback that edits
its input cannot mislabel a row."""
import subprocess
import sys
import textwrap

import pytest

import ragscore
from ragscore import InvalidInputError, evaluate


class Posing(str):
    """A str subclass whose text is not an ID but which hashes and compares like one."""

    def __hash__(self):
        return hash("launch")

    def __eq__(self, other):
        return True

    __ne__ = lambda self, other: False  # noqa: E731


class LookAlike:
    """Not a str at all, but hashes and compares like the ID 'launch'."""

    def __hash__(self):
        return hash("launch")

    def __eq__(self, other):
        return True


class BrokenHash(str):
    def __hash__(self):
        raise RuntimeError("hash called")


class Broken:
    def __hash__(self):
        raise RuntimeError("hash called")

    def __eq__(self, other):
        raise RuntimeError("eq called")


HOSTILE = [Posing("Not an ID!"), Posing("launch"), LookAlike(), BrokenHash("launch"), Broken()]


def _places(course, hostile):
    """Every place an ID or option goes, with ``hostile`` put there."""
    case, run = course.cases["launch"], course.runs["launch"]["A"]
    from ragscore.tables.scores import score_runs

    return {
        "retrieved": lambda: evaluate(course.corpus, case, dict(run, retrieved=(hostile,))),
        "retrieved after a valid ID": lambda: evaluate(
            course.corpus, case, dict(run, retrieved=("archive", hostile))),
        "relevant": lambda: evaluate(course.corpus, dict(case, relevant=(hostile,),
                                                         support={"monday": (hostile,)}), run),
        "support source": lambda: evaluate(course.corpus, dict(case, support={
            "monday": (hostile,)}), run),
        "support key": lambda: evaluate(course.corpus, dict(case, support={
            hostile: ("launch",)}), run),
        "claim": lambda: evaluate(course.corpus, case, dict(run, claims=(
            (hostile, ("launch",)),))),
        "citation": lambda: evaluate(course.corpus, case, dict(run, claims=(
            ("monday", (hostile,)),))),
        "k": lambda: evaluate(course.corpus, case, run, k=hostile),
        "ids()": lambda: ragscore.ids((hostile,)),
        "score_runs ids": lambda: score_runs(course.corpus, course.cases, course.runs,
                                             ids=hostile),
        "score_runs unit": lambda: score_runs(course.corpus, course.cases, course.runs,
                                              unit=hostile),
        "score_runs metrics": lambda: score_runs(course.corpus, course.cases, course.runs,
                                                 metrics=hostile),
        "score_runs metric name": lambda: score_runs(course.corpus, course.cases, course.runs,
                                                     metrics=(hostile,)),
        "runs key": lambda: score_runs(course.corpus, course.cases,
                                       {hostile: course.runs["launch"]}),
        "system key": lambda: score_runs(course.corpus, course.cases,
                                         {"launch": {hostile: run}}),
        "corpus text": lambda: evaluate(dict(course.corpus, launch=hostile), case, run),
        "dataset ids": lambda: ragscore.save_dataset(course._replace(ids=hostile), "/nonexistent"),
    }


@pytest.mark.parametrize("hostile", HOSTILE, ids=lambda h: type(h).__name__)
def test_no_object_poses_as_an_id_and_none_escapes(course, hostile):
    for place, call in _places(course, hostile).items():
        try:
            call()
        except InvalidInputError as error:
            message = str(error)
            assert message and len(message) < 2000 and message.isprintable(), place
        except (TypeError, RuntimeError) as error:
            if place in ("runs key", "system key", "support key") and type(hostile).__name__.startswith(
                    "Broken") and "hash called" in str(error):
                continue  # building the caller's own dict hashed it: not ours to catch
            pytest.fail(f"{place}: {type(error).__name__}: {error}")
        else:
            pytest.fail(f"{place}: {hostile!r} was accepted")


def test_a_corpus_key_that_poses_as_an_id_is_refused(course):
    corpus = {Posing("Not an ID!"): "Text.", **course.corpus}
    with pytest.raises(InvalidInputError, match=r"corpus key must be an ID"):
        evaluate(corpus, course.cases["launch"], course.runs["launch"]["A"])


DEEP = """
import sys
import ragscore
from ragscore import evaluate
from ragscore.tables.scores import score_runs

deep = ()
for _ in range(1_000_000):
    deep = (deep,)
course = ragscore.load_course()
case, run = course.cases["launch"], course.runs["launch"]["A"]
calls = {
    "retrieved": lambda: evaluate(course.corpus, case, dict(run, retrieved=(deep,))),
    "retrieved itself": lambda: evaluate(course.corpus, case, dict(run, retrieved=deep)),
    "relevant": lambda: evaluate(course.corpus, dict(case, relevant=(deep,)), run),
    "claim": lambda: evaluate(course.corpus, case, dict(run, claims=((deep, ()),))),
    "citation": lambda: evaluate(course.corpus, case, dict(run, claims=(("m", (deep,)),))),
    "claims itself": lambda: evaluate(course.corpus, case, dict(run, claims=deep)),
    "k": lambda: evaluate(course.corpus, case, run, k=deep),
    "corpus": lambda: evaluate(deep, case, run),
    "ids()": lambda: ragscore.ids(deep),
    "score_runs ids": lambda: score_runs(course.corpus, course.cases, course.runs, ids=deep),
    "score_runs metrics": lambda: score_runs(course.corpus, course.cases, course.runs,
                                             metrics=deep),
    "dataset name": lambda: ragscore.save_dataset(course._replace(name=deep), "/nonexistent"),
    "dataset ids": lambda: ragscore.save_dataset(course._replace(ids=deep), "/nonexistent"),
}
for place, call in calls.items():
    try:
        call()
    except ValueError as error:
        assert len(str(error)) < 2000, place
        print(place, "refused")
    else:
        print(place, "ACCEPTED")
"""


def test_a_million_deep_tuple_is_a_value_error_not_a_crash():
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(DEEP)], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    lines = result.stdout.splitlines()
    assert len(lines) == 13 and all(line.endswith(" refused") for line in lines), lines


def _expected(course):
    return {(case, system): evaluate(course.corpus, course.cases[case], run)
            for case, per_case in course.runs.items() for system, run in per_case.items()}


@pytest.mark.parametrize("edit", ["swap systems", "clear every case", "rename a case",
                                  "replace a run", "clear the runs"])
def test_editing_runs_inside_progress_never_mislabels_a_row(course, edit):
    from ragscore.tables.scores import score_runs

    expected = _expected(course)
    runs = course.runs

    def progress(done, total):
        if done != 1:
            return
        if edit == "swap systems":
            for per_case in runs.values():
                per_case["A"], per_case["B"] = per_case["B"], per_case["A"]
        elif edit == "clear every case":
            for per_case in runs.values():
                per_case.clear()
        elif edit == "rename a case":
            runs["owner2"] = runs.pop("owner")
        elif edit == "replace a run":
            runs["owner"]["A"] = runs["owner"]["B"]
        else:
            runs.clear()

    table = score_runs(course.corpus, course.cases, runs, progress=progress)
    assert list(table.index) == list(expected)
    for key, scores in expected.items():
        row = table.loc[key]
        for name, value in scores.items():
            got = row[name]
            assert (value is None and got is ragscore.tables.scores.pd.NA) or got == value, \
                (edit, key, name, got, value)


def test_the_messages_for_hostile_options(course):
    from ragscore.tables.scores import score_runs

    args = course.corpus, course.cases, course.runs
    with pytest.raises(InvalidInputError, match=r"unit must be one of chunk, document; got "
                                                r"<.*LookAlike object"):
        score_runs(*args, unit=LookAlike())
    with pytest.raises(InvalidInputError, match=r"ids must be one of course, open; got 'launch'"):
        score_runs(*args, ids=BrokenHash("launch"))
    with pytest.raises(InvalidInputError, match=r"metrics must be a tuple of metric names; "
                                                r"got 'rr'"):
        score_runs(*args, metrics="rr")
    with pytest.raises(InvalidInputError, match=r"run\['retrieved'\]\[0\] must be an ID "
                                                r"matching .*; got 'launch' \(a Posing, not "
                                                r"a str\)"):
        evaluate(course.corpus, course.cases["launch"],
                 dict(course.runs["launch"]["A"], retrieved=(Posing("launch"),)))


def test_a_repr_with_escape_sequences_is_escaped(course):
    class Forged:
        def __repr__(self):
            return "\x1b[2J\rragscore: all good"

    with pytest.raises(InvalidInputError) as caught:
        evaluate(course.corpus, course.cases["launch"],
                 dict(course.runs["launch"]["A"], retrieved=(Forged(),)))
    assert str(caught.value).endswith("got \\x1b[2J\\rragscore: all good")
