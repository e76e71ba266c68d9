"""Writers: how a use case's result becomes text, one table of writers per result type.

Every result a use case returns (:mod:`ragscore.usecases`) names its writers by format:
``Report.writers["csv"]`` writes a report as CSV. The command line takes each ``--format``'s
choices from that table and never tests a format itself; a new format is one writer and one
row. A writer is a function ``write(result, display) -> str``; :class:`Writer` says whether
the text is read by people (escaped against terminal control characters and fitted to
``--width``) and whether the result's notes go inside it or out of band (standard error),
so data formats stay machine-readable.

>>> table = writer_table(Writer("text", lambda result, display: f"{result}\\n"))
>>> table["text"].write(3, DISPLAY)
'3\\n'
"""
from collections import namedtuple


class Writer(namedtuple("Writer", "name write escaped fitted notes_inside",
                        defaults=(True, True, True))):
    """One way to write a result: ``name`` (a ``--format`` choice), ``write(result,
    display) -> str``, ``escaped`` (text for people: every control character a data file
    holds shown escaped, never sent to the terminal), ``fitted`` (its lines wrapped at
    ``--width``) and ``notes_inside`` (the result's notes are part of the text; false: they
    go to standard error, one ``ragscore: note:`` line each). Data (CSV, JSON) is none of
    these: written exactly, its notes out of band."""

    __slots__ = ()


class Display(namedtuple("Display", "digits width", defaults=(None, None))):
    """How text is laid out, apart from what it says: ``digits`` decimals (``None``: the
    writer's own default) and the ``width`` in columns a writer may lay text out in (``None``:
    no limit)."""

    __slots__ = ()


#: Nothing asked about the layout.
DISPLAY = Display()


def writer_table(*writers):
    """``{name: writer}`` in the order given (the order ``--help`` lists the formats)."""
    table = {}
    for writer in writers:
        if writer.name in table:
            raise ValueError(f"writer {writer.name!r} is listed twice")
        table[writer.name] = writer
    return table


def data_writer(name, write):
    """A :class:`Writer` of data (CSV, JSON, trec_eval's layout): written exactly, notes out
    of band."""
    return Writer(name, write, escaped=False, fitted=False, notes_inside=False)
