"""How a result reaches the terminal: the writer its ``--format`` names, text for people
escaped and fitted to the width, data written exactly, notes where the writer wants them."""
import sys

from ..render.escape import Escaping
from ..render.width import FittedLines
from ..core.rules import InvalidInputError, show
from ..render.writers import Display


def write_result(result, *, fmt, out, width, digits=None, first_note=None):
    """Write ``result`` on ``out`` with the writer of its table called ``fmt`` (``None``: the
    table's first); the result's notes go inside a text for people and on standard error
    beside data; its ``aside`` lines always on standard error. ``first_note`` (how the
    command read its input, e.g. ``--no-verify``) opens a text for people, else goes on
    standard error."""
    writers = result.writers
    writer = writers.get(next(iter(writers)) if fmt is None else fmt)
    if writer is None:
        said = fmt if type(fmt) is str and fmt.isprintable() else show(fmt)
        raise InvalidInputError(result.refuse_format(said))
    text = writer.write(result, Display(digits=digits, width=width))
    side = Escaping(sys.stderr)
    if not writer.notes_inside:
        side.write("".join(f"ragscore: warning: {warning}\n" for warning in result.warned))
        side.write("".join(f"ragscore: note: {note}\n" for note in result.said))
    stream = out
    if writer.fitted:
        stream = FittedLines(stream, width)
    if writer.escaped:
        stream = Escaping(stream)
    if first_note is not None:
        if writer.notes_inside:
            stream.write(f"Note: {first_note}\n")
        else:
            side.write(f"ragscore: note: {first_note}\n")
    stream.write(text)
    stream.flush()
    if result.aside:
        side.write("".join(f"{line}\n" for line in result.aside))
    return result.exit_code
