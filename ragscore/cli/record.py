"""``ragscore record``: post every question of a test set to a running system and write
what it answered as that system's runs (parsing only: the use case is
:func:`ragscore.usecases.record.record`).
"""
import json

from ..core.rules import InvalidInputError, show
from .options import no_verify_option

#: Built-in defaults, used when neither the command line nor --config gives a value.
DEFAULTS = {"trials": 1, "concurrency": 8, "timeout": 30.0, "retries": 3, "backoff": 0.5,
            "max_backoff": 30.0, "rate": None, "stop_after": 10, "out": None,
            "journal": None, "body": None, "code_revision": None}
PATH_OPTIONS = ("answer", "retrieved", "scores", "delivered", "tokens", "cost")


def _pairs(values, separator, option):
    pairs = {}
    for text in values or ():
        key, found, value = text.partition(separator)
        if not found or not key.strip():
            raise InvalidInputError(f"{option} must be NAME{separator}VALUE; got {show(text)}")
        pairs[key.strip()] = value.strip() if separator == ":" else _value(value)
    return pairs


def _value(text):
    """A --set value: JSON when it reads as JSON (numbers, true, lists), else the text."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON (or not readable as JSON): the text
        return text


def _settings(args):
    from ..recording.config import read_config

    config = read_config(args.config) if args.config else {}
    chosen = {key: config.get(key, default) for key, default in DEFAULTS.items()}
    for key in DEFAULTS:
        if getattr(args, key, None) is not None:
            chosen[key] = getattr(args, key)
    for key in ("endpoint", "system"):
        chosen[key] = getattr(args, key) or config.get(key)
        if not chosen[key]:
            raise InvalidInputError(f"--{key} is required (on the command line or in "
                                    "--config)")
    chosen["headers"] = {**config.get("headers", {}), **_pairs(args.header, ":", "--header")}
    chosen["paths"] = {**config.get("response", {}),
                       **{key: getattr(args, key) for key in PATH_OPTIONS
                          if getattr(args, key) is not None}}
    chosen["settings"] = {**config.get("settings", {}), **_pairs(args.set, "=", "--set")}
    chosen["manifest"] = dict(config.get("manifest", {}))
    if args.model:
        chosen["manifest"]["model"] = args.model
    return chosen


def _record(args):
    from ..usecases.record import record

    chosen = _settings(args)
    endpoint, system = chosen.pop("endpoint"), chosen.pop("system")
    return record(args.dataset, endpoint=endpoint, system=system, resume=args.resume,
                  overwrite=args.overwrite, **chosen)


def add_record(commands):
    """Add ``record`` to the sub-command parser."""
    parser = commands.add_parser(
        "record", help="record a running system's answers to a test set's questions",
        description="Post every question of the dataset folder DIR to --endpoint, read the "
                    "ranking, answer and delivered context from each JSON response, and "
                    "write them as system --system's runs with a filled-in manifest (into "
                    "DIR, atomically, unless --out). Every finished call is kept in a "
                    "journal; --resume continues an interrupted recording. See "
                    "docs/record.md.")
    parser.add_argument("dataset", metavar="DIR", help="the test set (a dataset folder)")
    no_verify_option(parser)
    parser.add_argument("--endpoint", help="the URL each question is POSTed to")
    parser.add_argument("--system", help="the name the runs are recorded under")
    parser.add_argument("--config", metavar="TOML", help="settings file (see docs/record.md)")
    parser.add_argument("--out", help="write the dataset here instead of updating DIR")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace --out if it is a ragscore dataset already")
    parser.add_argument("--journal", help="the journal file (default: beside the folder, "
                                          "OUT.SYSTEM.journal.jsonl)")
    parser.add_argument("--resume", action="store_true",
                        help="continue from the journal: finished calls are not repeated, "
                             "failed ones are tried again")
    parser.add_argument("--trials", type=int, help="calls per question (default 1)")
    parser.add_argument("--concurrency", type=int, help="calls at once (default 8)")
    parser.add_argument("--timeout", type=float, help="seconds per call (default 30)")
    parser.add_argument("--retries", type=int,
                        help="retries after 429, 5xx, timeouts and connection errors "
                             "(default 3)")
    parser.add_argument("--backoff", type=float,
                        help="first wait before a retry, doubled each time (default 0.5 s)")
    parser.add_argument("--max-backoff", type=float,
                        help="longest wait, Retry-After included (default 30 s)")
    parser.add_argument("--rate", type=float, help="at most this many calls started per "
                                                   "second (default: no limit)")
    parser.add_argument("--stop-after", type=int,
                        help="stop after this many calls in a row found nobody answering "
                             "(default 10)")
    parser.add_argument("--body", help="request body template: JSON with {question}, {case} "
                                       "and {trial} (default: "
                                       '{"question": ..., "case": ..., "trial": ...})')
    parser.add_argument("--header", action="append", metavar="'NAME: VALUE'",
                        help="a request header (repeatable; never recorded)")
    for name in PATH_OPTIONS:
        default = "none" if name == "scores" else repr(name)
        parser.add_argument(f"--{name}", metavar="PATH",
                            help=f"JSON path of the {name} in the response (default "
                                 f"{default})")
    parser.add_argument("--model", help="the model, for the manifest")
    parser.add_argument("--code-revision", metavar="REV",
                        help="the revision of the system's code (a git commit, a tag), for "
                             "the manifest; without it the manifest says only which revision "
                             "the directory you ran the command in was at")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE",
                        help="a setting recorded in the manifest (repeatable)")
    parser.set_defaults(handler=_record)


COMMANDS = {"record": add_record}
