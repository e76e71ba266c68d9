"""The settings of ``ragscore record``: a TOML file (``--config``) and the command line,
the command line winning. See ``docs/record.md`` for the file's shape::

    endpoint = "http://localhost:8000/ask"
    system = "mine"
    trials = 1
    concurrency = 8
    timeout = 30
    retries = 3
    rate = 20
    body = '{"query": "{question}", "top_k": 10}'   # or a [body] table

    [headers]
    Authorization = "Bearer ..."                    # sent, never recorded

    [response]                                      # JSON paths into the response
    answer = "data.answer"
    retrieved = "data.hits[*].id"
    scores = "data.hits[*].score"
    delivered = "data.context[*].id"
    tokens = "usage.total_tokens"
    cost = "usage.cost"

    [settings]                                      # recorded in the manifest as given
    top_k = 10

    [manifest]                                      # manifest keys a user may give
    model = "small-llm-2026-10"
    prompt_revision = "p7"
"""
import tomllib

from ..core.rules import InvalidInputError, show
from ..io.jsonl import read_text, where
from .fields import FIELDS
from .provenance import USER_KEYS

__all__ = ["OPTIONS", "read_config"]

#: The largest settings file read (bytes).
MAX_CONFIG_BYTES = 1 << 20

#: Top-level keys of the file and the type each must have.
OPTIONS = {"endpoint": str, "system": str, "out": str, "journal": str, "trials": int,
           "concurrency": int, "timeout": (int, float), "retries": int,
           "backoff": (int, float), "max_backoff": (int, float), "rate": (int, float),
           "stop_after": int, "body": (str, dict), "headers": dict, "response": dict,
           "settings": dict, "manifest": dict}


def read_config(path):
    """The settings in the TOML file at ``path``, each key and type checked."""
    text = read_text(path, MAX_CONFIG_BYTES)  # a regular file: never a FIFO or /dev/zero
    try:
        config = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidInputError(f"{where(path)}: not valid TOML ({error})") from None
    except RecursionError:
        raise InvalidInputError(f"{where(path)}: not valid TOML (nested too deeply)") from None
    for key, value in config.items():
        if key not in OPTIONS:
            raise InvalidInputError(f"{path}: unknown key {show(key)} (known: "
                                    f"{', '.join(OPTIONS)})")
        if type(value) is bool or not isinstance(value, OPTIONS[key]):
            raise InvalidInputError(f"{path}: key {key!r} has the wrong type; got "
                                    f"{show(value)}")
    for key, value in config.get("response", {}).items():
        if key not in FIELDS or type(value) is not str:
            raise InvalidInputError(f"{path}: [response] key {show(key)} must be one of "
                                    f"{', '.join(FIELDS)} with a path as text; got {show(value)}")
    for key in config.get("manifest", {}):
        if key not in USER_KEYS:
            raise InvalidInputError(f"{path}: [manifest] key {show(key)} is filled in by the "
                                    f"recorder or unknown (give {', '.join(USER_KEYS)})")
    return config
