"""The TREC importer over generated inputs: every import is valid or names its problem, and
the columnar reading gives what the line-by-line reading (the specification) gives.

Over generated qrels and run files with odd cases (ties, duplicate lines, unjudged documents,
grades -1 to 3, questions missing from a run, odd IDs, comments, blank lines, several
separators) and malformed lines (a field short, bad scores and grades, IDs too long or
holding control characters): every import either raises :class:`DatasetFileError` naming
the file and line, or returns a dataset that :func:`check_dataset` accepts; and both engines
give the same dataset or the same error.
"""
import random
import shutil
from pathlib import Path

import pytest

from ragscore import DatasetFileError
from ragscore.io.dataset import check_dataset
from ragscore.io.write import dataset_files
from ragscore.importers import import_trec
from ragscore.engine.columnar.trec import read_plain_qrels
from ragscore.importers.trec import RunReader, is_grade

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "trec"
# IDs that are valid but odd: JSON escapes, non-ASCII, a zero-width space, a '#' inside,
# the longest allowed
ODD_IDS = ['say"hi', "back\\slash", "café", "zero\u200bwidth", "d#7", "x" * 512, "Ω"]
# fields that are not IDs (a control character, too long) or not numbers
BAD_IDS = ["bell\x07", "csi\x9b", "y" * 513, "del\x7f"]
BAD_SCORES = ["high", "nan", "1_0", "1.2.3", "\u0661\u0662", "--1"]
BAD_GRADES = ["1.5", "two", "0x1", "1_0", "9223372036854775808", "-9" * 1 + "9" * 25]


def _id(rng, pool):
    return rng.choice(pool) if rng.random() < 0.1 else f"d{rng.randrange(40)}"


def _score(rng):
    return rng.choice([str(rng.randrange(5)), f"{rng.random() * 3:.1f}", "-0", "1e1",
                       str(-rng.randrange(3)), "2.50", "0x10", "-inf", "0.50000001", "0.5"])


def _qrels(rng, questions, bad, plain):
    lines = []
    for qid in questions:
        for _ in range(rng.randint(1, 4)):
            grade = str(rng.randint(-1, 3))
            if rng.random() < 0.1:
                grade = "+" + grade.lstrip("-")
            if rng.random() < 0.05:
                grade = "0" + grade.lstrip("-")  # 03: a whole number, read as 3
            lines.append(f"{qid} 0 {_id(rng, ODD_IDS)} {grade}")
    seen, kept = set(), []
    for line in lines:  # a document judged twice is an error: keep one
        qid, _, doc, _ = line.split()
        if (qid, doc) not in seen:
            seen.add((qid, doc))
            kept.append(line)
    if bad:
        at = rng.randrange(len(kept))
        kind = rng.randrange(4)
        qid, _, doc, grade = kept[at].split()
        kept[at] = (f"{qid} 0 {doc}" if kind == 0 else
                    f"{qid} 0 {rng.choice(BAD_IDS)} {grade}" if kind == 1 else
                    f"{qid} 0 {doc} {rng.choice(BAD_GRADES)}" if kind == 2 else
                    f"{kept[at]}\n{qid} 7 {doc} {grade}")  # the same document judged twice
    rng.shuffle(kept)
    if not plain:  # what only the line reader reads: a blank line, a tab, a comment inside
        odd = rng.randrange(3)
        at = rng.randrange(len(kept) + 1)
        kept.insert(at, "" if odd == 0 else "# a comment inside" if odd == 1 else
                    f"{questions[0]}\t0\ttabbed\t1")
    return "".join(line + "\n" for line in ["# qrels", *kept])


def _run(rng, questions, tag, bad, plain):
    lines = [] if plain else ["# a run", ""]
    separators = [" "] if plain else [" ", " ", " ", "\t", "  "]
    for qid in questions:
        if rng.random() < 0.15:
            continue  # a question missing from this run
        docs = list(dict.fromkeys(_id(rng, ODD_IDS) for _ in range(rng.randint(1, 12))))
        for rank, doc in enumerate(docs, 1):
            separator = rng.choice(separators)
            lines.append(separator.join([qid, "Q0", doc, str(rank), _score(rng), tag]))
    for _ in range(rng.randrange(3)):  # questions without qrels
        lines.append(f"unjudged{rng.randrange(3)} Q0 {_id(rng, ODD_IDS)} 1 1.0 {tag}")
    if rng.random() < 0.2 and len(lines) > 3:
        lines.append(lines[rng.randrange(2, len(lines))])  # a duplicate line
    if rng.random() < 0.3:
        rng.shuffle(lines)  # a question's lines apart
    if not plain and rng.random() < 0.1:
        lines.insert(rng.randrange(len(lines)), "")
    if not plain and rng.random() < 0.2 and lines:
        lines[0] += " trailing words, as in trec_eval's results.trunc"
    data = [at for at, line in enumerate(lines) if len(line.split()) >= 6]
    if bad and data:
        at = rng.choice(data)
        fields = lines[at].split()[:6]
        kind = rng.randrange(3)
        if kind == 0:
            fields = fields[:5]
        elif kind == 1:
            fields[4] = rng.choice(BAD_SCORES)
        else:
            fields[rng.choice([0, 2, 5])] = rng.choice(BAD_IDS)
        lines[at] = " ".join(fields)
    return "".join(line + "\n" for line in lines)


def _files(seed, folder):
    """Write a qrels file and one to three run files; return their paths."""
    rng = random.Random(seed)
    questions = [f"q{n}" for n in range(rng.randint(1, 6))] + (["Ω-q"] if seed % 3 else [])
    broken = rng.random() < 0.5
    target = rng.randrange(4) if broken else None
    plain = seed % 2 == 0
    qrels = folder / "qrels.txt"
    qrels.write_text(_qrels(rng, questions, target == 0, plain), encoding="utf-8")
    runs = []
    for index, tag in enumerate(rng.sample(["A", "B", 'C"q', "d\u00e9"], rng.randint(1, 3))):
        path = folder / f"{index}.run"
        path.write_text(_run(rng, questions, tag, target == index + 1, plain), encoding="utf-8")
        runs.append(path)
    return qrels, runs


def _outcome(qrels, runs, **options):
    try:
        dataset, notes = import_trec(qrels, runs, **options)
    except DatasetFileError as error:
        return "error", str(error)
    return "dataset", (dataset, notes)


@pytest.mark.parametrize("seed", range(300))
def test_an_import_is_valid_or_names_its_problem_the_same_way_in_both_engines(tmp_path, seed):
    qrels, runs = _files(seed, tmp_path)
    options = {"missing_run": "skip" if seed % 4 == 0 else "zero",
               "max_depth": 3 if seed % 5 == 0 else None}
    kind, result = _outcome(qrels, runs, engine="reference", **options)
    if kind == "error":
        assert result.startswith(str(tmp_path)) and ", line " in result or \
            result.endswith(("holds no judgements", "holds no run lines")), result
    else:
        check_dataset(result[0])
    columnar = _outcome(qrels, runs, engine="columnar", **options)
    assert columnar == (kind, result)
    if kind == "dataset":  # in the same order too: the same files
        assert dataset_files(columnar[1][0]) == dataset_files(result[0])


def test_the_generated_inputs_cover_the_odd_cases(tmp_path):
    """The generator above reaches every case it is meant to: valid imports with odd IDs,
    negative grades, ties and empty rankings, errors of each kind, and plain files read by
    the columnar reader."""
    seen = set()
    for seed in range(300):
        folder = tmp_path / str(seed)
        folder.mkdir()
        qrels, runs = _files(seed, folder)
        kind, result = _outcome(qrels, runs)
        if kind == "error":
            seen.add(next((what for what in ("fields", "can order", "score must be a number",
                                             "docno must", "qid must", "judges document",
                                             "tag must", "rel must", "ranked twice")
                           if what in result), result))
        else:
            dataset = result[0]
            grades = {g for case in dataset.cases.values() for g in case["relevant"].values()}
            seen.update(f"grade {g}" for g in grades)
            if any(doc in dataset.corpus for doc in ODD_IDS):
                seen.add("odd ID")
            if any(run["retrieved"] == () for per in dataset.runs.values()
                   for run in per.values()):
                seen.add("empty ranking")
            reader = RunReader(dataset.cases, {})
            for path in runs:
                reader.read(path)
            seen.update(f"read {how}" for how in reader.read_by.values())
        shutil.rmtree(folder)
    assert {"fields", "score must be a number", "can order", "docno must", "qid must",
            "tag must", "rel must", "ranked twice", "judges document", "grade -1", "grade 0",
            "grade 3",
            "odd ID", "empty ranking", "read columnar", "read lines"} <= seen, seen


def test_a_plain_file_is_read_in_columns_and_an_odd_one_line_by_line(tmp_path):
    runs = [FIXTURE / "bm25.run", FIXTURE / "dense.run"]  # a blank line; tabs and spaces
    assert import_trec(FIXTURE / "qrels.txt", runs) == import_trec(
        FIXTURE / "qrels.txt", runs, engine="reference")
    plain = tmp_path / "plain.run"
    plain.write_text("# opening comments are fine\nq1 Q0 harbour 1 7.5 s\n"
                     "q1 Q0 lighthouse 2 7.5 s\nq2 Q0 moraine 1 5 s\n")
    reader = RunReader({"q1", "q2"}, {})
    for path in [*runs, plain]:
        reader.read(path)
    assert reader.read_by == {runs[0]: "lines", runs[1]: "lines", plain: "columnar"}
    assert reader.rankings["s"] == {"q1": ("lighthouse", "harbour"), "q2": ("moraine",)}
    assert reader.origin["s"] == (plain, 2)


def test_a_plain_qrels_file_is_read_in_columns_and_an_odd_one_left_to_the_lines(tmp_path):
    plain = tmp_path / "plain.qrels"
    plain.write_text("# opening comments are fine\nq2 0 b 1\nq1 0 a +2\nq2 0 a 03\nq1 0 c 0\n")
    documents = {"c": "c"}
    judged = read_plain_qrels(plain, documents, max_bytes=1 << 20, max_ids=10,
                              is_grade=is_grade)
    assert judged == {"q2": {"b": 1, "a": 3}, "q1": {"a": 2, "c": 0}}
    assert [list(grades) for grades in judged.values()] == [["b", "a"], ["a", "c"]]
    assert list(documents) == ["c", "b", "a"]  # a known docno keeps its place
    assert read_plain_qrels(plain, {}, max_bytes=1 << 20, max_ids=1,
                            is_grade=is_grade) is None  # q2 judges 2
    run = tmp_path / "a.run"
    run.write_text("q1 Q0 a 1 2 s\n")
    for text in ["q1 0 a 1\n\nq2 0 b 1\n", "q1 0 a 1\n# inside\nq2 0 b 1\n",
                 "q1 0 a 1\nq1 0 a 2\n", "q1 0 a 1.5\n", "q1 0 a 1 extra\n", "q1\t0 a 1\n",
                 "q1  a 1\n", "q1\t\ta\t1\n"]:  # the last two: an empty iter, 3 fields
        odd = tmp_path / "odd.qrels"
        odd.write_text(text)
        documents = {}
        assert read_plain_qrels(odd, documents, max_bytes=1 << 20, max_ids=10,
                                is_grade=is_grade) is None, text
        assert documents == {}  # nothing entered when the line reader must read it
        assert _outcome(odd, run) == _outcome(odd, run, engine="reference")


@pytest.mark.parametrize("text", [
    "q1  a 1 2 s\n",  # an empty Q0 between two spaces: five whitespace-separated fields
    "q1 Q0 a  2 s\n",  # an empty rank
    "q1\t\ta\t1\t2\ts\n",  # an empty Q0 between two tabs
    "q1 Q0 a 1 2 s\n#q2 Q0 b 1 2 s\n",  # a comment inside, six fields as a run line has
])
def test_a_plain_run_with_an_empty_field_or_a_comment_inside_is_left_to_the_lines(
        tmp_path, text):
    # the line reader splits on runs of whitespace, so an empty field is no field (line 1
    # holds 5, an error) and a '#' line is skipped: the columnar reader must not read either
    qrels, run = tmp_path / "qrels.txt", tmp_path / "odd.run"
    qrels.write_text("q1 0 a 1\nq2 0 b 1\n")
    run.write_text(text)
    reader = RunReader({"q1", "q2"}, {})
    try:
        reader.read(run)
    except DatasetFileError:
        pass
    assert reader.read_by == {run: "lines"}
    assert _outcome(qrels, run) == _outcome(qrels, run, engine="reference")


@pytest.mark.parametrize("opening, line", [("#a\n#b c\n# d\n", 4), ("", 1), ("#\n", 2)])
def test_the_comments_opening_a_plain_run_are_skipped_and_counted_in_its_line_numbers(
        tmp_path, opening, line):
    run = tmp_path / "plain.run"
    run.write_text(opening + "q2 Q0 a 1 2.5 s\nq1 Q0 b 1 1.5 t\n")
    reader = RunReader({"q1", "q2"}, {})
    reader.read(run)
    assert reader.read_by == {run: "columnar"}
    assert reader.origin == {"s": (run, line), "t": (run, line + 1)}
    only = tmp_path / "only.run"  # comments and no line ending: no run lines
    only.write_text("#a\n#b")
    with pytest.raises(DatasetFileError, match="holds no run lines"):
        RunReader({"q1"}, {}).read(only)


def test_a_known_corpus_refuses_a_docno_outside_it_even_where_max_depth_cuts_it(tmp_path):
    # the line reader checks every line of a judged question before cutting the ranking;
    # the columnar reader must not import what it refuses (zz is ranked second, cut at 1)
    run = tmp_path / "cut.run"
    run.write_text("q1 Q0 d1 1 3 s\nq1 Q0 zz 2 1 s\nq9 Q0 zz 1 1 s\n")
    outcomes = []
    for engine in ("columnar", "reference"):
        reader = RunReader({"q1"}, {"d1": "d1"}, known_as="the corpus", max_depth=1,
                           engine=engine)
        with pytest.raises(DatasetFileError) as caught:
            reader.read(run)
        outcomes.append(str(caught.value))
    assert outcomes[0] == outcomes[1] == (
        f"{run}, line 2: document 'zz' is not in the corpus")
    inside = tmp_path / "inside.run"  # q9 has no qrels: its zz is not checked by either
    inside.write_text("q1 Q0 d1 1 3 s\nq9 Q0 zz 1 1 s\n")
    for engine, how in (("columnar", "columnar"), ("reference", "lines")):
        reader = RunReader({"q1"}, {"d1": "d1"}, known_as="the corpus", engine=engine)
        reader.read(inside)
        assert reader.rankings["s"] == {"q1": ("d1",)}
        assert reader.read_by[inside] == how
