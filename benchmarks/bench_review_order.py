"""Judgements needed to settle a verdict, in the order ``review export --order decision``
gives, against judging the whole pool (and against the test set's order and a random one).

    python benchmarks/bench_review_order.py                 # both shapes, every order
    python benchmarks/bench_review_order.py --questions 30  # a smaller generated pool

A simulated reviewer judges the pending items one at a time with the decisions a known
truth gives; after each judgement ``ragscore.usecases.pending.decider`` (what ``review
status`` prints) says whether the verdict is settled. With ``--order decision`` the queue is
ordered again every ``--batch`` judgements, as a reviewer would export it again, with its
audit slice (10% of the questions, seed 0) spread among the deciding items; ``deciding`` is
the same order without an audit slice; ``queue`` the test set's order; ``random`` a seeded
shuffle. Counted:
the judgements until settled, out of the whole pool, and whether the settled verdict equals
the verdict of the gate on the whole pool judged (it must, every time). Nothing is timed:
these are counts, the same on any machine.

Shapes:

- ``practice``: the practice collection (46 questions, three systems) with its 199 pooled
  passages pending (every system's top 10 less the passages its labels grade). Its labels
  are its truth: every pooled passage it leaves out is not relevant. Judged against its own
  policy (fixtures/policies/practice.toml: rerank against baseline at k = 3) and a
  retrieval-only policy (mean recall@3 of rerank at least 0.9, no recall regression),
  and the sign of the mean recall@3 delta.
- ``generated``: ``--questions`` questions (default 80), each with five passages (one
  labelled relevant), two systems (A, the baseline, and B) retrieving three each and
  answering one cited sentence; pending: the pooled passages (relevant with probability 0.3
  in truth) and both answers' claims (supported with probability 0.9 when they cite a
  relevant passage, else 0.2; one in ten "not a claim"). Seeded. Judged against
  ``mean support of B at least 0.45`` (n/a, an answer judged to make no claim, allowed on a
  fifth of the questions more than A) with ``mean recall@3 at least 0.5``, and the sign of
  the mean support delta B - A.
"""
import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ragscore.core.deciding import FAIL, PASS  # noqa: E402
from ragscore.folders import load_dataset  # noqa: E402
from ragscore.io.dataset import Dataset  # noqa: E402
from ragscore.io.review_queue import review_queue  # noqa: E402
from ragscore.core.audit_slice import audit_cases  # noqa: E402
from ragscore.usecases.pending import decider, scenario_record  # noqa: E402
from ragscore.usecases.review_status import decision_order  # noqa: E402

RETRIEVAL_POLICY = """k = 3
[[rule]]
name = "mean recall"
metric = "recall"
check = "min_mean"
threshold = 0.9

[[rule]]
name = "no recall regression"
metric = "recall"
check = "no_regression"
"""

GENERATED_POLICY = """k = 3
[[rule]]
name = "mean support"
metric = "support"
check = "min_mean"
threshold = 0.45
max_na_share = 0.2

[[rule]]
name = "mean recall"
metric = "recall"
check = "min_mean"
threshold = 0.5
"""


def practice():
    """The practice collection and its truth (every pooled passage: 0)."""
    dataset = load_dataset(ROOT / "fixtures" / "practice")
    truth = {(row["kind"], row["case"], row["key"]): (0, None)
             for row in review_queue(dataset)}
    return dataset, truth


def generated(questions, seed):
    """A generated pool (see the module docstring) and its truth."""
    rng = random.Random(seed)
    corpus, cases, runs, relevant = {}, {}, {}, {}
    for number in range(questions):
        case = f"q{number:03d}"
        docs = [f"{case}-p{place}" for place in range(5)]
        for place, doc in enumerate(docs):
            corpus[doc] = f"Passage {place} about topic {number}."
        cases[case] = {"question": f"What about topic {number}?", "relevant": (docs[0],)}
        relevant[case] = {docs[0]} | {doc for doc in docs[1:] if rng.random() < 0.3}
        runs[case] = {}
        for system, first in (("A", 0.4), ("B", 0.7)):
            ranked = rng.sample(docs[1:], 3)
            if rng.random() < first:
                ranked = [docs[0]] + ranked[:2]
            runs[case][system] = {"retrieved": tuple(ranked),
                                  "answer": f"System {system} says {number} [1]."}
    dataset = Dataset(ids="open", corpus=corpus, cases=cases, runs=runs, name="generated")
    truth = {}
    for row in review_queue(dataset):
        item = (row["kind"], row["case"], row["key"])
        if row["kind"] == "relevance":
            truth[item] = (int(row["doc"] in relevant[row["case"]]), None)
        else:
            good = any(doc in relevant[row["case"]] for doc in row["citations"])
            draw = rng.random()
            truth[item] = (("not a claim" if draw < 0.1 else "supported"
                            if draw < 0.1 + (0.8 if good else 0.18) else "unsupported"), None)
    return dataset, truth


def _add(dataset, rows, truth):
    records = [dict(scenario_record(row, *truth[row["kind"], row["case"], row["key"]]),
                    reviewer="truth") for row in rows]
    return dataset._replace(judgements=tuple(dataset.judgements) + tuple(records))


def _verdict(found):
    return {PASS: "PASS", FAIL: "FAIL"}.get(found.verdict)


def simulate(dataset, truth, options, order, *, batch, seed):
    """``(judgements until settled, pool size, settled verdict)``."""
    cache = {}
    pool = len(truth)
    rng = random.Random(seed)
    judged, queue = dataset, []
    audit = audit_cases(dataset.cases, seed=0, share=0.0 if order == "deciding" else 0.1)
    for step in range(pool + 1):
        found = decider(judged, cache=cache, **options)
        if found.verdict is not None:
            return step, pool, _verdict(found)
        if not found.rows:
            return step, pool, None
        if not queue or (order in ("decision", "deciding") and step % batch == 0):
            rows = found.rows
            if order in ("decision", "deciding"):
                rows = decision_order(rows, found, audit=audit)
            elif order == "random":
                rows = rng.sample(rows, len(rows))
            queue = list(rows)
        judged = _add(judged, [queue.pop(0)], truth)
    raise AssertionError("the pool ran out before the verdict settled")


def full_verdict(dataset, truth, options):
    """The verdict with every pending item judged as the truth says."""
    every = review_queue(dataset)
    return _verdict(decider(_add(dataset, every, truth), **options))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--questions", type=int, default=80)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--orders", default="decision,deciding,queue,random")
    parser.add_argument("--shapes", default="practice,generated")
    args = parser.parse_args(argv)
    orders = args.orders.split(",")
    with tempfile.TemporaryDirectory() as folder:
        retrieval = Path(folder) / "retrieval.toml"
        retrieval.write_text(RETRIEVAL_POLICY)
        pool_policy = Path(folder) / "generated.toml"
        pool_policy.write_text(GENERATED_POLICY)
        shapes = [
            ("practice", practice(), "practice.toml, rerank vs baseline",
             {"policy": str(ROOT / "fixtures" / "policies" / "practice.toml"),
              "candidate": "rerank", "baseline": "baseline"}),
            ("practice", practice(), "mean recall@3 >= 0.9, no recall regression",
             {"policy": str(retrieval), "candidate": "rerank", "baseline": "baseline"}),
            ("practice", practice(), "sign of mean recall@3 delta",
             {"metric": "recall", "k": 3, "candidate": "rerank", "baseline": "baseline"}),
            ("generated", generated(args.questions, args.seed),
             "mean support >= 0.45, mean recall@3 >= 0.5 (B)",
             {"policy": str(pool_policy), "candidate": "B", "baseline": "A"}),
            ("generated", generated(args.questions, args.seed), "sign of mean support delta",
             {"metric": "support", "k": 3, "candidate": "B", "baseline": "A"}),
        ]
        print("| shape | what decides | pool | " + " | ".join(
            f"judged until settled ({order} order)" for order in orders)
              + " | settled verdict | whole pool's verdict |")
        print("|---|---|---|" + "---|" * len(orders) + "---|---|")
        for shape, (dataset, truth), what, options in shapes:
            if shape not in args.shapes.split(","):
                continue
            whole = full_verdict(dataset, truth, options)
            cells, settled = [], set()
            for order in orders:
                steps, pool, verdict = simulate(dataset, truth, options, order,
                                                batch=args.batch, seed=args.seed)
                settled.add(verdict)
                cells.append(f"{steps} ({100 * steps / pool:.0f}%)")
            if settled != {whole}:
                raise AssertionError(f"{shape}, {what}: settled {settled}, whole {whole}")
            print(f"| {shape} | {what} | {len(truth)} | " + " | ".join(cells)
                  + f" | {settled.pop()} | {whole} |", flush=True)


if __name__ == "__main__":
    main()
