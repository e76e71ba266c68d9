"""``ragscore html``: the comparison of two systems as one self-contained HTML page to share
(or, with ``--format github``, a Markdown summary for a pull request or a CI job summary).

Parsing only: the use case is :func:`ragscore.usecases.share.share_page`.
"""

from ..usecases.share import Shared, share_page
from .options import (confidence, dataset_argument, engine_option, format_option, given_k,
                      k_text, metric_names, random_seed)


def _html(args):
    return share_page(args.dataset, baseline=args.baseline, candidate=args.candidate,
                      fmt=args.format, out=args.out, policy=args.policy, k=given_k(args),
                      metrics=args.metrics, confidence=args.confidence, seed=args.seed,
                      allow_mismatch=args.allow_mismatch, engine=args.engine)


def add_html(commands):
    """Add ``html`` to the sub-command parser."""
    page = commands.add_parser(
        "html", help="one self-contained HTML page comparing two systems, to share",
        description="Write one HTML file (no network needed to read it): the gate's verdict "
                    "with --policy, per-measure means with paired confidence intervals, each "
                    "measure over k, the per-question change, the diagnosis of each question "
                    "and a sortable, filterable per-question table that opens to the IDs, "
                    "claims and counts behind each value. --format github writes a Markdown "
                    "summary instead (for $GITHUB_STEP_SUMMARY or a pull request).")
    dataset_argument(page, pair=True)
    page.add_argument("--baseline", required=True,
                      help="the system you have now (without DATASET: DIR:SYSTEM)")
    page.add_argument("--candidate", required=True,
                      help="the system you might ship (without DATASET: DIR:SYSTEM)")
    page.add_argument("--policy", default=None,
                      help="a policy file (TOML): its verdict heads the report")
    page.add_argument("--allow-mismatch", action="store_true",
                      help="gate even when the two runs were judged under different rubrics")
    page.add_argument("--k", type=k_text, default=None, help="cutoff (default 2, as report)")
    page.add_argument("--metrics", type=metric_names, default=None,
                      help="registry names separated by commas (default: those the data "
                           "records)")
    format_option(page, Shared.writers, help="html (default): the page; github: a Markdown summary")
    page.add_argument("--out", default=None,
                      help="the file to write (atomically); default: standard output")
    page.add_argument("--confidence", type=confidence, default=0.95,
                      help="confidence level of the intervals (default 0.95)")
    page.add_argument("--seed", type=random_seed, default=0,
                      help="random seed of the resampling (default 0)")
    engine_option(page)
    page.set_defaults(handler=_html)


COMMANDS = {"html": add_html}
