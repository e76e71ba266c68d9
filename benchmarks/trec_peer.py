"""The pytrec_eval peer of ``ragscore report --format csv``, run as a whole process.

    python benchmarks/trec_peer.py QRELS RUN_A RUN_B [--k 10] [--output FILE]

Reads TREC qrels (``qid 0 docno rel``) and one run file per system (``qid Q0 docno rank
score tag``), with pytrec_eval's own parsers where this version has them and a plain line
parser otherwise. Each run is cut to its top k by score (descending; ties broken by docno
descending, as trec_eval does), so ``recip_rank`` equals RR@k. Evaluates ``P_k``,
``recall_k`` and ``recip_rank`` with ``pytrec_eval.RelevanceEvaluator`` and writes one CSV
line per (question, system): ``case,system,precision,recall,rr``. The system name is the
run's tag (the last field of its first line).
"""
import argparse
import collections
import sys

import pytrec_eval


def _plain_qrel(lines):
    """``{qid: {docno: relevance}}`` from qrels lines (the fallback parser)."""
    qrels = collections.defaultdict(dict)
    for line in lines:
        qid, _, docno, relevance = line.split()
        qrels[qid][docno] = int(relevance)
    return qrels


def _plain_run(lines):
    """``{qid: {docno: score}}`` from run lines (the fallback parser)."""
    run = collections.defaultdict(dict)
    for line in lines:
        qid, _, docno, _, score, _ = line.split()
        run[qid][docno] = float(score)
    return run


def read_qrels(path):
    """Parse a qrels file, with ``pytrec_eval.parse_qrel`` when it exists."""
    parse = getattr(pytrec_eval, "parse_qrel", _plain_qrel)
    with open(path, encoding="utf-8") as handle:
        return parse(handle)


def read_run(path):
    """Parse a run file, with ``pytrec_eval.parse_run`` when it exists; return (tag, run)."""
    parse = getattr(pytrec_eval, "parse_run", _plain_run)
    with open(path, encoding="utf-8") as handle:
        tag = handle.readline().split()[-1]
        handle.seek(0)
        return tag, parse(handle)


def cut(run, k):
    """Keep each query's top ``k`` documents by score, ties by docno descending."""
    return {qid: dict(sorted(docs.items(), key=lambda item: (item[1], item[0]),
                             reverse=True)[:k])
            for qid, docs in run.items()}


def evaluate(qrels, runs, k):
    """``{system: {qid: measures}}`` for ``P_k``, ``recall_k`` and ``recip_rank``."""
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {f"P_{k}", f"recall_{k}", "recip_rank"})
    return {system: evaluator.evaluate(cut(run, k)) for system, run in runs.items()}


def write_csv(results, qids, k, out):
    """One line per (question, system), question by question, systems in input order."""
    out.write("case,system,precision,recall,rr\n")
    for qid in qids:
        for system, per_query in results.items():
            measures = per_query.get(qid)
            if measures is None:
                continue
            out.write(f"{qid},{system},{measures[f'P_{k}']!r},{measures[f'recall_{k}']!r},"
                      f"{measures['recip_rank']!r}\n")


def main(argv=None):
    """Parse, cut, evaluate and write; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("qrels")
    parser.add_argument("runs", nargs="+", help="one TREC run file per system")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--output", help="CSV file (default: standard output)")
    args = parser.parse_args(argv)
    qrels = read_qrels(args.qrels)
    runs = dict(read_run(path) for path in args.runs)
    results = evaluate(qrels, runs, args.k)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            write_csv(results, qrels, args.k, out)
    else:
        write_csv(results, qrels, args.k, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
