"""Format version 3: run records with manifests, delivered context, trials and operations;
access groups, superseded chunks, tags, splits, conflicts and reviews; the fingerprint."""
import json

import pytest

from ragscore.core.trials import Trials
from ragscore.engine import count_folder as read_counts
from ragscore.io.dataset import Dataset
from ragscore.folders import load_dataset, save_dataset
from ragscore.io.write import save_dataset as save_jsonl
from ragscore.io.jsonl import DatasetFileError
from ragscore.io.manifest import fingerprint, manifest_report
from ragscore.io.schemas import schema_errors

MANIFEST = {"run_id": "B-2026-12-01", "date": "2026-12-01", "model": "demo-model-2",
            "code_revision": "abc123", "retrieval": {"retriever": "bm25", "k": 3},
            "context_cutoff": 2, "prompt_revision": "p4", "generation": {"temperature": 0.7},
            "rubric_version": "strict-1", "notes": "one controlled change: reranker on"}


def sample(**changes):
    fields = dict(
        corpus={"pay": "Pay day is the 25th.", "salaries": "Salary bands by name.",
                "fee-v1": "The fee is 10.", "fee-v2": "The fee is 12."},
        cases={"payday": {"question": "When is pay day?", "relevant": ("pay",),
                          "support": {"day": ("pay",)}, "tags": ("lookup", "permission"),
                          "split": "dev", "caller_groups": ("staff",),
                          "reviews": ({"reviewer": "ana", "doc": "pay",
                                       "decision": "relevant", "note": ""},
                                      {"reviewer": "ben", "system": "S", "claim": "day",
                                       "decision": "supported", "note": "ok"})},
               "fee": {"question": "What is the fee?", "relevant": ("fee-v1", "fee-v2"),
                       "support": {"amount": ("fee-v1", "fee-v2")}, "tags": ("outdated",),
                       "split": "heldout", "conflicting": ("fee-v1",)}},
        runs={"payday": {"S": {"retrieved": ("pay", "salaries"), "delivered": ("pay", "salaries"),
                               "claims": (("day", ("pay",)),), "answer": "The 25th.",
                               "latency_ms": 850.5, "tokens": 312, "cost": 0.0021,
                               "retries": 0, "failed": False}},
              "fee": {"S": [{"trial": 1, "retrieved": ("fee-v1",),
                             "claims": (("amount", ("fee-v1",)),), "answer": "10."},
                            {"trial": 2, "retrieved": ("fee-v2",),
                             "claims": (("amount", ("fee-v2",)),), "answer": "12."}]}},
        name="v3", ids="open", groups={"salaries": frozenset({"hr"})},
        superseded=frozenset({"fee-v1"}), rubric="strict-1", manifests={"S": MANIFEST})
    fields.update(changes)
    return Dataset(**fields)


def test_version_3_saves_and_loads_back_unchanged(tmp_path):
    dataset = sample()
    save_jsonl(dataset, tmp_path / "v3", version=3)  # the version 3 writer (ragscore.io)
    index = json.loads((tmp_path / "v3" / "dataset.json").read_text())
    assert index["version"] == 3 and index["manifests"]["S"]["model"] == "demo-model-2"
    loaded = load_dataset(tmp_path / "v3")
    assert loaded.groups == {"salaries": frozenset({"hr"})}
    assert loaded.superseded == frozenset({"fee-v1"})
    assert loaded.cases["payday"]["tags"] == ("lookup", "permission")
    assert loaded.cases["fee"]["conflicting"] == ("fee-v1",)
    assert loaded.runs["payday"]["S"]["latency_ms"] == 850.5
    assert [run["trial"] for run in loaded.runs["fee"]["S"]] == [1, 2]
    assert fingerprint(loaded) == fingerprint(dataset)


def test_streaming_reader_counts_trials_groups_and_ops(tmp_path):
    save_dataset(sample(), tmp_path / "v3")
    counted = read_counts(tmp_path / "v3", engine="reference")
    assert counted.keys == [("payday", "S"), ("fee", "S")]
    payday, fee = counted.counts
    # salaries is hr-only, the caller is staff, and it was delivered: one disclosure
    assert payday.exposed == (1,)
    # trial 1 cites fee-v1: the losing side of the conflict (and superseded): unsupported;
    # trial 2 cites fee-v2: supported
    assert type(fee) is Trials
    assert [one.claim_cutoffs for one in fee] == [(), (1,)]
    assert counted.features == {"answers", "trials", "delivered", "groups", "superseded"}
    assert counted.ops[("payday", "S")] == [{"latency_ms": 850.5, "tokens": 312,
                                             "cost": 0.0021, "retries": 0, "failed": False}]


def test_the_fingerprint_ignores_key_order_and_follows_content(tmp_path):
    save_jsonl(sample(), tmp_path / "a", version=3)  # every file JSON Lines, to rewrite
    index = json.loads((tmp_path / "a" / "dataset.json").read_text())
    # the same content, written by hand with keys and ID sets in another order
    for kind in ("corpus", "cases", "runs"):
        lines = (tmp_path / "a" / index["files"][kind]).read_text().splitlines()
        records = [json.loads(line) for line in lines]
        for record in records:
            if "relevant" in record:
                record["relevant"] = record["relevant"][::-1]
        (tmp_path / f"{kind}.jsonl").write_text(
            "".join(json.dumps(dict(reversed(list(r.items())))) + "\n" for r in records[::-1]))
    folder = tmp_path / "b"
    folder.mkdir()
    for kind in ("corpus", "cases", "runs"):
        (tmp_path / f"{kind}.jsonl").rename(folder / f"{kind}.jsonl")
    del index["files"]
    (folder / "dataset.json").write_text(json.dumps(index))
    first, second = fingerprint(load_dataset(tmp_path / "a")), fingerprint(load_dataset(folder))
    assert first == second
    assert len(first["corpus_sha256"]) == 64
    reworded = sample()
    reworded.cases["fee"]["question"] = "How much is the fee?"
    assert fingerprint(reworded)["questions_sha256"] != first["questions_sha256"]
    assert fingerprint(reworded)["corpus_sha256"] == first["corpus_sha256"]
    # a reviewer's judgement is not part of the test set
    reviewed = sample()
    reviewed.cases["fee"]["reviews"] = ({"reviewer": "ana", "doc": "fee-v2",
                                         "decision": "relevant"},)
    assert fingerprint(reviewed) == first


def test_manifest_report_names_every_system(tmp_path):
    report = manifest_report(sample())
    assert report["runs"] == {"S": MANIFEST}
    assert set(report["fingerprint"]) == {"corpus_sha256", "questions_sha256", "rubric"}


def _write(tmp_path, index, corpus, cases, runs):
    folder = tmp_path / "bad"
    folder.mkdir(exist_ok=True)
    (folder / "dataset.json").write_text(json.dumps(index))
    for kind, records in (("corpus", corpus), ("cases", cases), ("runs", runs)):
        (folder / f"{kind}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


INDEX = {"format": "ragscore-dataset", "version": 3, "ids": "open"}
CORPUS = [{"id": "a", "text": "A."}]
CASES = [{"id": "q", "relevant": ["a"], "support": {"x": ["a"]}}]
RUNS = [{"case": "q", "system": "S", "retrieved": ["a"], "claims": []}]


@pytest.mark.parametrize("index, corpus, cases, runs, message", [
    (dict(INDEX, manifests={"S": {"run_id": "r1", "date": "2026-12-01"}}), CORPUS, CASES,
     RUNS, r"dataset\.json: manifests\['S'\]: \(top level\): missing key 'model'"),
    (dict(INDEX, manifests={"S": dict(MANIFEST, context_cutoff="two")}), CORPUS, CASES,
     RUNS, r"manifests\['S'\]: context_cutoff: must satisfy type 'integer'; got 'two'"),
    (INDEX, [{"id": "a", "text": "A.", "groups": "hr"}], CASES, RUNS,
     r"corpus\.jsonl, line 1: key 'groups' must be an array"),
    (INDEX, [{"id": "a", "text": "A.", "superseded": "yes"}], CASES, RUNS,
     r"corpus\.jsonl, line 1: key 'superseded' must be true or false; got 'yes'"),
    (INDEX, CORPUS, [dict(CASES[0], split="test")], RUNS,
     r"cases\.jsonl, line 1: key 'split' must be one of dev, heldout; got 'test'"),
    (INDEX, CORPUS, [dict(CASES[0], reviews=[{"reviewer": "ana", "doc": "a",
                                               "decision": "maybe"}])], RUNS,
     r"cases\.jsonl, line 1: reviews\[0\]: key 'decision' must be one of relevant, "
     r"not relevant; got 'maybe'"),
    (INDEX, CORPUS, CASES, [dict(RUNS[0], trial=0)],
     r"runs\.jsonl, line 1: key 'trial' must be an int of at least 1; got 0"),
    (INDEX, CORPUS, CASES, [dict(RUNS[0], trial=1), RUNS[0]],
     r"runs\.jsonl, line 2: case 'q', system 'S': key 'trial' is given on some"),
    (INDEX, CORPUS, CASES, [dict(RUNS[0], latency_ms=-1)],
     r"runs\.jsonl, line 1: key 'latency_ms' must be a number of at least 0; got -1"),
    (INDEX, CORPUS, CASES, [dict(RUNS[0], delivered=["zz"])],
     r"runs\.jsonl, line 1 \(case 'q', system 'S'\): run\['delivered'\]\[0\] must be an ID "
     r"in the corpus"),
    (dict(INDEX, version=2), CORPUS, [dict(CASES[0], tags=["lookup"])], RUNS,
     r"cases\.jsonl, line 1: unknown key 'tags'"),
    (INDEX, CORPUS, [dict(CASES[0], reference=7)], RUNS,
     r"cases\.jsonl, line 1: key 'reference' must be a string or an array of strings \(an "
     r"empty array: unanswerable\); got 7"),
    (INDEX, CORPUS, [dict(CASES[0], reference=["a", None])], RUNS,
     r"cases\.jsonl, line 1: key 'reference' must be a string or an array of strings"),
    (INDEX, CORPUS, CASES, [dict(RUNS[0], answer=["a"])],
     r"runs\.jsonl, line 1: key 'answer' must be a string; got \['a'\]"),
    (dict(INDEX, version=2), CORPUS, [dict(CASES[0], reference="a")], RUNS,
     r"cases\.jsonl, line 1: unknown key 'reference'"),
])
def test_each_file_type_names_file_line_and_field(tmp_path, index, corpus, cases, runs,
                                                  message):
    folder = _write(tmp_path, index, corpus, cases, runs)
    with pytest.raises(DatasetFileError, match=message):
        load_dataset(folder)
    with pytest.raises(DatasetFileError, match=message):
        read_counts(folder)


@pytest.mark.parametrize("name, good, bad, field", [
    ("corpus-record", CORPUS[0], {"id": "a", "groups": [1]}, "groups[0]"),
    ("case-record", CASES[0], dict(CASES[0], split="test"), "split"),
    ("case-record", dict(CASES[0], reference=["x", "y"]), dict(CASES[0], reference=[1]),
     "reference"),
    ("run-record", RUNS[0], dict(RUNS[0], tokens=-3), "tokens"),
    ("manifest", MANIFEST, dict(MANIFEST, date="soon"), "date"),
])
def test_the_shipped_schemas_agree_with_the_reader(name, good, bad, field):
    assert schema_errors(good, name) == []
    assert schema_errors(bad, name)[0][0] == field


def test_validate_checks_every_record_against_the_schemas(tmp_path, capsys):
    from ragscore.cli import main
    from ragscore.folders import validate_folder

    folder = _write(tmp_path, INDEX, CORPUS, CASES, RUNS + [dict(RUNS[0], system="T",
                                                                tokens=-3)])
    with pytest.raises(DatasetFileError, match=r"runs\.jsonl, line 2: tokens: must satisfy "
                                               r"minimum 0; got -3"):
        validate_folder(folder)
    assert main(["validate", str(folder)]) == 2
    assert "runs.jsonl, line 2: tokens" in capsys.readouterr().err
    good = _write(tmp_path, INDEX, CORPUS, CASES, RUNS)
    assert validate_folder(good) == {"corpus": 1, "cases": 1, "runs": 1}


def test_a_review_of_a_document_outside_the_corpus_is_refused(tmp_path):
    review = {"reviewer": "ana", "doc": "ghost", "decision": "relevant"}
    folder = _write(tmp_path, INDEX, CORPUS, [dict(CASES[0], reviews=[review])], RUNS)
    message = (r"cases\.jsonl, line 1 \(case 'q'\): case\['reviews'\]\[0\]\['doc'\] must be an "
               r"ID in the corpus; got 'ghost'")
    with pytest.raises(DatasetFileError, match=message):
        load_dataset(folder)
    with pytest.raises(DatasetFileError, match=message):
        read_counts(folder)


def test_reference_answers_save_and_load_back(tmp_path):
    dataset = Dataset(corpus={"a": "A."}, cases={"q": {"question": "", "relevant": ("a",),
                                                       "reference": ("x", "y")},
                                                 "u": {"question": "", "relevant": (),
                                                       "reference": ()}},
                      runs={"q": {"S": {"retrieved": ("a",), "answer": "x"}},
                            "u": {"S": {"retrieved": (), "answer": ""}}}, ids="open",
                      sources={}, versions={})
    folder = save_jsonl(dataset, tmp_path / "d", version=3)
    assert json.loads((folder / "dataset.json").read_text())["version"] == 3
    assert load_dataset(folder) == dataset
    assert load_dataset(save_dataset(dataset, tmp_path / "five")) == dataset
