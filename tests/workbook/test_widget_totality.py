"""The workbook's builders and the sweep on a dataset missing a field or without runs: the
package's ValueError with a message, never a KeyError, IndexError or TypeError."""
import pytest

from ragscore import InvalidInputError
from ragscore.tables.summary import aggregates, claim_counts, sweep
from ragscore.workbook.widgets import citation_editor, k_explorer, ranking_editor

BUILDERS = {
    "k explorer": lambda d, **o: k_explorer(d, plot=False, **o),
    "citation editor": citation_editor,
    "ranking editor": ranking_editor,
}


def _variants(course):
    runs, cases = course.runs, course.cases
    return {
        "no runs": (course._replace(runs={}), r"needs a dataset with at least one recorded run"),
        "runs None": (course._replace(runs=None), r"dataset\.runs must be a dict; got None"),
        "cases None": (course._replace(cases=None), r"dataset\.cases must be a dict; got None"),
        "empty corpus": (course._replace(corpus={}), r"corpus must be a non-empty dict"),
        "case without relevant": (
            course._replace(cases=dict(cases, owner={"support": cases["owner"]["support"]})),
            r"case 'owner': case\['relevant'\] must be present"),
        "run without claims": (
            course._replace(runs=dict(runs, owner={"A": {"retrieved": ("owners",)}})),
            r"case 'owner', system 'A': run\['claims'\] must be present"),
        "run without retrieved": (
            course._replace(runs=dict(runs, owner={"A": {"claims": ()}})),
            r"case 'owner', system 'A': run\['retrieved'\] must be present"),
        "run of an unknown case": (
            course._replace(runs=dict(runs, ghost={"A": runs["owner"]["A"]})),
            r"runs\['ghost'\] names a case that is not in cases"),
    }


@pytest.mark.parametrize("builder", BUILDERS)
@pytest.mark.parametrize("variant", ["no runs", "runs None", "cases None", "empty corpus",
                                     "case without relevant", "run without claims",
                                     "run without retrieved", "run of an unknown case"])
def test_builders_refuse_a_broken_dataset_clearly(course, builder, variant):
    dataset, message = _variants(course)[variant]
    with pytest.raises(InvalidInputError, match=message.replace("needs", f"{builder} needs")
                       if variant == "no runs" else message):
        BUILDERS[builder](dataset)


@pytest.mark.parametrize("builder", BUILDERS)
def test_builders_refuse_unknown_choices(course, builder):
    with pytest.raises(InvalidInputError, match=r"system must be one of A, B; got 'C'"):
        BUILDERS[builder](course, system="C")
    with pytest.raises(InvalidInputError, match=r"k must be an int from 1 to 5 \(the slider's "
                                                r"range\); got 9"):
        BUILDERS[builder](course, k=9)
    if builder != "k explorer":
        with pytest.raises(InvalidInputError, match=r"case must be one of the cases with runs "
                                                    r"\(launch, rollback, owner, region\); "
                                                    r"got 'ghost'"):
            BUILDERS[builder](course, case="ghost")


def test_a_case_whose_runs_are_empty_is_not_offered(course):
    dataset = course._replace(runs=dict(course.runs, owner={}))
    assert "owner" not in citation_editor(dataset).case.options
    with pytest.raises(InvalidInputError, match=r"case must be one of the cases with runs"):
        citation_editor(dataset, case="owner")


def test_the_explorer_refuses_an_unknown_metric(course):
    with pytest.raises(InvalidInputError, match=r"metric must be one of the registered metrics \(closest: "):
        k_explorer(course, metric="accuracy", plot=False)


@pytest.mark.parametrize("variant", ["runs None", "cases None", "empty corpus",
                                     "case without relevant", "run without claims",
                                     "run without retrieved", "run of an unknown case"])
def test_tables_refuse_a_broken_dataset_clearly(course, variant):
    dataset, message = _variants(course)[variant]
    message = message.replace(r"dataset\.", "")
    for table in (lambda d: sweep(d, max_k=3), lambda d: aggregates(d, k=2),
                  lambda d: claim_counts(d, k=2)):
        with pytest.raises(InvalidInputError, match=message):
            table(dataset)


def test_tables_of_a_dataset_without_runs_are_empty(course):
    empty = course._replace(runs={})
    assert len(sweep(empty, max_k=3)) == 0
    assert len(aggregates(empty, k=2)) == 0
    assert len(claim_counts(empty, k=2)) == 0


def test_the_explorer_reads_an_imported_test_set_under_its_own_rules():
    """An import (open IDs, graded labels, no corpus text) was refused by the explorer as
    "corpus['lighthouse'] must be non-blank text": it scored under the course rules."""
    from pathlib import Path

    from ragscore.importers import import_trec
    from ragscore.tables.scores import question_table
    from ragscore.workbook.explore import question_rows

    trec = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "trec"
    dataset, _ = import_trec(trec / "qrels.txt", [trec / "bm25.run", trec / "dense.run"])
    rows = question_rows(dataset, k=3, system="bm25")
    table = question_table(dataset, k=3)
    expected = [format(value, ".2f") if value is not None else "n/a" for value in
                table.xs("bm25", level="system")["precision"].astype(object)
                .where(table.xs("bm25", level="system")["precision"].notna(), None)]
    assert [row["P@3"] for row in rows] == expected
    assert k_explorer(dataset, k=3, plot=False).rows() == rows


@pytest.mark.parametrize("builder", ["citation editor", "ranking editor"])
def test_the_editors_say_they_score_with_the_course_rules(course, builder):
    dataset = course._replace(ids="open")
    with pytest.raises(InvalidInputError, match=rf"the {builder} scores with the course rules "
                                                r"\(ragscore\.evaluate\); this dataset declares "
                                                r"ids 'open'"):
        BUILDERS[builder](dataset)
