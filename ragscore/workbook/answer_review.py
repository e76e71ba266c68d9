"""The answer review queue in a notebook: the queue ``ragscore review export`` writes, one
claim at a time, one click per decision.

:func:`answer_queue_editor` shows a claim awaiting review with its question, its cited
passages, its findings and the expected claims; a button per decision records a judgement
(``supported`` stating one expected claim, ``supported`` stating none, ``unsupported``, ``not
a claim``) with the reviewer and the date, and moves on. Save writes the dataset folder
(atomic, validated), as ``ragscore review import`` does.
"""
import html

from ..core.rules import InvalidInputError


def _claim_html(row, position, total):
    if row is None:
        return "<p><b>The queue is empty:</b> every claim has a judgement.</p>"
    passages = "".join(
        f"<li><code>{html.escape(doc)}</code>: {html.escape(text or '(no text)')}</li>"
        for doc, text in row["passages"].items()) or "<li><i>no citation</i></li>"
    findings = "".join(f"<li>{html.escape(finding)}</li>" for finding in row["findings"])
    expected = ", ".join(f"<code>{html.escape(name)}</code> ({', '.join(map(html.escape, s))})"
                         for name, s in row["expected"].items()) or "none"
    return (f"<p>Claim {position} of {total}, case <code>{html.escape(row['case'])}</code>: "
            f"{html.escape(row['question'])}</p>"
            f"<blockquote>{html.escape(row['claim'])}</blockquote>"
            f"<p>Cited passages:</p><ul>{passages}</ul>"
            + (f"<p>Findings:</p><ul>{findings}</ul>" if findings else "")
            + f"<p>Expected claims: {expected}</p>")


def answer_queue_editor(dataset, *, system=None, reviewer, date, path=None):
    """A panel walking the claims of ``system``'s answers that await review.

    Attributes: ``buttons`` (``{label: Button}``), ``save`` (Button), ``view`` and
    ``status`` (HTML); ``panel.current()`` is the row shown (``None`` when the queue is
    empty), ``panel.decide(decision, states=None)`` records what a click records, and
    ``panel.dataset()`` is the dataset with every judgement recorded so far.
    """
    import ipywidgets as widgets

    from ..folders import save_dataset
    from ..io.judgements import check_judgement
    from ..io.review_queue import add_judgements, review_queue
    from .explore import LIVE_STYLE
    from .widgets import _panel

    if not str(reviewer).strip():
        raise InvalidInputError("reviewer must be a non-blank name")
    state = {"dataset": dataset, "rows": review_queue(dataset, system=system), "at": 0}
    total = len(state["rows"])
    view, status = widgets.HTML(), widgets.HTML()
    save = widgets.Button(description="Save", disabled=path is None)
    box = widgets.HBox()

    def current():
        rows = state["rows"]
        return rows[state["at"]] if state["at"] < len(rows) else None

    def decide(decision, states=None):
        row = current()
        if row is None:
            raise InvalidInputError("the queue is empty: nothing to decide")
        record = {"reviewer": reviewer, "text": row["key"], "decision": decision,
                  "date": date}
        if states:
            record["states"] = states
        record = check_judgement(record, f"claim {row['claim']!r}")
        state["dataset"] = add_judgements(state["dataset"], {row["case"]: [record]})
        state["at"] += 1
        draw()

    def button(label, decision, states=None):
        found = widgets.Button(description=label, layout=widgets.Layout(width="auto"))
        found.on_click(lambda _: decide(decision, states))
        return found

    def draw():
        row = current()
        state["html"] = _claim_html(row, state["at"] + 1, total)
        view.value = LIVE_STYLE + state["html"]  # drawn live: the stored view is hidden
        choices = {}
        if row is not None:
            for name in row["expected"]:
                choices[f"supported: {name}"] = button(f"supported: {name}", "supported", name)
            for label in ("supported, states none", "unsupported", "not a claim"):
                decision = "supported" if label.startswith("supported") else label
                choices[label] = button(label, decision)
        box.children = tuple(choices.values())
        panel.buttons = choices
        status.value = (f"<p>{state['at']} of {total} judged"
                        f"{'' if path is None else '; press Save to write them'}.</p>")

    def write(_=None):
        save_dataset(state["dataset"], path, overwrite=True)
        status.value = f"<p>Saved {state['at']} judgements to {html.escape(str(path))}.</p>"

    save.on_click(write)

    def summary(_):
        return f"answer review queue: {state['at']} of {total} judged, reviewer {reviewer}"

    panel = _panel([view, box, widgets.HBox([save]), status], summary,
                   lambda _: state["html"])
    panel.view, panel.status, panel.save = view, status, save
    panel.current, panel.decide = current, decide
    panel.dataset = lambda: state["dataset"]
    draw()
    return panel
