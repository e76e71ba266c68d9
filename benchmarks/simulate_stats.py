"""How the paired statistics of ``ragscore compare --stats`` behave on simulated deltas.

Two figures, each over ``--samples`` simulated test sets with fixed seeds:

- the rejection rate at p <= 0.05 under a symmetric null (deltas -1, -0.5, 0, 0.5, 1 with
  probabilities 0.1, 0.2, 0.4, 0.2, 0.1): a calibrated test stays at or below 0.05;
- the coverage of the 95% percentile interval of a mean delta of 0.1 (deltas -1, 0, 1 with
  probabilities 0.1, 0.7, 0.2): a calibrated interval covers it in about 95% of samples.

    python benchmarks/simulate_stats.py              # the README's figures (about 20 s)
    python benchmarks/simulate_stats.py --samples 50
"""
import argparse

import numpy as np

from ragscore.tables.stats import paired_stats


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--resamples", type=int, default=2000)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(1)
    for n in (10, 12, 20, 50):
        rejected = 0
        for seed in range(args.samples):
            deltas = rng.choice([-1, -0.5, 0, 0.5, 1], size=n, p=[0.1, 0.2, 0.4, 0.2, 0.1])
            result = paired_stats(np.zeros(n), deltas, seed=seed, resamples=args.resamples)
            rejected += result.p_value <= 0.05
        print(f"null, n={n}: rejected at p <= 0.05 in {rejected / args.samples:.3f}")
    for n in (10, 20, 50, 200):
        covered = 0
        for seed in range(args.samples):
            deltas = rng.choice([-1, 0, 1], size=n, p=[0.1, 0.7, 0.2])
            result = paired_stats(np.zeros(n), deltas, seed=seed, resamples=args.resamples)
            covered += result.ci_low <= 0.1 <= result.ci_high
        print(f"mean delta 0.1, n={n}: 95% interval covered it in {covered / args.samples:.3f}")


if __name__ == "__main__":
    main()
