"""Posting questions to an HTTP endpoint (standard library only): one kept-alive connection
per worker thread, a timeout per call, and every failure sorted into "try again"
(:class:`~ragscore.recording.calls.Transient`: 429, 5xx, a refused or dropped connection, a
timeout) or "cannot be read" (:class:`~ragscore.recording.paths.ResponseError`: another
status, a body that is not JSON).

The default request body is ``{"question": "...", "case": "...", "trial": 1}``; a template
(JSON whose strings may hold ``{question}``, ``{case}`` and ``{trial}``) replaces it.
"""
import email.utils
import http.client
import json
import socket
import threading
import time
from urllib.parse import urlsplit

from ..core.rules import InvalidInputError, show
from .calls import Transient
from .paths import ResponseError, check_template, fill_template
from .provenance import public_url

__all__ = ["DEFAULT_BODY", "HttpCaller", "record_endpoint"]

DEFAULT_BODY = {"question": "{question}", "case": "{case}", "trial": "{trial}"}
#: The largest response body read (bytes).
MAX_BODY = 64 << 20


def _retry_after(value):
    """Seconds from a ``Retry-After`` header (seconds or an HTTP date), or ``None``.

    >>> _retry_after("3"), _retry_after("soon")
    (3.0, None)
    """
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time()) if when is not None else None


def _read_body(response):
    """The body of ``response``, or ``None`` when it is larger than :data:`MAX_BODY`."""
    if response.length is not None:
        return None if response.length > MAX_BODY else response.read()
    parts, size = [], 0
    while True:  # no length given (chunked): read in pieces, up to the limit
        part = response.read(1 << 16)
        if not part:
            return b"".join(parts)
        size += len(part)
        if size > MAX_BODY:
            return None
        parts.append(part)


class HttpCaller:
    """``caller(case, question, trial)`` posts one question and returns the parsed JSON."""

    def __init__(self, url, *, body=None, headers=None, timeout=30.0):
        parts = urlsplit(url) if type(url) is str else None
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
            raise InvalidInputError(f"--endpoint must be an http:// or https:// URL; got "
                                    f"{show(url)}")
        if type(timeout) not in (int, float) or not timeout > 0:
            raise InvalidInputError(f"timeout must be a number of seconds above 0; got "
                                    f"{show(timeout)}")
        self.url, self.timeout = url, timeout
        self.template = DEFAULT_BODY if body is None else (
            check_template(body) if type(body) is str else body)
        self.connect = (http.client.HTTPSConnection if parts.scheme == "https" else
                        http.client.HTTPConnection)
        self.address = (parts.hostname, parts.port)
        self.target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self.headers = {"Content-Type": "application/json", "Accept": "application/json",
                        **{str(k): str(v) for k, v in (headers or {}).items()}}
        self._local = threading.local()

    def _connection(self):
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = self.connect(*self.address, timeout=self.timeout)
            self._local.connection, self._local.used = connection, False
        return connection

    def _drop(self):
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
        self._local.connection = None

    def __call__(self, case, question, trial):
        payload = json.dumps(fill_template(self.template, question=question, case=case,
                                           trial=trial), ensure_ascii=False).encode("utf-8")
        for fresh in (False, True):
            reused = getattr(self._local, "used", False) and not fresh
            try:
                status, reason, retry_after, data = self._post(payload)
                break
            except (http.client.RemoteDisconnected, BrokenPipeError,
                    ConnectionResetError) as error:
                self._drop()
                if not reused:  # a kept-alive connection the server closed: once more
                    raise Transient(f"connection lost ({type(error).__name__}: {error})",
                                    connection=True) from None
            except (TimeoutError, socket.timeout):
                self._drop()
                raise Transient(f"no answer within {self.timeout:g} s (timeout)") from None
            except (OSError, http.client.HTTPException) as error:
                self._drop()
                raise Transient(f"connection failed ({type(error).__name__}: {error})",
                                connection=True) from None
        if status == 429 or status >= 500:
            raise Transient(f"HTTP {status} {reason}", retry_after=retry_after)
        if not 200 <= status < 300:
            raise ResponseError(f"HTTP {status} {reason}: {show(data[:200])}")
        try:
            return json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise ResponseError(f"the response is not JSON ({error}): "
                                f"{show(data[:200])}") from None

    def _post(self, payload):
        connection = self._connection()
        connection.request("POST", self.target, body=payload, headers=self.headers)
        response = connection.getresponse()
        data = _read_body(response)
        self._local.used = True
        if data is None:
            self._drop()
            raise ResponseError(f"the response is larger than {MAX_BODY:,} bytes")
        if response.will_close:
            self._drop()
        return (response.status, response.reason, _retry_after(response.getheader(
            "Retry-After")), data)


def record_endpoint(dataset, url, *, system, body=None, headers=None, timeout=30.0,
                    **options):
    """Record the HTTP endpoint at ``url`` on every question of ``dataset`` (see
    :func:`~ragscore.recording.recorder.record`; ``options`` are its options)."""
    from .recorder import record_calls

    caller = HttpCaller(url, body=body, headers=headers, timeout=timeout)
    recorder = {"endpoint": public_url(url), "timeout_s": timeout,
                "trials": options.get("trials", 1), "concurrency": options.get("concurrency", 8),
                "max_retries": options.get("retries", 3)}
    if body is not None:
        recorder["body"] = caller.template
    return record_calls(dataset, caller, system=system, recorder=recorder, **options)
