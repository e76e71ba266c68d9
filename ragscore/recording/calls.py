"""One call to the system under test, with retries: what it answered, or why it failed.

A call that fails for a passing reason (:class:`Transient`: HTTP 429 or 5xx, a refused or
dropped connection, a timeout, or any exception from a Python pipeline) is tried again after
an exponential backoff (``backoff * 2 ** attempt`` seconds, at most ``max_backoff``; a
``Retry-After`` the server sends is honoured, up to ``max_backoff``); every retry is counted.
A response that cannot be read (:class:`~ragscore.recording.paths.ResponseError`) is not tried
again. Either way the call ends as one journal entry, never an exception.
"""
import threading
import time
from collections import namedtuple

from ..core.rules import InvalidInputError, show
from .paths import ResponseError

__all__ = ["MAX_RETRIES", "MAX_WAIT", "RateLimit", "RetryPolicy", "Transient",
           "call_once_with_retries", "check_policy", "result_entry"]


class Transient(Exception):
    """A failure worth another try: ``reason`` says what happened, ``retry_after`` is the
    wait the server asked for (seconds) or ``None``; ``connection`` is true when nothing was
    answered at all (the endpoint may be down)."""

    def __init__(self, reason, *, retry_after=None, connection=False):
        super().__init__(reason)
        self.reason, self.retry_after, self.connection = reason, retry_after, connection


class RetryPolicy(namedtuple("RetryPolicy", "retries backoff max_backoff",
                             defaults=(3, 0.5, 30.0))):
    """How often and how patiently to try a call again.

    >>> [RetryPolicy(backoff=0.5).delay(attempt, None) for attempt in range(3)]
    [0.5, 1.0, 2.0]
    >>> RetryPolicy(max_backoff=10).delay(0, 60.0)
    10
    """

    __slots__ = ()

    def delay(self, attempt, retry_after):
        """Seconds to wait before retry number ``attempt + 1``."""
        wait = self.backoff * 2 ** attempt
        if retry_after is not None:
            wait = max(wait, retry_after)
        return min(wait, self.max_backoff)


#: The most retries of one call, and the longest wait (seconds) a backoff, a Retry-After or
#: a rate limit may ask for: an hour.
MAX_RETRIES, MAX_WAIT = 100, 3600.0


def _seconds(name, value):
    if type(value) not in (int, float) or not 0 <= value <= MAX_WAIT:
        raise InvalidInputError(f"{name} must be a number of seconds from 0 to {MAX_WAIT:g}; "
                                f"got {show(value)}")


def check_policy(*, retries, backoff, max_backoff):
    """A :class:`RetryPolicy`, each number checked against its range."""
    if type(retries) is not int or not 0 <= retries <= MAX_RETRIES:
        raise InvalidInputError(f"retries must be a whole number from 0 to {MAX_RETRIES}; "
                                f"got {show(retries)}")
    _seconds("backoff", backoff)
    _seconds("max_backoff", max_backoff)
    return RetryPolicy(retries, backoff, max_backoff)


class RateLimit:
    """At most ``rate`` calls started per second across every thread (``None``: no limit)."""

    def __init__(self, rate):
        if rate is not None and (type(rate) not in (int, float) or not rate >= 1 / MAX_WAIT
                                 or rate == float("inf")):
            raise InvalidInputError(f"rate must be a finite number of calls per second, at "
                                    f"least 1/{MAX_WAIT:g} (one an hour); got {show(rate)}")
        self.interval = None if rate is None else 1.0 / rate
        self._next = 0.0
        self._lock = threading.Lock()

    def wait(self, stop):
        """Wait for this call's turn; False when ``stop`` was set meanwhile."""
        if self.interval is None:
            return not stop.is_set()
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.interval
        return not stop.wait(max(0.0, start - now))


def call_once_with_retries(call, read, item, *, policy, limit, stop):
    """Call ``call(case, question, trial)`` until it answers or the retries run out; return
    ``(entry, connection_failure)``: the journal entry (see :func:`result_entry`) and
    whether it failed because nothing answered. ``None`` as entry: stopped before the end.

    ``read(answer)`` turns what the call returned into the run's fields, raising
    :class:`ResponseError` or :class:`~ragscore.core.rules.InvalidInputError` when it
    cannot.
    """
    case, question, trial = item
    retries = 0
    while True:
        if not limit.wait(stop):
            return None, False
        started = time.perf_counter()
        try:
            fields = read(call(case, question, trial))
        except (ResponseError, InvalidInputError) as error:
            return result_entry(item, retries=retries, reason=str(error)), False
        except Transient as error:
            reason, retry_after, connection = error.reason, error.retry_after, error.connection
        except Exception as error:  # noqa: BLE001 (the team's pipeline may raise anything)
            reason = f"{type(error).__name__}: {error}"
            retry_after, connection = None, False
        else:
            latency = (time.perf_counter() - started) * 1000.0
            return result_entry(item, retries=retries, fields=fields,
                                latency_ms=round(latency, 3)), False
        if retries >= policy.retries:
            return result_entry(item, retries=retries, reason=reason), connection
        if stop.wait(policy.delay(retries, retry_after)):
            return None, False
        retries += 1


def result_entry(item, *, retries, fields=None, latency_ms=None, reason=None):
    """The journal entry of one finished call: ``case``, ``trial``, ``retries`` and either the
    run's fields with ``latency_ms``, or ``failed: true`` with the ``reason``."""
    case, _, trial = item
    entry = {"case": case, "trial": trial, "retries": retries}
    if reason is not None:
        entry.update(failed=True, reason=reason)
    else:
        entry.update(fields, latency_ms=latency_ms, failed=False)
    return entry
