"""What every use case's result has besides its own fields (a mixin of its namedtuple).

- ``writers``: the result type's table of writers by format (``--format``'s choices);
- ``job``: what the result is, in words, for an error about a format it has no writer for;
- ``exit_code``: 0, unless the result is a verdict that failed (1);
- ``warned``: warnings a writer for people prints first and a data writer leaves to
  standard error (``ragscore: warning: ...``);
- ``said``: the sentences a writer for people prints inside its text and a data writer
  leaves to standard error (``ragscore: note: ...``);
- ``aside``: lines that always go to standard error, whatever the format (what a dedupe or
  a projection removed, per system).
"""


class Result:
    """Defaults for a result: no notes, exit code 0."""

    __slots__ = ()
    writers = {}
    job = "this result"

    @property
    def exit_code(self):
        return 0

    def refuse_format(self, fmt):
        """Why this result has no writer called ``fmt``, in one sentence."""
        return f"--format: {self.job} is written as {', '.join(self.writers)}; got {fmt}"

    @property
    def warned(self):
        return ()

    @property
    def said(self):
        return ()

    @property
    def aside(self):
        return ()


def removed_runs(counted):
    """``(case, system, dropped, collapsed)`` for every run a dedupe or a projection onto
    documents changed."""
    return [(case, system, dropped, collapsed) for (case, system), dropped, collapsed
            in zip(counted.keys, counted.field("dropped"), counted.field("collapsed"))
            if dropped or collapsed]


def removal_notes(counted):
    """What a projection or a dedupe removed, per system, as ``ragscore: note:`` lines."""
    totals = {}
    for _, system, dropped, collapsed in removed_runs(counted):
        before = totals.get(system, (0, 0))
        totals[system] = (before[0] + dropped, before[1] + collapsed)
    lines = []
    for system, (dropped, collapsed) in totals.items():
        if dropped:
            lines.append(f"ragscore: note: system {system}: {dropped} repeated IDs dropped "
                         "from its rankings (--dedupe)")
        if collapsed:
            lines.append(f"ragscore: note: system {system}: {collapsed} chunks collapsed "
                         "into their documents (--unit document)")
    return tuple(lines)
