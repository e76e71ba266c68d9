"""On Dask's distributed scheduler (a LocalCluster of worker processes), a run log read from
Parquet in several partitions gives exactly one process's aggregates and per-question rows;
the test set is packed once, never hashed; docs/scale.md's script runs as written."""
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from ragscore.core.aggregate import aggregates
from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_dataset
from ragscore.folders import load_dataset

from run_logs import records_of, split_log, synthetic, write_parquet

distributed = pytest.importorskip("distributed")
ROOT = Path(__file__).resolve().parents[2]
METRICS = tuple(REGISTRY)


@pytest.fixture(scope="module")
def client():
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as running:
        yield running


def _exact(found):
    """Every field of every aggregate, floats as their exact bits."""
    return {system: [tuple(value.hex() if type(value) is float else value for value in row)
                     for row in rows] for system, rows in found.items()}


def _one_process(dataset, k):
    counted = count_dataset(dataset)
    return {system: aggregates(view, k=k, metrics=[REGISTRY[name] for name in METRICS])
            for system, view in counted.by_system().items()}


@pytest.fixture(scope="module", params=["practice", "synthetic"])
def dataset(request):
    if request.param == "synthetic":
        return synthetic()
    return load_dataset(ROOT / "fixtures" / request.param)


def test_a_local_cluster_gives_one_process_aggregates_and_rows_bit_for_bit(client, dataset,
                                                                           tmp_path):
    import dask.dataframe as dd
    from ragscore.engine.partitions import score_dask
    from ragscore.tables.partitioned import question_rows
    from ragscore.tables.scores import question_table

    log = dd.read_parquet(str(write_parquet(records_of(dataset), tmp_path, 4)))
    assert log.npartitions == 4
    found = score_dask(dataset, log, k=3, metrics=METRICS)
    assert _exact(found) == _exact(_one_process(dataset, 3))
    rows = question_rows(dataset, log, k=3, metrics=METRICS).compute()
    rows = rows.set_index("system", append=True).sort_index()
    expected = question_table(dataset, k=3, metrics=METRICS).sort_index()
    assert list(rows.index) == list(expected.index)
    for name in METRICS:
        assert rows[name].dtype == expected[name].dtype, name
        left = [None if value is pd.NA else value for value in rows[name].tolist()]
        right = [None if value is pd.NA else value for value in expected[name].tolist()]
        assert [value.hex() if type(value) is float else value for value in left] == \
            [value.hex() if type(value) is float else value for value in right], name


def test_the_test_set_is_packed_once_and_never_hashed(client, tmp_path, monkeypatch):
    """Four partitions, one packing of the test set on the client; hashing it (what made the
    client wait 73 s per partition at a million questions) would fail here."""
    import dask.dataframe as dd
    from dask.base import normalize_token
    from ragscore.engine import transport
    from ragscore.engine.partitions import score_dask
    from ragscore.io.format import Dataset

    practice = load_dataset(ROOT / "fixtures" / "practice")
    packed = []
    dumps = transport.marshal.dumps
    monkeypatch.setattr(transport.marshal, "dumps",
                        lambda value: packed.append(1) or dumps(value))

    def refuse(value):
        raise AssertionError("the test set was hashed")

    for kind in (Dataset, transport.Packed):
        normalize_token.register(kind)(refuse)
    try:
        log = dd.read_parquet(str(write_parquet(records_of(practice), tmp_path, 4)))
        found = score_dask(practice, log, k=2, metrics=METRICS)
    finally:
        for kind in (Dataset, transport.Packed):
            normalize_token._lookup.pop(kind, None)
    assert packed == [1]
    assert _exact(found) == _exact(_one_process(practice, 2))


def test_a_split_question_is_refused_on_the_cluster(client):
    from ragscore.engine.partitions import score_dask

    practice = load_dataset(ROOT / "fixtures" / "practice")
    with pytest.raises(ValueError, match="case 'sick-note', system 'rerank': run records in "
                                         "partitions 0 and 1"):
        score_dask(practice, split_log(practice), k=2, metrics=METRICS)


def test_a_malformed_record_fails_its_task_naming_it(client, tmp_path):
    import dask.dataframe as dd
    from ragscore.engine.partitions import score_dask

    practice = load_dataset(ROOT / "fixtures" / "practice")
    records = records_of(practice)
    records[-1] = dict(records[-1], trial=0)
    log = dd.read_parquet(str(write_parquet(records, tmp_path, 2)))
    case, system = records[-1]["case"], records[-1]["system"]
    with pytest.raises(ValueError, match=rf"run log partition \d, row \d+, case '{case}', "
                                         rf"system '{system}': key 'trial' must be an int of "
                                         "at least 1; got 0"):
        score_dask(practice, log, k=2, metrics=METRICS)


def _doc_script():
    """The Python block of docs/scale.md that starts with '# score_log.py'."""
    text = (ROOT / "docs" / "scale.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    found = [block for block in blocks if block.startswith("# score_log.py")]
    assert len(found) == 1
    return found[0]


def test_the_script_in_docs_scale_runs_as_written(tmp_path):
    """Beside a test set folder and a Parquet run log, the doc's script prints one
    process's aggregates and writes one process's per-question rows, n/a as null."""
    import shutil

    from ragscore.tables.scores import question_table

    practice = load_dataset(ROOT / "fixtures" / "practice")
    shutil.copytree(ROOT / "fixtures" / "practice", tmp_path / "my-set")
    (tmp_path / "run-log").mkdir()
    write_parquet(records_of(practice), tmp_path / "run-log", 3)
    (tmp_path / "score_log.py").write_text(_doc_script())
    result = subprocess.run([sys.executable, "score_log.py"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stderr
    metrics = [REGISTRY[name] for name in ("precision", "recall", "ndcg", "support")]
    counted = count_dataset(practice)
    expected = [f"{system}: {aggregate.description}"
                for system, view in counted.by_system().items()
                for aggregate in aggregates(view, k=10, metrics=metrics)]
    assert result.stdout.splitlines() == expected
    rows = pd.read_parquet(tmp_path / "scores").set_index("system", append=True).sort_index()
    table = question_table(practice, k=10, metrics=[metric.name for metric in metrics])
    table = table.sort_index()
    assert list(rows.index) == list(table.index)
    for metric in metrics:
        assert rows[metric.name].isna().tolist() == table[metric.name].isna().tolist()
        assert rows[metric.name].dropna().tolist() == table[metric.name].dropna().tolist()


@pytest.mark.exhaustive
def test_the_dask_benchmark_runs_on_a_small_size_and_agrees():
    """benchmarks/bench_dask.py at 3,000 questions: every figure printed, nothing differs."""
    script = ROOT / "benchmarks" / "bench_dask.py"
    result = subprocess.run([sys.executable, str(script), "--questions", "3000",
                             "--partitions", "4", "--rows"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("3,000 questions in 4 Parquet partitions, 2 local workers")
    assert any(line.startswith("client before the first task: ") for line in lines)
    assert any(line.endswith(", 0 differ") and line.startswith("aggregates, Dask vs one")
               for line in lines)
    assert lines[-1].endswith("values compared with one process's table, 0 differ")
