"""Posting questions to an HTTP endpoint (standard library only): one kept-alive connection
per worker thread, a deadline per call (connect to last byte: every send and read waits only
for what is left of it), and every failure sorted into "try again"
(:class:`~ragscore.recording.calls.Transient`: 429, 5xx, a refused or dropped connection, a
timeout) or "cannot be read" (:class:`~ragscore.recording.paths.ResponseError`: another
status, a body that is not JSON or cannot be read faithfully).

The default request body is ``{"question": "...", "case": "...", "trial": 1}``; a template
(JSON whose strings may hold ``{question}``, ``{case}`` and ``{trial}``) replaces it.
"""
import email.utils
import http.client
import io
import json
import re
import socket
import threading
import time
from urllib.parse import urlsplit

from ..core.rules import InvalidInputError, show
from ..io.jsonl import DECODER
from .calls import Transient
from .paths import ResponseError, check_template, fill_template
from .provenance import public_url

__all__ = ["DEFAULT_BODY", "MAX_TIMEOUT", "HttpCaller", "check_timeout", "record_endpoint"]

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


#: The longest timeout a call may be given (seconds): an hour.
MAX_TIMEOUT = 3600.0


class _Deadline:
    """When the call in flight on one connection must be over (``time.monotonic``)."""

    __slots__ = ("at", "seconds")

    def __init__(self, seconds):
        self.seconds, self.at = seconds, None

    def remaining(self):
        """Seconds left before the deadline; past it, :class:`TimeoutError`."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the call took longer than {self.seconds:g} s")
        return left


class _DeadlineReader(io.RawIOBase):
    """The bytes of a socket, each read waiting no longer than what is left of the call."""

    def __init__(self, sock, deadline):
        self._sock, self._deadline = sock, deadline

    def readable(self):
        return True

    def readinto(self, buffer):
        self._sock.settimeout(self._deadline.remaining())
        return self._sock.recv_into(buffer)


class _DeadlineSocket:
    """A connected socket whose every send and read is bounded by the call's deadline, so
    a server that drips its answer (one byte a second) cannot hold a call past it."""

    def __init__(self, sock, deadline):
        self._sock, self._deadline = sock, deadline

    def sendall(self, data):
        self._sock.settimeout(self._deadline.remaining())
        return self._sock.sendall(data)

    def makefile(self, mode="rb", *args, **kwargs):
        return io.BufferedReader(_DeadlineReader(self._sock, self._deadline))

    def close(self):
        self._sock.close()

    def __getattr__(self, name):
        return getattr(self._sock, name)


def _bounded(connection_class):
    """``connection_class`` (http.client's) connecting within the call's deadline and
    reading through :class:`_DeadlineSocket`."""

    class Bounded(connection_class):
        def __init__(self, host, port, *, deadline):
            super().__init__(host, port, timeout=deadline.seconds)
            self.deadline = deadline

        def connect(self):
            self.timeout = self.deadline.remaining()
            super().connect()
            self.sock = _DeadlineSocket(self.sock, self.deadline)

    return Bounded


_HTTP, _HTTPS = _bounded(http.client.HTTPConnection), _bounded(http.client.HTTPSConnection)


def _endpoint(url):
    """``(scheme, host, port, target)`` of an http(s) URL, or a clear error."""
    problem = None
    try:
        parts = urlsplit(url) if type(url) is str else None
        port = parts.port if parts is not None else None
    except ValueError as error:  # a port out of range, a broken IPv6 address
        parts, port, problem = None, None, str(error)
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        why = f" ({problem})" if problem else ""
        raise InvalidInputError(f"--endpoint must be an http:// or https:// URL with a host; "
                                f"got {show(url)}{why}")
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, target


_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # a header's name (RFC 9110)


def _checked_headers(headers):
    """``headers`` as text, each name a token and each value one line (a header that
    http.client would refuse at every call is refused once, before the first)."""
    checked = {}
    for name, value in headers.items():
        name, value = str(name), str(value)
        if not _TOKEN.fullmatch(name):
            raise InvalidInputError(f"--header: a name must be letters, digits and "
                                    f"!#$%&'*+-.^_`|~ only; got {show(name)}")
        if any(char in value for char in "\r\n\0"):
            raise InvalidInputError(f"--header {name}: a value must be one line; got "
                                    f"{show(value)}")
        checked[name] = value
    return checked


def check_timeout(timeout):
    """``timeout`` (seconds per call) as a float, or a clear error."""
    if type(timeout) not in (int, float) or not 0 < timeout <= MAX_TIMEOUT:
        raise InvalidInputError(f"timeout must be a number of seconds above 0 and at most "
                                f"{MAX_TIMEOUT:g}; got {show(timeout)}")
    return float(timeout)


def _json(data):
    """The JSON value of a response body, refusing what cannot be read faithfully (a
    repeated key, NaN, a number of thousands of digits, nesting too deep) as a
    :class:`ResponseError`: a failed run with its reason, never a retry."""
    try:
        return DECODER.decode(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ResponseError(f"the response is not UTF-8 ({error.reason}): "
                            f"{show(data[:200])}") from None
    except RecursionError:
        raise ResponseError("the response is JSON nested too deeply to read") from None
    except ValueError as error:  # not JSON, a repeated key, NaN, an integer too long
        reason = (str(error).splitlines() or [""])[0].split(";")[0][:160]
        reason = reason if reason.isprintable() else show(reason)
        raise ResponseError(f"the response is not JSON that can be read ({reason}): "
                            f"{show(data[:200])}") from None


class HttpCaller:
    """``caller(case, question, trial)`` posts one question and returns the parsed JSON;
    each call has ``timeout`` seconds from connect to its last byte."""

    def __init__(self, url, *, body=None, headers=None, timeout=30.0):
        scheme, host, port, self.target = _endpoint(url)
        self.url, self.timeout = url, check_timeout(timeout)
        self.template = DEFAULT_BODY if body is None else (
            check_template(body) if type(body) is str else body)
        self.connect = _HTTPS if scheme == "https" else _HTTP
        self.address = (host, port)
        self.headers = {"Content-Type": "application/json", "Accept": "application/json",
                        **_checked_headers(headers or {})}
        self._local = threading.local()

    def _connection(self):
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = self.connect(*self.address, deadline=_Deadline(self.timeout))
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
        deadline = time.monotonic() + self.timeout  # one for the call, reconnects included
        for fresh in (False, True):
            reused = getattr(self._local, "used", False) and not fresh
            try:
                status, reason, retry_after, data = self._post(payload, deadline)
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
        return _json(data)

    def _post(self, payload, deadline):
        connection = self._connection()
        connection.deadline.at = deadline
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
