"""The review queue in a notebook: the queue ``ragscore review export`` writes, one item at
a time, one click per decision.

:func:`answer_queue_editor` shows each item awaiting review: a pooled passage beside its
question (judge its relevance: a grade), a question (answerable from this corpus?), or a
claim with the passages it cites, its findings and the question's expected claims. What
each button records is :func:`choices`; a click stores a judgement with the reviewer and
the date (:mod:`ragscore.core.labels`) and moves on. Save adds them to the dataset folder
under its lock, as ``ragscore review import`` does. An answer against a nugget, and a
claim against one passage it cites, take three buttons: TREC RAG's levels.

The buttons of a claim say two things apart: **supported** means the passages it cites
back it up; **states NAME** names the expected claim it makes (coverage counts it), and
the strict citation rule then checks its citations against NAME's labelled sources.
"supported, states none" is a sentence its passages back up that states no expected claim:
an extra claim, which the strict rule counts as unsupported (it lowers support and adds no
coverage). On a question without expected claims there is nothing to state: "supported"
alone makes it count as supported where its cited passages are visible.
"""
import html

from ..core.rules import InvalidInputError

def choices(row):
    """``[(label, decision, states)]``: the buttons of one queue row (the queue's own scale,
    :func:`ragscore.io.review_queue.row_choices`, which the review page offers too).

    >>> [label for label, _, _ in choices({"kind": "support", "expected": {"monday": []}})]
    ['supported, states monday', 'supported, states none', 'unsupported', 'not a claim']
    >>> [label for label, _, _ in choices({"kind": "support", "expected": {}})]
    ['supported', 'unsupported', 'not a claim']
    >>> [label for label, _, _ in choices({"kind": "nugget"})]
    ['support', 'partial support', 'not support']
    """
    from ..io.review_queue import row_choices

    return row_choices(row)


def judgement_of(row, decision, states, *, reviewer, date):
    """The judgement record (without its batch) a click on ``row`` makes."""
    from ..core.answers import normalise

    record = {"kind": row["kind"], "case": row["case"], "key": row["key"]}
    if row["kind"] == "relevance":
        record["doc"] = row["doc"]
    elif row["kind"] == "support":
        record.update(claim=normalise(row["claim"]), citations=list(row["citations"]))
    elif row["kind"] == "nugget":
        record["nugget"] = row["nugget"]
    elif row["kind"] == "citation":
        record.update(claim=normalise(row["claim"]), doc=row["doc"])
    record.update(decision=decision, reviewer=reviewer, date=date, origin="human")
    if states:
        record["states"] = states
    return record


def _passages(passages):
    return "".join(f"<li><code>{html.escape(doc)}</code>: {html.escape(text or '(no text)')}"
                   "</li>" for doc, text in passages.items())


def _recorded(record, shown):
    """One judgement a click recorded, in words: what it is about (a claim as the answer
    wrote it) and the decision (the label of the button clicked, when ``shown`` has it)."""
    label, sentence = shown
    about = f"<code>{html.escape(record['case'])}</code>"
    if record["kind"] == "relevance":
        about += f", passage <code>{html.escape(record['doc'])}</code>"
    elif record["kind"] in ("support", "citation"):
        about += f", claim &ldquo;{html.escape(sentence or record['claim'])}&rdquo;"
        if record["kind"] == "citation":
            about += f" against <code>{html.escape(record['doc'])}</code>"
    elif record["kind"] == "nugget":
        about += f", nugget <code>{html.escape(record['nugget'])}</code>"
    if label:
        return f"<li>{about}: {html.escape(label)}</li>"
    decision = html.escape(str(record["decision"]).replace("_", " "))
    if record["kind"] == "relevance":
        decision = f"grade {decision}"
    if record.get("states"):
        decision += f", states <code>{html.escape(record['states'])}</code>"
    return f"<li>{about}: {decision}</li>"


def recorded_html(records, *, reviewer, date, path, shown=None):
    """What the panel recorded, shown when its queue is done: each judgement in words, the
    reviewer and date, and whether anything was written. ``shown``: for each record, the
    label of the button clicked and the claim as the answer wrote it (either may be None).

    >>> print(recorded_html([{"kind": "nugget", "case": "rollback", "nugget": "order",
    ...                       "decision": "partial_support"}], reviewer="learner",
    ...                      date="2026-12-05", path=None))
    <p><b>Done.</b> You recorded 1 judgement as learner on 2026-12-05:</p><ul><li><code>rollback</code>, nugget <code>order</code>: partial support</li></ul><p>Nothing is saved: the panel was given no folder (<code>path=</code>).</p>
    >>> print(recorded_html([{"kind": "support", "case": "launch", "claim": "starts monday",
    ...                       "decision": "supported"}], reviewer="learner", date="2026-12-05",
    ...                      path=None, shown=[("supported, states none", "Starts Monday.")]))
    <p><b>Done.</b> You recorded 1 judgement as learner on 2026-12-05:</p><ul><li><code>launch</code>, claim &ldquo;Starts Monday.&rdquo;: supported, states none</li></ul><p>Nothing is saved: the panel was given no folder (<code>path=</code>).</p>
    """
    if not records:
        return ""
    shown = shown or [(None, None)] * len(records)
    count = f"{len(records)} judgement{'' if len(records) == 1 else 's'}"
    saved = ("<p>Nothing is saved: the panel was given no folder (<code>path=</code>).</p>"
             if path is None else f"<p>Press Save to write them to "
                                  f"<code>{html.escape(str(path))}</code>.</p>")
    return (f"<p><b>Done.</b> You recorded {count} as {html.escape(reviewer)} on "
            f"{html.escape(date)}:</p><ul>{''.join(map(_recorded, records, shown))}</ul>"
            f"{saved}")


def _item_html(row, position, total):
    if row is None:
        return "<p><b>The queue is empty:</b> every item has a judgement.</p>"
    head = (f"<p>Item {position} of {total} ({html.escape(row['kind'])}), case "
            f"<code>{html.escape(row['case'])}</code>: {html.escape(row['question'])}</p>")
    if row["kind"] == "relevance":
        return (head + f"<p>Is this passage relevant to the question?</p><blockquote><code>"
                f"{html.escape(row['doc'])}</code>: {html.escape(row['passage'])}</blockquote>")
    if row["kind"] == "answerability":
        return head + "<p>Does this corpus answer the question?</p>"
    if row["kind"] == "nugget":
        return (head + f"<p>Does the answer state this {html.escape(row['importance'])} "
                f"nugget (<code>{html.escape(row['nugget'])}</code>)?</p><blockquote>"
                f"{html.escape(row['claim'])}</blockquote><p>The answer:</p><blockquote>"
                f"{html.escape(row['answer'])}</blockquote>")
    if row["kind"] == "citation":
        return (head + f"<p>Does this passage support the claim?</p><blockquote>"
                f"{html.escape(row['claim'])}</blockquote><blockquote><code>"
                f"{html.escape(row['doc'])}</code>: {html.escape(row['passage'])}</blockquote>")
    cited = _passages(row["passages"])
    shown = (f"<p>Cited passages:</p><ul>{cited}</ul>" if cited else
             f"<p>Cites nothing. The passages its answer was given:</p><ul>"
             f"{_passages(row['context']) or '<li><i>none</i></li>'}</ul>")
    findings = "".join(f"<li>{html.escape(finding)}</li>" for finding in row["findings"])
    expected = ", ".join(f"<code>{html.escape(name)}</code> ({', '.join(map(html.escape, s))})"
                         for name, s in row["expected"].items()) or "none"
    return (head + f"<blockquote>{html.escape(row['claim'])}</blockquote>" + shown
            + (f"<p>Findings:</p><ul>{findings}</ul>" if findings else "")
            + f"<p>Expected claims: {expected}</p>")


#: The answer metrics the review panel scores (:func:`decisions_scored`).
SCORED = ("support", "coverage")


def decisions_scored(dataset, *, system, k):
    """HTML: ``system``'s support and coverage at ``k`` per question in ``dataset`` (the
    review panel's dataset with the decisions made so far), n/a until every claim of an
    answer has a decision."""
    from ..tables.scores import question_table
    from .cells import rows_html
    from .explore import STYLE, table_rows

    rows = [row for row in table_rows(question_table(dataset, k=k, metrics=SCORED))
            if system is None or row["system"] == system]
    return (f"<p>Your decisions so far, scored at k = {k} (n/a: an answer with a claim "
            "still waiting):</p>" + STYLE + rows_html(rows, classes="ragscore-table "
                                                      "ragscore-decisions-scored"))


def answer_queue_editor(dataset, *, system=None, reviewer, date, path=None, pool_depth=None,
                        citations=False, k=None):
    """A panel walking the items of ``system``'s runs that await review (pool passages,
    questions, claims, then answers against nuggets, question by question; ``pool_depth``:
    that of ``review export`` unless given; ``citations``: each cited passage too). With
    ``k``, the panel also shows the decisions made so far scored (:func:`decisions_scored`),
    redrawn on each one.

    Attributes: ``buttons`` (``{label: Button}``), ``back`` and ``save`` (Button),
    ``view``, ``scores`` and ``status`` (HTML); ``panel.current()`` is the row shown
    (``None`` when the queue is empty), ``panel.decide(decision, states=None)`` records what
    a click records, ``panel.undo()`` (the Back button) takes the last decision back and
    shows its item again, and ``panel.dataset()`` is the dataset with every judgement
    recorded so far.
    """
    import ipywidgets as widgets

    from ..core.labels import check_record, content_key
    from ..folders import save_dataset, update_dataset
    from ..io.queue_file import add_judgements
    from ..io.review_queue import POOL_DEPTH, review_queue
    from ..io.store import is_dataset_folder
    from .explore import LIVE_STYLE
    from .widgets import _panel

    if not str(reviewer).strip():
        raise InvalidInputError("reviewer must be a non-blank name")
    depth = POOL_DEPTH if pool_depth is None else pool_depth
    state = {"records": [], "shown": [], "at": 0,
             "rows": review_queue(dataset, system=system, pool_depth=depth,
                                  citations=citations)}
    total = len(state["rows"])
    view, scores, status = widgets.HTML(), widgets.HTML(), widgets.HTML()
    save = widgets.Button(description="Save", disabled=path is None)
    back = widgets.Button(description="Back", tooltip="take back the last decision")
    box = widgets.HBox()

    def current():
        rows = state["rows"]
        return rows[state["at"]] if state["at"] < len(rows) else None

    def batched():
        batch = content_key("notebook", reviewer, date,
                            [record["key"] for record in state["records"]])
        return [dict(record, batch=batch) for record in state["records"]]

    def decide(decision, states=None):
        row = current()
        if row is None:
            raise InvalidInputError("the queue is empty: nothing to decide")
        record = judgement_of(row, decision, states, reviewer=reviewer, date=date)
        check_record(dict(record, batch="0" * 16), f"item {state['at'] + 1}")
        label = next((label for label, chosen, said in choices(row)
                      if chosen == decision and said == states), None)
        state["records"].append(record)
        state["shown"].append((label, row.get("claim")))
        state["at"] += 1
        draw()

    def undo(_=None):
        if not state["records"]:
            raise InvalidInputError("nothing to take back: no decision recorded yet")
        state["records"].pop()
        state["shown"].pop()
        state["at"] -= 1
        draw()

    def button(label, decision, states):
        found = widgets.Button(description=label, layout=widgets.Layout(width="auto"))
        found.on_click(lambda _: decide(decision, states))
        return found

    def draw():
        row = current()
        state["html"] = _item_html(row, state["at"] + 1, total)
        if row is None:
            state["html"] += recorded_html(state["records"], reviewer=reviewer, date=date,
                                           path=path, shown=state["shown"])
        view.value = LIVE_STYLE + state["html"]  # drawn live: the stored view is hidden
        buttons = {label: button(label, decision, states)
                   for label, decision, states in (choices(row) if row else ())}
        box.children = tuple(buttons.values())
        panel.buttons = buttons
        back.disabled = not state["records"]
        status.value = (f"<p>{state['at']} of {total} judged"
                        f"{'' if path is None else '; press Save to write them'}.</p>")
        if k is not None:
            state["scores"] = decisions_scored(panel.dataset(), system=system, k=k)
            scores.value = state["scores"]

    def write(_=None):
        records = batched()
        if is_dataset_folder(path):  # added to the folder as it is now, under its lock
            update_dataset(path, lambda fresh: add_judgements(fresh, records))
        else:
            save_dataset(add_judgements(dataset, records), path, overwrite=True)
        status.value = f"<p>Saved {len(records)} judgements to {html.escape(str(path))}.</p>"

    save.on_click(write)
    back.on_click(undo)

    def summary(_):
        return f"review queue: {state['at']} of {total} judged, reviewer {reviewer}"

    panel = _panel([view, box, widgets.HBox([back, save]), status, scores], summary,
                   lambda _: state["html"] + state.get("scores", ""))
    panel.view, panel.scores, panel.status, panel.save = view, scores, status, save
    panel.back, panel.current, panel.decide, panel.undo = back, current, decide, undo
    panel.dataset = lambda: add_judgements(dataset, batched())
    draw()
    return panel
