"""``ragscore plan``: parse, call :func:`ragscore.usecases.plan.plan`, return its
:class:`~ragscore.usecases.plan.Plan`."""
import argparse

from ..usecases.plan import Plan, plan
from .options import dataset_argument, format_option, k_text


def _number(name):
    def parse(text):
        try:
            return float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number; got {text!r}") from None
    return parse


def _whole(name):
    def parse(text):
        if not (text.isascii() and text.isdigit()):
            raise argparse.ArgumentTypeError(f"{name} must be a whole number; got {text!r}")
        return int(text)
    return parse


def _plan(args):
    return plan(args.dataset, baseline=args.baseline, candidate=args.candidate,
                metric=args.metric, delta=args.delta, power=args.power,
                confidence=args.confidence, sd=args.sd, k=args.k, pool_depth=args.pool_depth,
                claims_per_answer=args.claims_per_answer)


def add_plan(commands):
    parser = commands.add_parser(
        "plan", help="how many questions and judgements a paired comparison needs",
        description="Estimate, from the observed paired differences of METRIC between the "
                    "two systems (or a stated --sd), how many questions a two-sided paired "
                    "t-test needs to detect --delta with --power, and how many judgements of "
                    "each kind that means (docs/labels.md).")
    dataset_argument(parser)
    parser.add_argument("--baseline", required=True, help="the system you have now")
    parser.add_argument("--candidate", required=True, help="the system you might ship")
    parser.add_argument("--metric", required=True, help="the metric compared (registry name)")
    parser.add_argument("--delta", type=_number("--delta"), required=True,
                        help="the smallest mean difference worth detecting, e.g. 0.05")
    parser.add_argument("--power", type=_number("--power"), default=0.8,
                        help="the chance of detecting it, between 0 and 1 (default 0.8)")
    parser.add_argument("--confidence", type=_number("--confidence"), default=0.95,
                        help="1 - the test's level, between 0 and 1 (default 0.95)")
    parser.add_argument("--sd", type=_number("--sd"), default=None,
                        help="the standard deviation of the paired differences, stated when "
                             "there is no data yet (default: observed)")
    parser.add_argument("--k", type=k_text, default="2", help="the cutoff (default 2)")
    parser.add_argument("--pool-depth", type=_whole("--pool-depth"), default=10,
                        help="each system's top N passages pooled per question (default 10)")
    parser.add_argument("--claims-per-answer", type=_number("--claims-per-answer"),
                        default=None,
                        help="claims per answer (default: as the test set's answers make)")
    format_option(parser, Plan.writers)
    parser.set_defaults(handler=_plan)


COMMANDS = {"plan": add_plan}
