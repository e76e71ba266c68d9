"""``ragscore plan``: questions a paired comparison needs, checked against G*Power and a
simulation of the paired t-test; judgements per kind counted by hand on chapter 9's
answers; bad input refused with one line (exit 2)."""
import math

import numpy as np
import pytest
from scipy import stats

from ragscore.cli import capture
from ragscore.tables.plan import power_of, questions_needed
from ragscore.usecases.plan import plan

ANSWERS = "fixtures/answers"


def test_the_questions_needed_match_g_power():
    # G*Power 3.1, t tests, means: difference from constant (one sample / matched pairs),
    # two-sided a = 0.05, power 0.8: dz = 0.25 -> 128, dz = 0.5 -> 34, dz = 0.8 -> 15
    assert questions_needed(0.2, 0.05) == 128
    assert questions_needed(0.2, 0.1) == 34
    assert questions_needed(0.1, 0.08) == 15
    assert questions_needed(0.2, -0.05) == 128  # a fall is detected as a rise is
    assert questions_needed(0.0, 0.05) == 2


def _rejections(draw, n, *, reps, confidence=0.95, seed=0):
    """How often a two-sided paired t-test over ``n`` questions rejects, over ``reps``
    simulated test sets whose differences ``draw(rng, shape)`` gives."""
    rng = np.random.default_rng(seed)
    deltas = draw(rng, (reps, n))
    spread = deltas.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = deltas.mean(axis=1) / (spread / math.sqrt(n))
    critical = stats.t.ppf(1 - (1 - confidence) / 2, n - 1)
    return float(np.mean(np.abs(np.nan_to_num(t)) > critical))


def test_the_plan_reaches_its_power_in_a_simulation():
    reps = 4000  # standard error of a rejection rate near 0.8: sqrt(0.16 / 4000) = 0.0063
    n = questions_needed(0.2, 0.05)
    normal = lambda rng, shape: rng.normal(0.05, 0.2, shape)  # noqa: E731
    found = _rejections(normal, n, reps=reps)
    assert abs(found - power_of(n, 0.2, 0.05)) < 3 * 0.0063
    assert found > 0.8 - 3 * 0.0063
    assert _rejections(normal, 64, reps=reps) < 0.8 - 5 * 0.0063  # half the questions: short
    # differences as a support score gives them: -1, 0 or +1 per question (a claim lost,
    # kept, gained), mean 0.1, standard deviation sqrt(0.25 - 0.01) = 0.4899
    n = questions_needed(math.sqrt(0.24), 0.1)
    three = lambda rng, shape: rng.choice([-1.0, 0.0, 1.0], size=shape,  # noqa: E731
                                          p=[0.075, 0.75, 0.175])
    assert abs(_rejections(three, n, reps=reps, seed=1) - 0.8) < 0.04


def test_judgements_per_kind_are_counted_from_the_test_set():
    found = plan(ANSWERS, baseline="draft", candidate="careful", metric="support",
                 delta=0.1, sd=0.3)
    # pools at depth 10 (draft and careful's retrieved together): launch 2, rollback 3,
    # owner 2, region 2: 9 / 4 = 2.25 a question; distinct claims of the two answers:
    # launch 2 (careful repeats draft's first), rollback 4, owner 2, region 2: 10 / 4 = 2.5
    assert found.per_question["relevance"][0] == 2.25
    assert found.per_question["support"][0] == 2.5
    assert found.questions == questions_needed(0.3, 0.1)
    assert found.judgements == {"relevance": math.ceil(2.25 * found.questions),
                                "answerability": found.questions,
                                "support": math.ceil(2.5 * found.questions)}
    assert found.sd_from == "stated" and found.have == 4
    assert found.reads == ("support", "answerability")


def test_the_observed_spread_is_the_sample_standard_deviation():
    found = plan("fixtures/course", baseline="A", candidate="B", metric="rr", delta=0.1, k=2)
    from ragscore.core.metrics import REGISTRY
    from ragscore.engine import count_dataset
    from ragscore.folders import load_dataset

    systems = count_dataset(load_dataset("fixtures/course")).by_system()
    before = systems["A"].values_by_case(REGISTRY["rr"], 2)
    after = systems["B"].values_by_case(REGISTRY["rr"], 2)
    deltas = [after[case] - before[case] for case in after
              if after[case] is not None and before.get(case) is not None]
    assert found.pairs == len(deltas)
    assert found.sd == pytest.approx(float(np.std(deltas, ddof=1)), abs=1e-12)


@pytest.mark.parametrize("extra,message", [
    (["--delta", "0"], "--delta must be the difference to detect, a finite number other "
                       "than 0; got 0.0"),
    (["--delta", "0.1", "--power", "1"], "--power must be a number strictly between 0 and 1; "
                                         "got 1.0"),
    (["--delta", "0.1", "--power", "0"], "--power must be a number strictly between 0 and 1; "
                                         "got 0.0"),
    (["--delta", "0.1", "--sd", "-1"], "--sd must be a finite number at least 0; got -1.0"),
    # ((1.959964 + 0.841621) * 1e20 / 0.1)^2 = (2.801585e21)^2 = 7.849e42 questions
    (["--delta", "0.1", "--sd", "99999999999999999999"],
     "detecting --delta 0.1 when the paired differences have a standard deviation of 1e+20 "
     "needs more than 10,000,000 questions (the normal approximation says 7.85e+42); plan "
     "for a larger --delta"),
    # 1e-320 is below the smallest normal float: (z sd / delta)^2 overflows a float
    (["--delta", "1e-320", "--sd", "1"],
     "detecting --delta 1e-320 when the paired differences have a standard deviation "
     "of 1.0 needs more than 10,000,000 questions (the normal approximation says inf); plan "
     "for a larger --delta"),
    (["--delta", "0.1", "--sd", "1", "--claims-per-answer", "inf"],
     "--claims-per-answer must be a finite number above 0; got inf"),
])
def test_bad_plans_are_refused(extra, message):
    code, out, err = capture(["plan", ANSWERS, "--baseline", "draft", "--candidate",
                              "careful", "--metric", "support"] + extra)
    assert (code, out, err) == (2, "", f"ragscore: error: {message}\n")


def test_fewer_than_two_paired_questions_are_refused():
    # nobody has reviewed chapter 9's answers: support is n/a everywhere, no pair
    code, out, err = capture(["plan", ANSWERS, "--baseline", "draft", "--candidate",
                              "careful", "--metric", "support", "--delta", "0.1"])
    assert (code, out) == (2, "")
    assert err == ("ragscore: error: the test set has 0 paired questions where both draft and "
                   "careful have support defined; a standard deviation needs at least two "
                   "(state one with --sd)\n")
