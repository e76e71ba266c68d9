"""Each kind of decision on its own scale (issue 40): every level is a decision (a support vs
partial_support dispute is a nugget dispute naming its nugget; grades 1 and 2 differ);
Cohen's kappa per kind and pair, never pooled across kinds; Krippendorff's alpha per kind,
ordinal for grades, nominal otherwise, worked by hand and checked against the reference
implementation (the krippendorff package, 0.9.0)."""
import random
from fractions import Fraction

import krippendorff
import numpy as np
import pytest

import ragscore
from ragscore.core.reviews import agreement, disputed

REVIEWERS = ("ana", "ben")
# Worked by hand. ana's decisions, then ben's, on each item of three kinds:
#   relevance (grades)  r1 2/2  r2 1/2  r3 0/0  r4 1/0  r5 2/2
#   answerability       a1 answerable/answerable  a2 unanswerable/unsure  a3 answerable/answerable
#   nugget              n1 support/partial_support  n2 partial_support/partial_support
#                       n3 not_support/not_support  n4 support/support
DECISIONS = {
    "relevance": {"r1": (2, 2), "r2": (1, 2), "r3": (0, 0), "r4": (1, 0), "r5": (2, 2)},
    "answerability": {"a1": ("answerable", "answerable"), "a2": ("unanswerable", "unsure"),
                      "a3": ("answerable", "answerable")},
    "nugget": {"n1": ("support", "partial_support"),
               "n2": ("partial_support", "partial_support"),
               "n3": ("not_support", "not_support"), "n4": ("support", "support")},
}
SUBJECT = {"relevance": {"doc": "launch"}, "answerability": {}, "nugget": {"nugget": "n1"}}


def _key(name):
    return f"{sum(map(ord, name)):016x}"


def judgements(decisions=DECISIONS, *, draft=None):
    records = []
    for kind, items in decisions.items():
        for name, pair in items.items():
            for reviewer, decision in zip(REVIEWERS, pair):
                records.append({"kind": kind, "case": "launch", "key": _key(name),
                                **SUBJECT[kind], "decision": decision, "reviewer": reviewer,
                                "date": "2026-01-02", "origin": "human",
                                "batch": "0a1b2c3d4e5f6071"})
    if draft:
        records.append(dict(records[0], reviewer="judge:gpt", origin="llm-draft",
                            decision=draft))
    return tuple(records)


def test_every_level_is_a_decision_and_every_difference_a_dispute():
    found = disputed({}, judgements())
    assert {item[1] for item in found.items} == {("relevance", _key("r2")),
                                                 ("relevance", _key("r4")),
                                                 ("answerability", _key("a2")),
                                                 ("nugget", _key("n1"))}
    assert found.items[("launch", ("nugget", _key("n1")))] == {"ana": "support",
                                                               "ben": "partial_support"}
    assert found.items[("launch", ("relevance", _key("r2")))] == {"ana": 1, "ben": 2}


def test_a_machine_draft_disagreeing_is_no_dispute():
    records = judgements({"relevance": {"r1": (2, 2)}}, draft=0)
    assert disputed({}, records).items == {}


def test_kappa_per_kind_never_pooled():
    rows = {row.kind: row for row in agreement({}, judgements())}
    assert list(rows) == ["relevance", "answerability", "nugget"]
    # relevance: agreed r1 r3 r5, po = 3/5; ana 2:2 1:2 0:1, ben 2:3 0:2:
    # pe = (2*3 + 2*0 + 1*2)/25 = 8/25; kappa = (15/25 - 8/25)/(17/25) = 7/17
    relevance = rows["relevance"]
    assert (relevance.items, relevance.agreed) == (5, 3)
    assert (relevance.po, relevance.pe, relevance.kappa) == (Fraction(3, 5), Fraction(8, 25),
                                                             Fraction(7, 17))
    # answerability: po = 2/3; ana answerable 2 unanswerable 1, ben answerable 2 unsure 1:
    # pe = 2*2/9 = 4/9; kappa = (6/9 - 4/9)/(5/9) = 2/5
    assert (rows["answerability"].po, rows["answerability"].pe,
            rows["answerability"].kappa) == (Fraction(2, 3), Fraction(4, 9), Fraction(2, 5))
    # nugget, partial levels counted: 4 items, agreed n2 n3 n4, po = 3/4; ana support 2,
    # partial 1, not 1; ben partial 2, not 1, support 1: pe = (2*1 + 1*2 + 1*1)/16 = 5/16;
    # kappa = (12/16 - 5/16)/(11/16) = 7/11
    nugget = rows["nugget"]
    assert (nugget.items, nugget.agreed, nugget.kappa) == (4, 3, Fraction(7, 11))


def _alpha():  # imported here: the tests of disputes and kappa run on older code too
    from ragscore.core.reviews import alpha

    return alpha


def _krippendorff():
    from ragscore.core import agreement as module

    return module


def test_alpha_per_kind_by_hand():
    alpha = _alpha()
    rows = {row.kind: row for row in alpha({}, judgements())}
    # relevance, ordinal: coincidences o22 = 4, o12 = o21 = 1, o00 = 2, o01 = o10 = 1;
    # n0 = 3, n1 = 2, n2 = 5, n = 10; d(0,1) = (5 - 5/2)**2 = 25/4, d(1,2) = (7 - 7/2)**2 =
    # 49/4, d(0,2) = (10 - 4)**2 = 36; observed 2*25/4 + 2*49/4 = 37; expected
    # 2*(3*2*25/4 + 2*5*49/4 + 3*5*36) = 1400; alpha = 1 - 9*37/1400 = 1067/1400
    assert (rows["relevance"].level, rows["relevance"].values) == ("ordinal", 10)
    assert rows["relevance"].alpha == Fraction(1067, 1400)
    # answerability, nominal: n_answerable 4, n_unanswerable 1, n_unsure 1, n = 6; observed 2;
    # expected 2*(4*1 + 4*1 + 1*1) = 18; alpha = 1 - 5*2/18 = 4/9
    assert (rows["answerability"].level, rows["answerability"].alpha) == ("nominal",
                                                                          Fraction(4, 9))
    # nugget, nominal: n_support 3, n_partial 3, n_not 2, n = 8; observed 2; expected
    # 2*(3*3 + 3*2 + 3*2) = 42; alpha = 1 - 7*2/42 = 2/3
    assert rows["nugget"].alpha == Fraction(2, 3)
    assert rows["nugget"].items == 4 and rows["nugget"].reviewers == 2


def _reference(kind, level):
    """The krippendorff package's alpha of DECISIONS[kind] (reviewers as rows)."""
    pairs = list(DECISIONS[kind].values())
    codes = {value: code for code, value in enumerate(sorted({v for pair in pairs
                                                             for v in pair}, key=str))}
    data = np.array([[codes[pair[n]] if level == "nominal" else pair[n] for pair in pairs]
                     for n in range(2)], dtype=float)
    return krippendorff.alpha(reliability_data=data, level_of_measurement=level)


@pytest.mark.parametrize("kind, level", [("relevance", "ordinal"), ("answerability", "nominal"),
                                         ("nugget", "nominal")])
def test_alpha_agrees_with_the_reference_implementation(kind, level):
    alpha = _alpha()
    (row,) = [row for row in alpha({}, judgements()) if row.kind == kind]
    assert float(row.alpha) == pytest.approx(_reference(kind, level), abs=1e-12)


@pytest.mark.parametrize("level", ["nominal", "ordinal"])
def test_alpha_agrees_with_the_reference_on_random_data(level):
    module = _krippendorff()
    krippendorff_alpha, ALPHA_UNDEFINED, ONE_VALUE = (module.krippendorff_alpha,
                                                      module.ALPHA_UNDEFINED, module.ONE_VALUE)
    generator = random.Random(40)
    for _ in range(40):
        coders, units = generator.randint(2, 4), generator.randint(2, 25)
        grades = generator.randint(2, 4)
        data = [[generator.randrange(grades) if generator.random() > 0.25 else None
                 for _ in range(units)] for _ in range(coders)]
        ours, _, reason = krippendorff_alpha(
            [[row[unit] for row in data if row[unit] is not None] for unit in range(units)],
            level=level)
        matrix = np.array([[np.nan if value is None else value for value in row]
                           for row in data], dtype=float)
        try:
            theirs = krippendorff.alpha(reliability_data=matrix, level_of_measurement=level)
        except ValueError:  # the reference refuses one value only: ours says why
            assert ours is None and reason in (ONE_VALUE, ALPHA_UNDEFINED)
            continue
        if ours is None:
            assert np.isnan(theirs) or reason == ONE_VALUE, (data, theirs)
            continue
        assert float(ours) == pytest.approx(theirs, abs=1e-9), data


def test_alpha_is_undefined_without_two_decisions_or_with_one_category():
    module = _krippendorff()
    krippendorff_alpha, ALPHA_UNDEFINED, ONE_VALUE = (module.krippendorff_alpha,
                                                      module.ALPHA_UNDEFINED, module.ONE_VALUE)
    assert krippendorff_alpha([["a"], ["b"]]) == (None, 0, ONE_VALUE)
    assert krippendorff_alpha([[1, 1], [1, 1]], level="ordinal") == (None, 4, ALPHA_UNDEFINED)
    with pytest.raises(ValueError, match="level must be 'nominal' or 'ordinal'"):
        krippendorff_alpha([[1, 2]], level="interval")


def test_the_audit_names_a_nugget_dispute_as_one(course):
    from ragscore.tables.audit import audit

    dataset = course._replace(judgements=judgements(), ids="open")
    found = [finding for finding in audit(dataset, k=2).findings if finding.kind == "disputed"]
    nugget = [finding for finding in found if "nugget" in finding.detail]
    assert [(finding.docs, finding.detail) for finding in nugget] == [
        (("n1",), "nugget 'n1': its assignment to an answer disputed: ana support, "
                  "ben partial_support")]
    assert not any(finding.detail.startswith("answerability") and "support" in finding.detail
                   for finding in found)
    grades = [finding.detail for finding in found if finding.detail.startswith("passage")]
    assert grades == ["passage relevance (grade) disputed: ana 1, ben 2",
                      "passage relevance (grade) disputed: ana 1, ben 0"]


def test_the_audit_command_prints_kappa_and_alpha_per_kind(tmp_path, course):
    from ragscore.cli import capture
    from ragscore.core.labels import question_key

    records = [dict(record, key=question_key(course.cases["launch"]["question"]))
               if record["kind"] == "answerability" else record
               for record in judgements({"answerability": {"a1": ("answerable", "unsure")}})]
    folder = ragscore.save_dataset(course._replace(judgements=tuple(records[:2])),
                                   tmp_path / "judged")
    code, out, err = capture(["audit", str(folder)])
    assert code == 0, err
    assert "answerability disputed: ana answerable, ben unsure" in out
    kappa = out[out.index("Agreement between reviewers, per kind"):]
    assert kappa.splitlines()[1].split()[:6] == ["kind", "first", "second", "items", "agreed",
                                                 "disagreed"]
    assert kappa.splitlines()[2].split()[:6] == ["answerability", "ana", "ben", "1", "0", "1"]
    assert "Krippendorff's alpha per kind" in out
