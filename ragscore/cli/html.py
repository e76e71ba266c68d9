"""``ragscore html``: the comparison of two systems as one self-contained HTML page to share
(or, with ``--format github``, a Markdown summary for a pull request or a CI job summary).

Wiring only: the content comes from :mod:`ragscore.tables.share`, the page from
:mod:`ragscore.render.share_html`, the summary from :mod:`ragscore.render.share_github`, the
verdict from :func:`ragscore.gating.gate`.
"""

from .options import OK, confidence, cutoff, k_text, metric_names, output_file, random_seed
from ..core.rules import InvalidInputError, show


def _html(args, out):
    from ..tables.share import review_data

    target = None if args.out is None else output_file(
        "--out", args.out, inputs=(args.dataset, args.policy))
    paired = {}
    if args.dataset is None:  # --baseline DIR:SYSTEM --candidate DIR:SYSTEM
        from .options import read_pair

        pair = read_pair(args)
        dataset, source = pair.view, pair
        paired = {"counted": pair.counted, "cases_by_system": pair.cases}
    else:
        from ..folders import load_dataset

        dataset = source = load_dataset(args.dataset)
    if not dataset.runs:
        raise InvalidInputError(f"{args.dataset} has no recorded runs: nothing to report")
    systems = dataset.systems
    for role, name in (("baseline", args.baseline), ("candidate", args.candidate)):
        if name not in systems:
            raise InvalidInputError(f"--{role} {show(name)} has no runs in this test set; "
                                    f"systems: {', '.join(map(show, systems))}")
    if args.baseline == args.candidate:
        raise InvalidInputError(f"--baseline and --candidate must differ; both are "
                                f"{show(args.baseline)}")
    k = cutoff(args.k, dataset.rules)
    result = None
    if args.policy:
        from ..gating import gate

        result = gate(source, policy=args.policy, candidate=args.candidate,
                      baseline=args.baseline, engine=args.engine,
                      allow_mismatch=args.allow_mismatch)
    data = review_data(dataset, baseline=args.baseline, candidate=args.candidate, k=k,
                       metrics=args.metrics, engine=args.engine, confidence=args.confidence,
                       seed=args.seed, gate=result, **paired)
    if args.format == "github":
        from ..render.share_github import render_github

        text = render_github(data)
    else:
        from ..render.share_html import render_html

        text = render_html(data)
    if target is None:
        out.write(text)
        return OK
    from ..io.store import write_file_atomically

    write_file_atomically(target, [text])
    import sys

    sys.stderr.write(f"ragscore: wrote {args.format} report of {len(data['questions'])} "
                     f"questions to {args.out} ({len(text.encode('utf-8')):,} bytes)\n")
    return OK


def add_share_commands(commands, dataset_argument, engine_option):
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
    page.add_argument("--k", type=k_text, default="2", help="cutoff (default 2, as report)")
    page.add_argument("--metrics", type=metric_names, default=None,
                      help="registry names separated by commas (default: those the data "
                           "records)")
    page.add_argument("--format", choices=("html", "github"), default="html",
                      help="html (default): the page; github: a Markdown summary")
    page.add_argument("--out", default=None,
                      help="the file to write (atomically); default: standard output")
    page.add_argument("--confidence", type=confidence, default=0.95,
                      help="confidence level of the intervals (default 0.95)")
    page.add_argument("--seed", type=random_seed, default=0,
                      help="random seed of the resampling (default 0)")
    engine_option(page)
    page.set_defaults(handler=_html)
