"""Scoring in partitions (on Dask's local scheduler) gives exactly the aggregates of scoring
in one piece: means, pooled values, counts, what was left out and why; a run log read from
Parquet in every form Dask gives it; a question split across partitions refused."""
from pathlib import Path

import pandas as pd
import pytest

from ragscore.core.aggregate import aggregates
from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_dataset
from ragscore.engine.partitions import aggregate_partitions, partition_summaries, score_dask
from ragscore.folders import load_dataset
from ragscore.io.dataset import Dataset
from run_logs import by_case, records_of, split_log, synthetic, write_parquet

ROOT = Path(__file__).resolve().parents[2]
METRICS = tuple(REGISTRY)
FIXTURES = ("practice", "course-runs", "answers")


@pytest.fixture(scope="module", params=FIXTURES + ("synthetic",))
def dataset(request):
    if request.param == "synthetic":
        return synthetic()
    return load_dataset(ROOT / "fixtures" / request.param)


def _whole(dataset, k, na_as_zero):
    counted = count_dataset(dataset)
    return {system: aggregates(view, k=k, metrics=[REGISTRY[name] for name in METRICS],
                               na_as_zero=na_as_zero)
            for system, view in counted.by_system().items()}


@pytest.mark.parametrize("k, na_as_zero", [(1, False), (3, False), (10, True)])
def test_dask_partitions_give_the_aggregates_of_one_piece(dataset, k, na_as_zero):
    dask = pytest.importorskip("dask")
    import dask.dataframe as dd

    frame = pd.DataFrame(records_of(dataset)).set_index("case")
    with dask.config.set({"dataframe.convert-string": False}):  # keep lists as lists
        partitioned = dd.from_pandas(frame, npartitions=5, sort=True)
    assert partitioned.npartitions > 1
    found = score_dask(dataset._replace(runs={}), partitioned, k=k, metrics=METRICS,
                       na_as_zero=na_as_zero)
    assert found == _whole(dataset, k, na_as_zero)


def test_partitions_summed_by_hand_give_the_aggregates_of_one_piece(dataset):
    parts = [partition_summaries(dataset._replace(runs={}), part, k=2, metrics=METRICS)
             for part in by_case(records_of(dataset), 3)]
    assert aggregate_partitions(parts, k=2, metrics=METRICS) == _whole(dataset, 2, False)


def test_claims_that_are_not_lists_of_objects_are_a_clear_error():
    from ragscore import InvalidInputError, load_course

    course = load_course()
    records = [{"case": "launch", "system": "A", "retrieved": ["launch"],
                "claims": "[{'claim': 'monday'}]"}]
    with pytest.raises(InvalidInputError, match="case 'launch', system 'A': claims must be a "
                                                "list of objects with 'claim' and 'citations'"):
        partition_summaries(course, records, k=2, metrics=("support",))


# ---- a question in two partitions -------------------------------------------------------

def test_a_question_split_across_partitions_is_refused_naming_it():
    """Scored apart, the question counted twice: 40 answerable questions where one process
    says 39 (issue 31). Its trials in two partitions are refused, naming case and system."""
    from ragscore import InvalidInputError

    practice = load_dataset(ROOT / "fixtures" / "practice")
    records = records_of(practice)
    trials = [row for row in records if row["case"] == "sick-note" and row["system"] == "rerank"]
    assert len(trials) > 1
    first, second = by_case([row for row in records if row not in trials], 2)
    parts = [first + trials[:1], second + trials[1:]]
    found = [partition_summaries(practice, part, k=2, metrics=METRICS) for part in parts]
    with pytest.raises(InvalidInputError, match="case 'sick-note', system 'rerank': run "
                                                "records in partitions 0 and 1"):
        aggregate_partitions(found, k=2, metrics=METRICS)


def test_a_run_record_repeated_in_another_partition_is_refused():
    from ragscore import InvalidInputError

    practice = load_dataset(ROOT / "fixtures" / "practice")
    first, second = by_case(records_of(practice), 2)
    repeated = next(row for row in first if "trial" not in row)
    found = [partition_summaries(practice, part, k=2, metrics=METRICS)
             for part in (first, second + [repeated])]
    with pytest.raises(InvalidInputError, match=f"case '{repeated['case']}', system "
                                                f"'{repeated['system']}': run records in "
                                                "partitions 0 and 1"):
        aggregate_partitions(found, k=2, metrics=METRICS)
    with pytest.raises(InvalidInputError, match="duplicate run for case"):  # in one: the rule
        partition_summaries(practice, first + [repeated], k=2, metrics=METRICS)


def test_a_case_whose_systems_sit_in_different_partitions_is_scored_exactly():
    """A log partitioned by system splits no question: each (case, system) is whole."""
    practice = load_dataset(ROOT / "fixtures" / "practice")
    records = records_of(practice)
    systems = list(dict.fromkeys(row["system"] for row in records))
    parts = [[row for row in records if row["system"] == system] for system in systems]
    found = [partition_summaries(practice, part, k=3, metrics=METRICS) for part in parts]
    assert aggregate_partitions(found, k=3, metrics=METRICS) == _whole(practice, 3, False)


def test_dask_refuses_a_split_question():
    pytest.importorskip("dask")
    from ragscore import InvalidInputError
    from ragscore.tables.partitioned import question_rows

    practice = load_dataset(ROOT / "fixtures" / "practice")
    log = split_log(practice)
    assert log.npartitions == 2
    message = (r"case 'sick-note', system 'rerank': run records in partitions 0 and 1; a "
               r"question's runs and trials must sit in one partition")
    with pytest.raises(InvalidInputError, match=message):
        score_dask(practice, log, k=2, metrics=METRICS)
    rows = question_rows(practice, log, k=2, metrics=METRICS)  # lazy: refused when computed
    with pytest.raises(InvalidInputError, match=message):
        rows.compute()


# ---- a run log read from Parquet ---------------------------------------------------------

READS = {"numpy object arrays": {}, "pyarrow lists": {"dtype_backend": "pyarrow"},
         "case as the index": {"index": "case"}}


@pytest.mark.parametrize("read", READS)
def test_a_parquet_run_log_read_by_dask_gives_the_aggregates_of_one_piece(dataset, read,
                                                                          tmp_path):
    """``claims`` as numpy arrays of dicts of arrays (the default), pyarrow lists of
    structs, ``trial`` as floats (an integer column with missing values): the old reader
    stopped at 'The truth value of an array with more than one element is ambiguous'."""
    pytest.importorskip("dask")
    import dask.dataframe as dd

    folder = write_parquet(records_of(dataset), tmp_path, 3)
    log = dd.read_parquet(str(folder), **READS[read])
    assert log.npartitions == 3
    if read == "numpy object arrays" and "trial" in log.columns:  # numbered and not: gaps
        assert "float64" in {str(log.get_partition(number).compute()["trial"].dtype)
                             for number in range(3)}
    found = score_dask(dataset._replace(runs={}), log, k=3, metrics=METRICS)
    assert found == _whole(dataset, 3, False)


def test_dictionary_encoded_ids_read_as_categories_give_the_same_aggregates(tmp_path):
    pytest.importorskip("dask")
    import dask.dataframe as dd

    practice = load_dataset(ROOT / "fixtures" / "practice")
    folder = write_parquet(records_of(practice), tmp_path, 2, dictionary=True)
    log = dd.read_parquet(str(folder))
    assert str(log.dtypes["case"]) == "category"
    assert score_dask(practice, log, k=2, metrics=METRICS) == _whole(practice, 2, False)


def test_per_question_rows_are_a_dask_frame_equal_to_one_process(tmp_path):
    """Every value as one process's per-question table has it, bit for bit, n/a as <NA>."""
    pytest.importorskip("dask")
    import dask.dataframe as dd
    from ragscore.tables.partitioned import question_rows
    from ragscore.tables.scores import question_table

    practice = load_dataset(ROOT / "fixtures" / "practice")
    log = dd.read_parquet(str(write_parquet(records_of(practice), tmp_path, 3)))
    rows = question_rows(practice, log, k=3, metrics=METRICS)
    assert isinstance(rows, dd.DataFrame) and rows.npartitions == 3
    found = rows.compute().set_index("system", append=True).sort_index()
    expected = question_table(practice, k=3, metrics=METRICS).sort_index()
    assert list(found.index) == list(expected.index)
    assert found.isna().to_numpy().sum() > 0  # the practice set has n/a values
    for name in METRICS:
        assert found[name].dtype == expected[name].dtype, name
        assert found[name].isna().tolist() == expected[name].isna().tolist(), name
        defined = ~expected[name].isna().to_numpy()
        assert found[name].to_numpy()[defined].tolist() == \
            expected[name].to_numpy()[defined].tolist(), name


# ---- malformed run records ---------------------------------------------------------------

def _course_partition(**changes):
    """A one-row partition as pandas holds it: the course's case 'launch', system A."""
    row = {"case": "launch", "system": "A", "retrieved": ["launch"],
           "claims": [{"claim": "monday", "citations": ["launch"]}]}
    row.update(changes)
    return pd.DataFrame([row])


MALFORMED = {
    "retrieved missing": (dict(retrieved=None), r"missing key 'retrieved'"),
    "retrieved not IDs": (dict(retrieved=[[1, 2]]), r"case 'launch', system 'A': .*retrieved"),
    "citations missing": (dict(claims=[{"claim": "monday"}]),
                          r"claims\[0\]: missing key 'citations'"),
    "trial zero": (dict(trial=0), r"key 'trial' must be an int of at least 1; got 0"),
    "trial not whole": (dict(trial=1.5), r"key 'trial' must be an int of at least 1; got 1.5"),
    "unknown column": (dict(score=0.5), r"unknown key 'score'"),
    "unknown case": (dict(case="nowhere"), r"case 'nowhere' is not in the test set"),
    "retrieved a string": (dict(retrieved="launch"),
                           r"retrieved must be a list of IDs; got 'launch' \(a Dask frame"),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_a_malformed_run_record_is_a_value_error_naming_where_it_is(name):
    from ragscore import load_course

    changes, message = MALFORMED[name]
    frame = _course_partition(**changes)
    with pytest.raises(ValueError, match=message) as raised:
        partition_summaries(load_course(), frame, k=2, metrics=("support",),
                            where="run log partition 7")
    text = str(raised.value)
    assert text.startswith("run log partition 7"), text
    if name != "unknown case":
        assert "case 'launch', system 'A'" in text, text


def test_missing_values_in_columns_mean_fields_not_given():
    """A float NaN, None or pd.NA in a column is a field the record does not give; a whole
    float from an integer column with gaps is that integer."""
    from ragscore import load_course

    course = load_course()
    frame = pd.DataFrame({"case": ["launch", "launch"], "system": ["A", "A"],
                          "retrieved": [["launch"], ["archive", "launch"]],
                          "claims": [[{"claim": "monday", "citations": ["launch"]}], []],
                          "trial": [2.0, 1.0], "latency_ms": [float("nan"), 3.5],
                          "answer": pd.array([pd.NA, "Monday."], dtype="string")})
    with_trials = partition_summaries(course, frame, k=2, metrics=("precision", "support"))
    runs = {"launch": {"A": [{"trial": 1, "retrieved": ("archive", "launch"), "claims": (),
                              "latency_ms": 3.5, "answer": "Monday."},
                             {"trial": 2, "retrieved": ("launch",),
                              "claims": (("monday", ("launch",)),)}]}}
    one = count_dataset(course._replace(runs=runs))
    expected = {"A": aggregates(one, k=2, metrics=[REGISTRY["precision"], REGISTRY["support"]])}
    assert aggregate_partitions([with_trials], k=2, metrics=("precision", "support")) == expected


def test_inputs_that_cannot_be_scored_are_refused_before_anything_is_sent():
    pytest.importorskip("dask")
    from ragscore import InvalidInputError, load_course
    from ragscore.tables.partitioned import question_rows

    course = load_course()
    log = pd.DataFrame([{"case": "launch", "system": "A", "retrieved": ["launch"]}])
    with pytest.raises(InvalidInputError, match="the run log must be a Dask DataFrame"):
        score_dask(course, log, k=2, metrics=("support",))
    with pytest.raises(InvalidInputError, match="test_set must be a ragscore Dataset"):
        question_rows({"corpus": {}}, log, k=2, metrics=("support",))
    twice = pd.concat([log, log[["case"]]], axis=1)
    with pytest.raises(InvalidInputError, match="run log: column 'case' appears twice"):
        partition_summaries(course, twice, k=2, metrics=("support",))


def test_the_scale_and_test_extras_install_what_a_local_cluster_needs():
    """dask[dataframe] alone has no distributed scheduler: LocalCluster is in distributed."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    for extra in ("scale", "test"):
        names = {requirement.split(">=")[0] for requirement in extras[extra]}
        assert {"dask[dataframe]", "distributed"} <= names, extra


def test_a_test_set_marshal_does_not_take_still_travels():
    """A value marshal refuses (a date here) leaves the test set to Dask's pickle; a plain
    one crosses as marshal bytes. Either way the same test set arrives."""
    import copy
    import datetime
    import pickle

    from ragscore.engine.transport import Packed

    practice = load_dataset(ROOT / "fixtures" / "practice")
    plain = Packed(practice)
    assert copy.deepcopy(plain).dataset() == practice
    assert plain._payload is not None  # made once, kept for the next worker
    odd = practice._replace(notes=(datetime.date(2026, 12, 5),))
    sent = pickle.loads(pickle.dumps(Packed(odd)))
    assert sent.dataset() == odd and sent._payload is None
