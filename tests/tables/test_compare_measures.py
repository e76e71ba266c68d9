"""``compare --measures ... --format csv|json``: a summary per measure (each side's mean, the
paired difference, its interval, pairs used and left out, method) and per-question rows,
honouring --na-as-zero. Expected numbers worked out by hand on the course data."""
import csv
import io
import json
from pathlib import Path

from ragscore.cli import capture

ROOT = Path(__file__).resolve().parents[2]
COURSE = str(ROOT / "fixtures" / "course")
PRACTICE = str(ROOT / "fixtures" / "practice")


def _compare(*options):
    code, out, err = capture(["compare", COURSE, "--baseline", "A", "--candidate", "B",
                              *options])
    assert code == 0, err
    return out, err


def test_csv_has_the_rows_then_a_summary_per_measure():
    out, _ = _compare("--measures", "RR P@1", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["case", "measure", "baseline", "candidate", "delta", "verdict",
                             "ci_low", "ci_high", "p_value", "p_holm", "tested", "used",
                             "left_out", "method"]
    # owner: A ranks its relevant note second (RR 1/2), B first (1): improved by 0.5
    owner = next(row for row in rows if (row["case"], row["measure"]) == ("owner", "RR"))
    assert (owner["baseline"], owner["candidate"], owner["delta"], owner["verdict"]) == (
        "0.5", "1.0", "0.5", "improved")
    # region is unanswerable: RR n/a on both sides, an empty field, never 0
    region = next(row for row in rows if (row["case"], row["measure"]) == ("region", "RR"))
    assert (region["baseline"], region["candidate"], region["delta"]) == ("", "", "")
    summary = {row["measure"]: row for row in rows if row["case"] == "all"}
    assert list(summary) == ["RR", "P@1"] and rows[-2]["case"] == "all"
    # RR: A (1 + 1 + 1/2) / 3 = 5/6, B 3/3 = 1; paired over the 3 answerable questions:
    # deltas 0, 0, 1/2, mean 1/6; region left out (n/a on both sides)
    rr = summary["RR"]
    assert float(rr["baseline"]) == 5 / 6 and float(rr["candidate"]) == 1.0
    assert abs(float(rr["delta"]) - 1 / 6) < 1e-15
    assert (rr["used"], rr["left_out"], rr["ci_low"], rr["p_value"]) == ("3", "1", "", "")
    assert rr["method"].startswith("baseline macro over 3 (0 left out); candidate macro over "
                                   "3 (0 left out); paired mean of candidate - baseline")
    assert rr["method"].endswith("only 3 paired questions; at least 10 are needed")
    # P@1: A 1 + 1 + 0 over 3 = 2/3, B 3/3
    assert float(summary["P@1"]["baseline"]) == 2 / 3


def test_json_honours_na_as_zero_in_rows_and_summary():
    out, err = _compare("--measures", "RR", "--format", "json", "--na-as-zero")
    found = json.loads(out)
    assert "count 0 on both sides" in err
    region = next(row for row in found["rows"] if row["case"] == "region")
    assert (region["baseline"], region["candidate"], region["verdict"]) == (0.0, 0.0,
                                                                            "unchanged")
    (rr,) = found["summary"]
    # region counts 0 on both sides: A (1 + 1 + 1/2 + 0) / 4 = 0.625, B 3/4 = 0.75,
    # paired deltas 0, 0, 1/2, 0: mean 1/8 over 4 pairs, none left out
    assert (rr["baseline"], rr["candidate"], rr["delta"]) == (0.625, 0.75, 0.125)
    assert (rr["used"], rr["left_out"], rr["baseline_used"]) == (4, 0, 4)
    plain = json.loads(_compare("--measures", "RR", "--format", "json")[0])
    assert next(row for row in plain["rows"] if row["case"] == "region")["baseline"] is None


def test_interval_and_p_value_are_compare_stats_numbers():
    options = ["compare", PRACTICE, "--baseline", "baseline", "--candidate", "rerank",
               "--format", "json"]
    code, out, _ = capture([*options, "--measures", "RR@3 support@3"])
    assert code == 0
    ours = {row["measure"]: row for row in json.loads(out)["summary"]}
    code, out, _ = capture([*options, "--stats", "--metrics", "rr,support", "--k", "3"])
    assert code == 0
    stats = {row["metric"]: row for row in json.loads(out)}
    for label, metric in (("RR@3", "rr"), ("support@3", "support")):
        assert ours[label]["used"] == stats[metric]["n"]
        for key in ("ci_low", "ci_high", "p_value"):
            assert ours[label][key] == stats[metric][key], (label, key)
        assert ours[label]["delta"] == stats[metric]["mean_delta"]


def test_plain_compare_writes_csv_too():
    out, _ = _compare("--format", "csv", "--metrics", "support")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["case", "metric", "baseline", "candidate", "delta", "verdict"]
    assert rows[1] == ["launch", "support", "1.0", "0.5", "-0.5", "regressed"]


def test_plain_compare_honours_na_as_zero_and_says_so():
    out, err = _compare("--format", "csv", "--metrics", "rr", "--na-as-zero")
    # region is unanswerable: RR n/a on both sides, read as 0 on both: unchanged, delta 0
    assert ["region", "rr", "0.0", "0.0", "0.0", "unchanged"] in list(csv.reader(
        io.StringIO(out)))
    assert "--na-as-zero" in err
    plain, _ = _compare("--format", "csv", "--metrics", "rr")  # without it: empty, not 0
    assert ["region", "rr", "", "", "", "unchanged"] in list(csv.reader(io.StringIO(plain)))
