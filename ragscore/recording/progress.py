"""A one-line progress bar with an estimate of the time left, on a terminal only.

Written to standard error and only when it is a terminal, so logs, pipes and notebooks stay
clean; redrawn at most ten times a second.
"""
import time

__all__ = ["Progress"]


class Progress:
    """Counts finished calls of ``total``; draws on ``stream`` when it is a terminal."""

    def __init__(self, total, *, stream, label, already=0):
        isatty = getattr(stream, "isatty", None)
        self.stream = stream if isatty is not None and isatty() else None
        self.total, self.done, self.already, self.label = total, 0, already, label
        self.failed = self.retries = 0
        self.started = self._drawn = time.monotonic()

    def update(self, entry):
        self.done += 1
        self.failed += bool(entry.get("failed"))
        self.retries += entry.get("retries", 0)
        now = time.monotonic()
        if self.stream is not None and (now - self._drawn >= 0.1 or self.done == self.total):
            self._drawn = now
            self.stream.write("\r" + self.line(now) + "\x1b[K")
            self.stream.flush()

    def line(self, now):
        """The bar's text: ``label [####    ] 40/100 calls, 1 failed, 2 retries, ~12 s left``.

        >>> bar = Progress(4, stream=None, label="mine")
        >>> bar.done, bar.failed = 1, 1
        >>> bar.line(bar.started + 2.0)
        'mine [#####               ] 1/4 calls, 1 failed, 0 retries, ~6 s left'
        """
        width = 20
        filled = width * self.done // self.total if self.total else width
        elapsed = now - self.started
        left = elapsed / self.done * (self.total - self.done) if self.done else None
        estimate = "" if left is None else f", ~{left:,.0f} s left"
        resumed = f" (+{self.already:,} from the journal)" if self.already else ""
        return (f"{self.label} [{'#' * filled}{' ' * (width - filled)}] {self.done:,}/"
                f"{self.total:,} calls{resumed}, {self.failed:,} failed, {self.retries:,} "
                f"retries{estimate}")

    def close(self):
        if self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()
