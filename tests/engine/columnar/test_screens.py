"""Each column screen is named after the record rule it mirrors (core.record_rules), and each
rule has its screen: for every rule, an input that breaks it is refused by the record reader
(the specification, which names the problem) and sent there by the screen of that name.

A screen without a rule fails test_every_screen_names_a_rule; a rule without a screen fails
test_a_broken_rule_is_caught_by_its_screen (its example reaches no screen of its name) and
test_every_rule_has_a_screen_and_an_example.
"""
import ast
import json
from pathlib import Path

import pytest

import ragscore
from ragscore.core.record_rules import FOLDER_RULES, RECORD_RULES, TREC_RULES
from ragscore.engine.columnar import screens, trec
from ragscore.engine.columnar.reader import screened_batch
from ragscore.engine.columnar.trec_columns import read_trec_columns
from ragscore.importers.trec import RunReader, is_grade, read_qrels
from ragscore.io.write import save_dataset as save_jsonl
from tests.folder_edits import rehash

COLUMNAR = Path(screens.__file__).parent
SCREENING = [COLUMNAR / "screens.py", COLUMNAR / "reader.py", COLUMNAR / "trec.py",
             COLUMNAR / "trec_columns.py"]


def _many(key, count, item):
    """A JSON key holding ``count`` copies of ``item`` (for the limits)."""
    return f'"{key}": [' + ", ".join([item] * count) + "]"


# rule: (ID rules, file, text to find, text to put instead, what the record reader says)
FOLDER_EXAMPLES = {
    "record.shape": ("course", "corpus", '"id": "archive"', '"id": "archive", "x": "y"',
                     "unknown key 'x'"),
    "corpus.not_empty": ("course", "corpus", None, "\n", "holds no documents"),
    "corpus.id": ("course", "corpus", '"id": "archive"', '"id": "Archive"',
                  "corpus key must be an ID"),
    "corpus.unique": ("course", "corpus", '"id": "archive"', '"id": "launch"',
                      "duplicate document id 'launch'"),
    "corpus.text": ("course", "corpus", '"text": "An old planning note discusses a retired '
                    'project."', '"text": " "', "must be non-blank text"),
    "corpus.source": ("open", "corpus", '"id": "archive"', '"id": "archive", "source": " x"',
                      "key 'source' must be an ID"),
    "corpus.version": ("open", "corpus", '"id": "archive"', '"id": "archive", "version": " "',
                       "key 'version' must be a non-blank string"),
    "cases.not_empty": ("course", "cases", None, "\n", "holds no cases"),
    "case.id": ("course", "cases", '"id": "region"', '"id": "a region"', "key 'id' must match"),
    "case.unique": ("course", "cases", '"id": "region"', '"id": "owner"',
                    "duplicate case id 'owner'"),
    "case.relevant": ("course", "cases", '"relevant": []', '"relevant": {}',
                      "key 'relevant' must be an array"),
    "case.grade": ("open", "cases", '"relevant": [], "support": {}',
                   '"relevant": {"launch": 1.5}', "must be an int grade"),
    "case.support": ("course", "cases", '"relevant": [], "support": {}', '"relevant": []',
                     "missing key 'support'"),
    "case.consistent": ("course", "cases", '"relevant": [], "support": {}',
                        '"relevant": ["archive"], "support": {}', "labelled consistently"),
    "support.judged": ("course", "cases", '"support": {"aurora": ["owners"]}',
                       '"support": {"aurora": ["archive"]}', "a source within case['relevant']"),
    "support.sources": ("course", "cases", '"support": {"aurora": ["owners"]}',
                        '"support": {"aurora": []}', "at least one source ID"),
    "run.case": ("course", "runs", '"case": "owner", "system": "A"',
                 '"case": "nobody", "system": "A"', "case 'nobody' is not in"),
    "run.system": ("course", "runs", '"system": "A"', '"system": "A B"',
                   "key 'system' must match"),
    "run.unique": ("course", "runs", '"case": "launch", "system": "B"',
                   '"case": "launch", "system": "A"', "system 'A'"),
    "run.claims": ("course", "runs", '"retrieved": ["rollback"], "claims": [{"claim": '
                   '"switch", "citations": ["rollback"]}]', '"retrieved": ["rollback"]',
                   "missing key 'claims'"),
    "claims.id": ("course", "runs", '{"claim": "bonus"', '{"claim": "Bonus"',
                  "must be a claim ID"),
    "claims.unique": ("course", "runs", '{"claim": "bonus"', '{"claim": "monday"',
                      "unique within the run"),
    "claims.limit": ("course", "runs", '"claims": [{"claim": "switch", "citations": '
                     '["rollback"]}]', '"claims": [' + ", ".join(
                         f'{{"claim": "c{n}", "citations": []}}' for n in range(101)) + "]",
                     "a tuple of at most 100 (claim, citations) pairs"),
    "ids.valid": ("course", "runs", '"citations": ["owners"]', '"citations": ["Not-An-ID"]',
                  "must be an ID"),
    "ids.unique": ("course", "runs", '"retrieved": ["rollback", "checklist"]',
                   '"retrieved": ["rollback", "rollback"]', "unique within the tuple"),
    "ids.limit": ("course", "runs", '"retrieved": ["rollback"]', _many(
        "retrieved", 101, '"rollback"'), "a tuple of at most 100 IDs"),
    "ids.in_corpus": ("course", "runs", '"retrieved": ["rollback"]', '"retrieved": ["nowhere"]',
                      "an ID in the corpus"),
}

# rule: (qrels text, run texts, RunReader options, what the line reader says)
TREC_EXAMPLES = {
    "trec.id": ("q1 0 d1 1\n", ["q1 Q0 d\x011 1 2.0 bm25\n"], {}, "docno must be an ID"),
    "trec.grade": ("q1 0 d1 1.5\n", [], {}, "rel must be an integer grade"),
    "trec.judged_once": ("q1 0 d1 1\nq1 0 d1 0\n", [], {}, "judges document 'd1' twice"),
    "trec.judged_limit": ("q1 0 d1 1\nq1 0 d2 1\nq1 0 d3 1\n", [], {"max_ids": 2},
                          "judges more than 2 documents"),
    "trec.score": ("q1 0 d1 1\n", ["q1 Q0 d1 1 high bm25\n"], {}, "score must be a number"),
    "trec.tag_once": ("q1 0 d1 1\n", ["q1 Q0 d1 1 2.0 bm25\n", "q1 Q0 d1 1 2.0 bm25\n"], {},
                      "each system's run must be in one file"),
    "trec.ranked_once": ("q1 0 d1 1\n", ["q1 Q0 d1 1 2.0 bm25\nq1 Q0 d1 2 1.0 bm25\n"], {},
                         "is ranked twice"),
    "trec.ranking_limit": ("q1 0 d1 1\n", ["q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 2 1.0 bm25\n"],
                           {"max_ids": 1}, "ranks more than 1 documents"),
    "trec.known_corpus": ("q1 0 d1 1\n", ["q1 Q0 d2 1 2.0 bm25\n"], {"known_as": "corpus.jsonl"},
                          "is not in corpus.jsonl"),
}


def _screen_names():
    """Every rule name a screen of the columnar wing passes (``screen(..., NAME)`` or
    ``Unclean(NAME)``), read from the source."""
    found = set()
    for path in SCREENING:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                    "screen", "Unclean") and node.args:
                name = node.args[-1]
                if getattr(name, "id", None) == "rule":  # screen() passing its own on
                    continue
                assert isinstance(name, ast.Constant), f"{path.name}:{node.lineno}: a screen " \
                                                       "names its rule as a constant"
                found.add(name.value)
    return found


def test_every_screen_names_a_rule():
    assert _screen_names() - set(RECORD_RULES) == set()


def test_every_rule_has_a_screen_and_an_example():
    assert set(RECORD_RULES) - _screen_names() == set()
    assert set(FOLDER_EXAMPLES) == set(FOLDER_RULES)
    assert set(TREC_EXAMPLES) == set(TREC_RULES)


def _broken_folder(tmp_path, ids, kind, old, new):
    course = ragscore.load_course()
    folder = save_jsonl(course._replace(ids=ids), tmp_path / "data", version=2)
    index = json.loads((folder / "dataset.json").read_text())
    path = folder / index["files"][kind]
    text = path.read_text(encoding="utf-8")
    if old is None:
        text = new
    else:
        assert old in text, old
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    rehash(folder)  # named by its new content: what the screens meet past the hash check
    return folder


def _broken_files(tmp_path, qrels, runs):
    (tmp_path / "qrels").write_text(qrels, encoding="utf-8")
    paths = []
    for number, text in enumerate(runs):
        paths.append(tmp_path / f"run{number}")
        paths[-1].write_text(text, encoding="utf-8")
    return tmp_path / "qrels", paths


def _trec_outcomes(tmp_path, qrels, runs, options):
    """``(the line readers' error, the rule of the screen that refused)``."""
    qrels_path, run_paths = _broken_files(tmp_path, qrels, runs)
    limit = {"max_ids": options["max_ids"]} if "max_ids" in options else {}
    documents = {}
    try:
        judged = read_qrels(qrels_path, documents, engine="reference", **limit)
        reader = RunReader(judged, documents, engine="reference", **options)
        for path in run_paths:
            reader.read(path)
    except ValueError as error:
        said = str(error)
    else:
        raise AssertionError("the line readers accepted it")
    columns = {}
    try:
        judged = trec.screened_qrels(qrels_path, columns, max_bytes=1 << 20,
                                     is_grade=is_grade, max_ids=options.get("max_ids", 10_000))
        reader = RunReader(judged, columns, engine="columnar", **options)
        for path in run_paths:
            origin, _, _ = trec.screened_run(reader, path)
            reader.origin.update(origin)
    except screens.Unclean as unclean:
        return said, unclean.rule
    raise AssertionError("no screen refused it")


def _columns_outcome(tmp_path, qrels, runs, options):
    """The rule of the screen of TREC files read straight into columns that refused them
    (``None``: a rule that reader has no screen for, as it reads with no known corpus)."""
    if "known_as" in options:
        return None
    qrels_path, run_paths = _broken_files(tmp_path, qrels, runs)
    found = set()
    for corpus in (True, False):  # with the corpus (import) and without (eval)
        try:
            read_trec_columns(qrels_path, run_paths, is_grade=is_grade, max_bytes=1 << 20,
                              max_ids=options.get("max_ids", 10_000), corpus=corpus)
        except screens.Unclean as unclean:
            found.add(unclean.rule)
        else:
            raise AssertionError("no screen of the columns reader refused it")
    assert len(found) == 1, found
    return found.pop()


@pytest.mark.parametrize("rule", sorted(RECORD_RULES))
def test_a_broken_rule_is_caught_by_its_screen(tmp_path, rule):
    if rule in FOLDER_EXAMPLES:
        ids, kind, old, new, message = FOLDER_EXAMPLES[rule]
        folder = _broken_folder(tmp_path, ids, kind, old, new)
        with pytest.raises(ValueError) as refused:
            ragscore.load_dataset(folder)
        said = str(refused.value)
        with pytest.raises(screens.Unclean) as screened:
            screened_batch(folder, max_bytes=1 << 30)
        caught = screened.value.rule
    else:
        qrels, runs, options, message = TREC_EXAMPLES[rule]
        said, caught = _trec_outcomes(tmp_path, qrels, runs, options)
        if not runs:  # the columns reader reads a qrels file with its runs
            runs = ["q1 Q0 d1 1 2.0 bm25\n"]
        straight = _columns_outcome(tmp_path, qrels, runs, options)
        assert straight in (rule, None), f"the columns reader's {straight!r} caught {rule!r}"
    assert message in said
    assert caught == rule, f"the screen of {caught!r} caught what breaks {rule!r}: {said}"


def test_a_clean_folder_and_clean_files_pass_every_screen(tmp_path):
    folder = ragscore.save_dataset(ragscore.load_course(), tmp_path / "data")
    assert screened_batch(folder, max_bytes=1 << 30).rows == 8
    qrels, runs = _broken_files(tmp_path, "q1 0 d1 1\nq1 0 d2 0\n",
                                ["q1 Q0 d2 1 2.0 bm25\nq1 Q0 d1 2 1.0 bm25\n"])
    documents = {}
    judged = trec.screened_qrels(qrels, documents, max_bytes=1 << 20, max_ids=10,
                                 is_grade=is_grade)
    _, rankings, _ = trec.screened_run(RunReader(judged, documents), runs[0])
    assert judged == {"q1": {"d1": 1, "d2": 0}} and rankings == {"bm25": {"q1": ("d2", "d1")}}


def test_corpus_ids_sharing_a_fingerprint_are_compared_as_ids():
    from ragscore.engine.columnar.arrow import fingerprints, strings

    # 48 bytes each: they differ only in byte 9, which no fingerprint window reads
    one, other = "abcdefgh-1-" + "i" * 37, "abcdefgh-2-" + "i" * 37
    apart = strings([one, other, "d1"])
    assert fingerprints(apart)[0] == fingerprints(apart)[1]
    screens._unique_ids(apart)  # told apart: not refused
    twice = strings([one, "d1", one])
    with pytest.raises(screens.Unclean) as caught:
        screens._unique_ids(twice)
    assert caught.value.rule == "corpus.unique"
