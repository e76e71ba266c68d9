"""``plan``: how many questions, and how many judgements of each kind, a paired comparison
of two systems needs to detect a difference (docs/labels.md, "A labelling plan").

The standard deviation of the per-question differences comes from the test set's paired
questions (``metric`` at ``k``, the questions where both systems are defined) or is stated
(``sd``, when there is no data yet); :func:`ragscore.tables.plan.questions_needed` turns it
into questions. Each new question then needs, per kind:

- ``relevance``: its pool, the union of both systems' top ``pool_depth`` passages (the mean
  pool the test set's questions have, else 2 x ``pool_depth``, every passage distinct);
- ``answerability``: one decision, where no written label says whether it is answerable;
- ``support``: each distinct claim of the two answers (the mean the test set's questions
  have, else 2 x ``claims_per_answer``);
- ``nugget``: each answer against each nugget without sources (the test set's mean, when it
  lists nuggets).

The metric's stage says which it reads: a retrieval metric the pool, an answer metric the
claims, a nugget or citation score the assignments and grades.
"""
import math
from collections import namedtuple

from ..core.rules import InvalidInputError, show
from ..render import plan as written
from ..render.writers import Writer, data_writer, writer_table
from .result import Result

__all__ = ["Plan", "plan"]


class Plan(Result, namedtuple("Plan", "baseline candidate metric k delta power confidence sd "
                                      "sd_from pairs mean_delta questions normal have "
                                      "per_question reads")):
    """A labelling plan: the comparison (``baseline``, ``candidate``, ``metric`` at ``k``),
    what to detect (``delta``, ``power``, ``confidence``), the standard deviation ``sd``
    (``sd_from``: ``observed`` or ``stated``) with the ``pairs`` and ``mean_delta`` observed
    (``None`` without data), the ``questions`` needed (``normal``: the normal
    approximation's), the paired questions the test set ``have``, ``per_question``
    (``{kind: (judgements per question, how it was counted)}``) and the kinds the metric
    ``reads``."""

    __slots__ = ()
    job = "a labelling plan"

    @property
    def judgements(self):
        """``{kind: judgements for the questions needed}`` (rounded up)."""
        import math

        return {kind: math.ceil(per * self.questions - 1e-9)
                for kind, (per, _) in self.per_question.items()}

    writers = writer_table(Writer("text", written.plan_text),
                           data_writer("json", written.plan_json))


def _reads(metric):
    if metric.stage == "retrieval":
        return ("relevance", "answerability")
    if metric.stage == "answer":
        return ("support", "answerability")
    return ("nugget", "citation")


def _observed(source, baseline, candidate, pool_depth):
    """``{kind: per question}`` over the questions both systems answered."""
    from ..core.nuggets import case_nuggets, check_nuggets
    from ..core.trials import trial_runs
    from ..io.answers import derived_claims

    answered = [case for case, per_case in source.runs.items()
                if baseline in per_case and candidate in per_case]
    if not answered:
        return {}
    pools, claims, nuggets = [], {}, []
    for case in answered:
        pool = set()
        for system in (baseline, candidate):
            for run in trial_runs(source.runs[case][system]):
                pool.update((run.get("retrieved") or ())[:pool_depth])
                for claim, cited in run.get("claims") or ():
                    claims.setdefault(case, set()).add((claim, tuple(cited)))
        pools.append(len(pool))
        listed = source.cases[case].get("nuggets")
        if listed:
            found = case_nuggets(check_nuggets(listed, rules=source.rules),
                                 source.cases[case].get("support"))
            nuggets.append(2 * sum(1 for nugget in found if not nugget.expected))
    for case, _, _, derived in derived_claims(source, systems={baseline, candidate},
                                              keyed=True):
        claims.setdefault(case, set()).update(derived.keys)
    found = {"relevance": (sum(pools) / len(answered),
                           f"the mean pool of the test set's {len(answered)} questions at "
                           f"depth {pool_depth}"),
             "support": (sum(len(claims.get(case, ())) for case in answered) / len(answered),
                         f"the mean distinct claims of the two answers over "
                         f"{len(answered)} questions")}
    if nuggets:
        found["nugget"] = (sum(nuggets) / len(answered), "two answers x the mean nuggets "
                                                         "without sources")
    return found


def plan(dataset, *, baseline, candidate, metric, delta, power=0.8, confidence=0.95,
         sd=None, k=2, pool_depth=10, claims_per_answer=None):
    """The :class:`Plan` of a paired comparison of ``candidate`` against ``baseline`` on
    ``metric`` at ``k`` detecting ``delta`` with ``power`` at ``confidence`` (two-sided
    paired t-test), from ``dataset``'s observed differences or a stated ``sd``.

    Refused, naming the option: a delta of 0, a power or a confidence outside (0, 1), a
    negative ``sd``, fewer than two paired questions without ``sd``."""
    from ..core.metrics import get
    from ..tables.plan import check_plan, normal_questions, questions_needed
    from .reading import counted_runs, cutoff, loaded

    check_plan(delta=delta, power=power, confidence=confidence, sd=sd)
    chosen = get(metric)
    if type(pool_depth) is not int or pool_depth < 1:
        raise InvalidInputError(f"--pool-depth must be a whole number 1 or above; got "
                                f"{show(pool_depth)}")
    if claims_per_answer is not None and (type(claims_per_answer) not in (int, float)
                                          or not 0 < claims_per_answer < math.inf):
        raise InvalidInputError(f"--claims-per-answer must be a finite number above 0; got "
                                f"{show(claims_per_answer)}")
    source = loaded(dataset)
    deltas, have = [], 0
    if source.runs:
        counted = counted_runs(source)
        k = cutoff(k, counted.rules)
        systems = counted.by_system()
        for role, name in (("--baseline", baseline), ("--candidate", candidate)):
            if name not in systems:
                raise InvalidInputError(f"{role} {show(name)} has no runs in this test set; "
                                        f"systems: {', '.join(map(show, systems))}")
        before = systems[baseline].values_by_case(chosen, k)
        after = systems[candidate].values_by_case(chosen, k)
        have = sum(1 for case in after if case in before)
        deltas = [float(after[case]) - float(before[case]) for case in after
                  if after[case] is not None and before.get(case) is not None]
    mean_delta = sum(deltas) / len(deltas) if deltas else None
    sd_from = "stated"
    if sd is None:
        if len(deltas) < 2:
            raise InvalidInputError(
                f"the test set has {len(deltas)} paired question{'s' * (len(deltas) != 1)} "
                f"where both {baseline} and {candidate} have {chosen.name} defined; a "
                "standard deviation needs at least two (state one with --sd)")
        sd = (sum((d - mean_delta) ** 2 for d in deltas) / (len(deltas) - 1)) ** 0.5
        sd_from = "observed"
    per_question = _observed(source, baseline, candidate, pool_depth)
    per_question.setdefault("relevance", (2 * pool_depth, f"2 x pool depth {pool_depth} (no "
                                          "runs to count: every passage distinct)"))
    if claims_per_answer is not None or "support" not in per_question:
        per = 1 if claims_per_answer is None else claims_per_answer
        per_question["support"] = (2 * per, f"2 answers x {per:g} claims per answer")
    per_question["answerability"] = (1, "one per question its labels leave open")
    order = ("relevance", "answerability", "support", "nugget")
    per_question = {kind: per_question[kind] for kind in order if kind in per_question}
    return Plan(baseline, candidate, chosen.name, k, delta, power, confidence, sd, sd_from,
                len(deltas) if deltas else None, mean_delta,
                questions_needed(sd, delta, power=power, confidence=confidence),
                normal_questions(sd, delta, power=power, confidence=confidence), have,
                per_question, _reads(chosen))
