"""``ragscore report --trec-eval`` against the real trec_eval binary, byte for byte.

    TREC_EVAL=/path/to/trec_eval python benchmarks/trec_eval_diff.py [--measures "..."]

Imports the shipped TREC fixture (``fixtures/import/trec``: qrels and two runs, bm25 and
dense) with ``ragscore import trec``, then for each system runs

- ``ragscore report DIR --trec-eval --system NAME --measures MEASURES`` and
- ``trec_eval -q -m ... QRELS RUN`` with the same measures in trec_eval's names,

and diffs the two outputs. The fixture's ``#`` comment lines are dropped from the copies
trec_eval reads (trec_eval 9.0.x refuses them as malformed lines; ragscore's importer skips
them). Prints one line per system (``same`` or the diff) and exits 1 on any difference.

trec_eval's released 9.0.x (pytrec_eval embeds 9.0.8) averages over the questions of the
run, as ``--trec-eval`` does; its development head (10.0-rc3) instead stops with exit 4
when a qrels question has no ranking in the run (dense has none for q3) unless given
``-c``: that shows here as a difference.

trec_eval prints ``runid`` and the ``num_*`` counts only for its default measure set or
when they are named; with an explicit ``-m`` list, as here, it prints none of them, and
neither does ``--trec-eval``.

Build trec_eval from https://github.com/usnistgov/trec_eval (``make``; gcc only).
"""
import argparse
import difflib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREC = ROOT / "fixtures" / "import" / "trec"
SYSTEMS = ("bm25", "dense")
#: Every measure ``--trec-eval`` names (P, recall, ndcg, ndcg_cut, map, map_cut,
#: recip_rank, success), at several cutoffs.
MEASURES = "P@1 P@5 P@10 R@100 nDCG nDCG@2 nDCG@10 AP AP@2 AP@10 RR Success@1 Success@5"


def trec_eval_flags(measures):
    """trec_eval's ``-m`` options for ``measures`` (ir_measures' spelling), cutoffs of one
    measure together: ``P@5 P@10 AP`` -> ``-m P.5,10 -m map``.

    >>> trec_eval_flags("P@5 P@10 AP nDCG@10")
    ['-m', 'P.5,10', '-m', 'map', '-m', 'ndcg_cut.10']
    """
    from ragscore.core.measures import parse_measures

    families = {}
    for measure in parse_measures(measures):
        name = measure.trec_name
        if measure.k is None:
            families.setdefault(name, [])
        else:
            families.setdefault(name.rsplit("_", 1)[0], []).append(str(measure.k))
    flags = []
    for family, cutoffs in families.items():
        flags += ["-m", f"{family}.{','.join(cutoffs)}" if cutoffs else family]
    return flags


def _without_comments(source, target):
    target.write_text("".join(line for line in source.read_text().splitlines(True)
                              if not line.startswith("#")))
    return target


def diff_against(trec_eval, *, measures=MEASURES):
    """``{system: unified diff lines}`` of trec_eval's output against ragscore's (empty when
    they are the same), each system's pair of outputs as ``(ours, theirs)`` too."""
    found = {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        qrels = _without_comments(TREC / "qrels.txt", scratch / "qrels.txt")
        imported = scratch / "both"
        command = [sys.executable, "-m", "ragscore", "import", "trec", "--qrels", str(qrels)]
        for system in SYSTEMS:
            command += ["--run", str(TREC / f"{system}.run")]
        subprocess.run(command + ["--missing-run", "skip", "--out", str(imported)],
                       check=True, capture_output=True, cwd=ROOT)
        for system in SYSTEMS:
            run = _without_comments(TREC / f"{system}.run", scratch / f"{system}.run")
            peer = subprocess.run([trec_eval, "-q", *trec_eval_flags(measures), str(qrels),
                                   str(run)], capture_output=True, text=True)
            theirs = peer.stdout + (f"trec_eval exit {peer.returncode}: {peer.stderr}"
                                    if peer.returncode else "")
            ours = subprocess.run([sys.executable, "-m", "ragscore", "report", str(imported),
                                   "--trec-eval", "--system", system, "--measures",
                                   measures], check=True, capture_output=True, text=True,
                                  cwd=ROOT).stdout
            found[system] = (list(difflib.unified_diff(
                theirs.splitlines(True), ours.splitlines(True), "trec_eval", "ragscore")),
                ours, theirs)
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trec-eval", default=os.environ.get("TREC_EVAL"),
                        help="the trec_eval binary (default: $TREC_EVAL)")
    parser.add_argument("--measures", default=MEASURES)
    args = parser.parse_args(argv)
    if not args.trec_eval:
        parser.error("give --trec-eval PATH or set TREC_EVAL")
    version = subprocess.run([args.trec_eval, "-v"], capture_output=True, text=True)
    print(f"{(version.stdout + version.stderr).strip()}; measures: {args.measures}")
    differ = False
    for system, (diff, ours, _) in diff_against(args.trec_eval, measures=args.measures).items():
        lines = len(ours.splitlines())
        print(f"{system}: {'same' if not diff else 'DIFFERENT'} ({lines} lines)")
        sys.stdout.writelines(diff)
        differ = differ or bool(diff)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
