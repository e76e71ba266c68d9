"""``audit``: what to know about a test set's labels before reading a score: an
:class:`Audit` (unjudged passages in the top k, near-duplicates labelled differently,
unanswerable questions answered with citations, support outside the relevant set, disputed
reviews; the judgements and the agreement between reviewers)."""
from collections import namedtuple

from ..render import audit as written
from ..render.writers import Writer, data_writer, writer_table
from .reading import cutoff, loaded
from .result import Result

__all__ = ["Audit", "audit"]


class Audit(Result, namedtuple("Audit", "dataset findings k stale")):
    """A label audit: the ``dataset`` (with its claims derived from answer text), the
    ``findings`` (:class:`ragscore.tables.audit.Audit`), the cutoff ``k`` and the ``stale``
    judgements (made against a passage or claim whose text has since changed)."""

    __slots__ = ()
    job = "a label audit"

    writers = writer_table(Writer("text", written.audit_text),
                           data_writer("json", written.audit_data))


def audit(dataset, *, k=2):
    """Audit the labels of ``dataset`` (a folder's path or a Dataset) at cutoff ``k``; the
    findings are information, never a failure."""
    from ..io.answers import derive_dataset, labelled
    from ..tables.audit import audit as findings_of

    source = loaded(dataset)
    derived = derive_dataset(source)
    k = cutoff(k, derived.rules)
    stale = labelled(source).stale if derived.judgements else ()
    return Audit(derived, findings_of(derived, k=k), k, stale)
