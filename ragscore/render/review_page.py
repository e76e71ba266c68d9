"""The review queue as one self-contained HTML page (``ragscore review page``): one item a
screen, decision buttons with keyboard shortcuts, a note, progress, the decisions kept in
the browser under the export's identity, and an export ``ragscore review import`` reads
(:mod:`ragscore.io.page_export`).

Everything is inline (style, script, data): the file opens from disk with no server, no
network and no Jupyter. The items travel as JSON inside ``<script
type="application/json">``, every ``<`` written ``\\u003c`` (no ``</script>`` in the data
can end it), and the page's script writes every text with ``textContent``. The page's
Content-Security-Policy allows only its own script and style, by their SHA-256: no other
script can run in it, and nothing can be fetched. The same queue gives the same bytes.
"""
import base64
import hashlib
from importlib import resources

from ..io.review_queue import row_choices
from .escape import html as escape
from .share_html import script_json

__all__ = ["SHORTCUTS", "page_items", "shortcuts", "write_page"]

#: The keys that decide, by kind (a support item's expected claims take 1 to 9, ``0``
#: stating none).
SHORTCUTS = {"relevance": {0: "0", 1: "1", 2: "2"},
             "answerability": {"answerable": "a", "unanswerable": "u", "unsure": "s"},
             "nugget": {"support": "s", "partial_support": "p", "not_support": "n"},
             "citation": {"full": "f", "partial": "p", "none": "n"},
             "support": {"supported": "s", "unsupported": "u", "not a claim": "n"}}


def shortcuts(row):
    """``[(label, decision, states, key)]``: a row's choices with the key that picks each
    (``""``: none; a support item's tenth expected claim and later are clicked).

    >>> [key for *_, key in shortcuts({"kind": "support", "expected": {"monday": []}})]
    ['1', '0', 'u', 'n']
    >>> [key for *_, key in shortcuts({"kind": "relevance"})]
    ['0', '1', '2']
    """
    keys = SHORTCUTS[row["kind"]]
    found, named = [], 0
    for label, decision, states in row_choices(row):
        if row["kind"] == "support" and decision == "supported" and row.get("expected"):
            named += 1
            key = "0" if states is None else (str(named) if named <= 9 else "")
        else:
            key = keys.get(decision, "")
        found.append((label, decision, states, key))
    return found


def _pairs(mapping):
    return [[doc, text] for doc, text in mapping.items()]


def page_items(rows):
    """What the page shows of each queue row (the fields its script reads)."""
    shown = []
    for row in rows:
        item = {name: row.get(name, "") for name in ("kind", "case", "question", "key", "doc",
                                                     "passage", "claim", "nugget",
                                                     "importance", "answer")}
        item.update(citations=list(row.get("citations") or ()),
                    passages=_pairs(row.get("passages") or {}),
                    context=_pairs(row.get("context") or {}),
                    findings=list(row.get("findings") or ()),
                    answers=[text for text in row.get("answers") or () if text],
                    expected=[[name, list(sources)]
                              for name, sources in (row.get("expected") or {}).items()],
                    choices=[list(choice) for choice in shortcuts(row)],
                    audit=bool(row.get("audit")))
        if "moves" in row:
            item["moves"] = list(row["moves"])
        if "decisions" in row:
            item["decisions"] = [[name, str(said)] for name, said in row["decisions"].items()]
        shown.append(item)
    return shown


def _hash(text):
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def _keys_help():
    return ("Keys: <kbd>0</kbd> <kbd>1</kbd> <kbd>2</kbd> grade a passage; "
            "<kbd>a</kbd>nswerable, <kbd>u</kbd>nanswerable, un<kbd>s</kbd>ure; a claim "
            "<kbd>1</kbd>-<kbd>9</kbd> supported stating an expected claim, <kbd>0</kbd> "
            "stating none (<kbd>s</kbd> supported where none is expected), <kbd>u</kbd>"
            "nsupported, <kbd>n</kbd>ot a claim; a nugget <kbd>s</kbd>upport, <kbd>p</kbd>"
            "artial, <kbd>n</kbd>ot; a citation <kbd>f</kbd>ull, <kbd>p</kbd>artial, <kbd>n"
            "</kbd>one. <kbd>&rarr;</kbd>/<kbd>j</kbd> next, <kbd>&larr;</kbd>/<kbd>k</kbd> "
            "previous, <kbd>e</kbd> write a note (<kbd>Esc</kbd> leaves it).")


def write_page(queue, *, title=None):
    """The page of a :class:`~ragscore.usecases.review.Queue` (its ``identity`` set) as
    HTML text."""
    identity = queue.identity
    page = resources.files("ragscore.render")
    style = page.joinpath("review_page.css").read_text(encoding="utf-8")
    script = page.joinpath("review_page.js").read_text(encoding="utf-8")
    payload = {"identity": identity._asdict(), "date": queue.date or "",
               "items": page_items(queue.rows)}
    title = title or f"review of {identity.dataset or 'a test set'}"
    audit = sum(1 for row in queue.rows if row.get("audit"))
    about = f"{len(queue.rows)} items"
    if audit:
        about += f", {audit} of them the audit sample (drawn at random: judge them too)"
    if queue.order:
        about += f"; ordered by {escape(queue.order)}"
    policy = (f"default-src 'none'; style-src '{_hash(style)}'; script-src "
              f"'{_hash(script)}'; img-src data:")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<title>ragscore: {escape(title)}</title>
<style>{style}</style>
</head>
<body>
<h1>ragscore: {escape(title)}</h1>
<p class="sub">Test set <code>{escape(identity.dataset)}</code>, export
<code>{escape(identity.export)}</code>: {about}. Your decisions stay in this browser
(under this export) until you export them; then run <code>ragscore review import DIR
FILE</code>.</p>
<div class="who"><label>Reviewer <input id="reviewer" autocomplete="off"></label>
<label>Date <input id="date" placeholder="YYYY-MM-DD" size="10"></label>
<span id="saved"></span></div>
<div id="progress-line"><progress id="progress" value="0" max="1"></progress>
<span id="progress-text"></span></div>
<div id="item" aria-live="polite"></div>
<div id="choices"></div>
<label for="note">Note (optional)</label>
<textarea id="note"></textarea>
<div class="nav"><button type="button" id="prev">&larr; previous</button>
<button type="button" id="next">next &rarr;</button>
<button type="button" id="next-open">next undecided</button>
<button type="button" id="clear">clear this decision</button>
<button type="button" id="export">Export decisions</button></div>
<textarea id="export-text" readonly hidden aria-label="the exported decisions"></textarea>
<p class="keys">{_keys_help()}</p>
<script type="application/json" id="ragscore-review-data">{script_json(payload)}</script>
<script>{script}</script>
</body>
</html>
"""
