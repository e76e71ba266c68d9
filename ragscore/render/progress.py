"""A progress line on standard error for long work: shown only when standard error is a
terminal and the work has taken longer than ``delay`` seconds (two by default), redrawn at
most ten times a second, and wiped when the work ends. Nothing is written otherwise, so
pipes, files and CI logs stay clean. Standard library only.

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


class Progress:
    """Use as ``with Progress("scoring") as progress:`` and call ``progress(done, total)``
    as work is done (an engine's ``progress`` hook); without calls, the line shows the time
    elapsed."""

    def __init__(self, label, *, stream=None, delay=DELAY, clock=time.monotonic):
        import sys

        self.label, self.stream = label, sys.stderr if stream is None else stream
        self.delay, self.clock = delay, clock
        self.done = self.total = None
        self.drawn, self.width, self.last = 0, 0, None
        self._stop = threading.Event()
        self._thread = None
        self._lock = threading.Lock()

    def _live(self):
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def __enter__(self):
        self.start = self.clock()
        if self._live():
            self._thread = threading.Thread(target=self._tick, daemon=True)
            self._thread.start()
        return self

    def __call__(self, done, total):
        self.done, self.total = done, total

    def _tick(self):
        if self._stop.wait(self.delay):
            return
        while not self._stop.is_set():
            self.draw()
            self._stop.wait(EVERY)

    def text(self):
        """The line as it stands.

        >>> progress = Progress("scoring", clock=lambda: 3.0)
        >>> progress.start = 0.0
        >>> progress(250, 1000)
        >>> progress.text()
        'ragscore: scoring [######------------------]  25% 250/1,000, 3 s'
        """
        elapsed = f"{self.clock() - self.start:.0f} s"
        if not self.total:
            return f"ragscore: {self.label}... {elapsed}"
        share = min(max(self.done / self.total, 0.0), 1.0)
        filled = int(share * WIDTH)
        return (f"ragscore: {self.label} [{'#' * filled}{'-' * (WIDTH - filled)}] "
                f"{share:4.0%} {self.done:,}/{self.total:,}, {elapsed}")

    def draw(self):
        line = self.text()
        with self._lock:
            if self._stop.is_set():
                return
            self.stream.write("\r" + line.ljust(self.width))
            self.stream.flush()
            self.width, self.drawn = max(self.width, len(line)), self.drawn + 1

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if self.drawn:  # wipe the line, so the results start on a clean one
                self.stream.write("\r" + " " * self.width + "\r")
                self.stream.flush()
        return False
