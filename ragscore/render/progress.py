"""A progress line on standard error for long work (imports, reports, recordings): shown only
when standard error is a terminal and the work has taken longer than ``delay`` seconds (two
by default; a recording shows at once), redrawn at most ten times a second by a background
thread, then wiped when the work ends (or, with ``keep``, left as the last word). Nothing is
written otherwise, so pipes, files, notebooks and CI logs stay clean. Standard library only.

>>> import io
>>> with Progress("scoring", stream=io.StringIO()) as progress:  # not a terminal: silent
...     progress(5, 10)
>>> progress.drawn
0
"""
import threading
import time

#: How long work runs before the line appears, and how often it is redrawn (seconds).
DELAY, EVERY = 2.0, 0.1
WIDTH = 24


def _amount(done, total, unit):
    """``250/1,000``, ``2/4 calls``, or for bytes ``1.5/12.0 MB``.

    >>> _amount(1_500_000, 12_000_000, "bytes"), _amount(2, 4, "calls")
    ('1.5/12.0 MB', '2/4 calls')
    """
    if unit == "bytes":
        return f"{done / 1e6:,.1f}/{total / 1e6:,.1f} MB"
    return f"{done:,}/{total:,}" + (f" {unit}" if unit else "")


class Progress:
    """Use as ``with Progress("scoring") as progress:`` and call ``progress(done, total)``
    as work is done (an engine's ``progress`` hook); without calls, the line shows the time
    elapsed. ``unit`` names what is counted (``"bytes"`` shows megabytes); ``detail``, a
    function, adds its text after the counts; ``keep`` leaves the last line standing."""

    def __init__(self, label, *, stream=None, delay=None, clock=time.monotonic, unit="",
                 detail=None, keep=False):
        import sys

        self.label, self.stream = label, sys.stderr if stream is None else stream
        self.delay = DELAY if delay is None else delay  # read when made: a test may lower it
        self.clock, self.unit, self.detail = clock, unit, detail
        self.keep = keep
        self.done = self.total = self.done_at = None
        self.drawn, self.width, self.last = 0, 0, None
        self._stop = threading.Event()
        self._thread = None
        self._lock = threading.Lock()

    def _live(self):
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError):
            return False

    def __enter__(self):
        self.start = self.clock()
        if self._live():
            self._thread = threading.Thread(target=self._tick, daemon=True,
                                            name="ragscore-progress")
            self._thread.start()
        return self

    def __call__(self, done, total):
        if done != self.done:
            self.done_at = self.clock()
        self.done, self.total = done, total

    def _tick(self):
        if self._stop.wait(self.delay):
            return
        while not self._stop.is_set():
            self.draw()
            self._stop.wait(EVERY)

    def text(self):
        """The line as it stands: bar, share, counts, detail, time elapsed and, part way,
        an estimate of the time left at the pace so far, taken when ``done`` last moved
        (seconds to then / done * (total - done)): a pause in the count does not make the
        estimate climb.

        >>> now = [3.0]
        >>> progress = Progress("scoring", clock=lambda: now[0])
        >>> progress.start = 0.0
        >>> progress(250, 1000)
        >>> progress.text()
        'ragscore: scoring [######------------------]  25% 250/1,000, 3 s, ~9 s left'
        >>> now[0] = 8.0  # five seconds on, nothing more done
        >>> progress(250, 1000)
        >>> progress.text()
        'ragscore: scoring [######------------------]  25% 250/1,000, 8 s, ~9 s left'
        """
        elapsed = self.clock() - self.start
        if not self.total:
            return f"ragscore: {self.label}... {elapsed:.0f} s"
        share = min(max(self.done / self.total, 0.0), 1.0)
        filled = int(share * WIDTH)
        extra = self.detail() if self.detail is not None else ""
        paced = max(self.done_at - self.start, 0.0)
        left = (f", ~{paced / self.done * (self.total - self.done):,.0f} s left"
                if 0 < self.done < self.total else "")
        return (f"ragscore: {self.label} [{'#' * filled}{'-' * (WIDTH - filled)}] "
                f"{share:4.0%} {_amount(self.done, self.total, self.unit)}"
                f"{', ' + extra if extra else ''}, {elapsed:.0f} s{left}")

    def draw(self):
        line = self.text()
        with self._lock:
            if self._stop.is_set():
                return
            self._write(line)

    def _write(self, line):
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width, self.drawn = max(self.width, len(line)), self.drawn + 1

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if self._thread is not None and self.keep:  # the last word stays, on its line
                self._write(self.text())
                self.stream.write("\n")
                self.stream.flush()
            elif self.drawn:  # wipe the line, so the results start on a clean one
                self.stream.write("\r" + " " * self.width + "\r")
                self.stream.flush()
        return False

    def close(self):
        """End the line (as leaving the ``with`` block)."""
        self.__exit__(None, None, None)


class CallProgress(Progress):
    """The progress of a recording: ``update(entry)`` counts one finished call, whether it
    failed and its retries; drawn at once, its last line kept.

    >>> bar = CallProgress(4, stream=None, label="recording mine", clock=lambda: 2.0)
    >>> bar.start = 0.0
    >>> bar.update({"failed": True, "retries": 0})
    >>> bar.text()
    'ragscore: recording mine [######------------------]  25% 1/4 calls, 1 failed, 0 retries, 2 s, ~6 s left'
    """

    def __init__(self, total, *, stream, label, already=0, clock=time.monotonic):
        super().__init__(label, stream=stream if stream is not None else _Silent(), delay=0.0,
                         clock=clock, unit="calls", detail=self._tally, keep=True)
        self.already, self.failed, self.retries = already, 0, 0
        self(0, total)
        self.__enter__()

    def _tally(self):
        resumed = f"(+{self.already:,} from the journal), " if self.already else ""
        return f"{resumed}{self.failed:,} failed, {self.retries:,} retries"

    def update(self, entry):
        self.failed += bool(entry.get("failed"))
        self.retries += entry.get("retries", 0)
        self(self.done + 1, self.total)


class _Silent:
    """A stream that is not a terminal: nothing is drawn."""

    def isatty(self):
        return False
