"""Live widgets for the workbook: wiring only. The logic is in :mod:`ragscore.workbook.explore`.

Each builder returns a panel (an ``ipywidgets.VBox``) whose controls are attributes, so a
test or a notebook cell can set ``panel.k.value = 3`` and read ``panel.table.value``. Displays
are ``HTML`` widgets whose ``.value`` is rewritten, which nbval can compare, and each panel's
plain-text form is one short, deterministic line.
"""
import html
import io

from .explore import LIVE_STYLE, claim_report_html, claim_rows, error_html, format_claims, \
    format_ranking, parse_claims, parse_ranking, question_rows, question_table_html, \
    ranking_report_html, rows_html, score_row, sweep_rows
from ..core.metrics import CONTRACT, REGISTRY
from ..core.rules import InvalidInputError, fail
from ..core.scoring import evaluate

MAX_SLIDER_K = 5
#: The metrics each editor reports, by the registry's stage (never by position).
RETRIEVAL_METRICS = tuple(m for m in CONTRACT if REGISTRY[m].stage == "retrieval")
ANSWER_METRICS = tuple(m for m in CONTRACT if REGISTRY[m].stage == "answer")
#: Width of the explorer's plot on the page, in CSS pixels (the PNG is drawn at this size).
PLOT_WIDTH = 900


def _checked(dataset, *, k, case=None, system=None, builder, course_only=False):
    """Validate a builder's input once, at the edge: ``(cases with runs, systems)``.

    The dataset must be valid (as :func:`~ragscore.folders.save_dataset` requires) and
    hold at least one run; ``k`` must fit the slider; a chosen case or system must exist.
    Anything else is an :class:`InvalidInputError` naming it, never a KeyError later.
    """
    from ..io.dataset import check_dataset

    check_dataset(dataset)
    if course_only and dataset.ids != "course":
        raise InvalidInputError(
            f"the {builder} scores with the course rules (ragscore.evaluate); this dataset "
            f"declares ids {dataset.ids!r}: use the k explorer or 'ragscore report' for it")
    if type(k) is not int or not 1 <= k <= MAX_SLIDER_K:
        fail("k", f"an int from 1 to {MAX_SLIDER_K} (the slider's range)", k)
    cases = [name for name, per_case in dataset.runs.items() if per_case]
    if not cases:
        raise InvalidInputError(f"the {builder} needs a dataset with at least one recorded "
                                "run; this one has none")
    if case is not None and (type(case) is not str or case not in cases):
        fail("case", f"one of the cases with runs ({', '.join(cases)})", case)
    systems = list(dataset.systems)
    if system is not None and (type(system) is not str or system not in systems):
        fail("system", f"one of {', '.join(systems)}", system)
    return cases, systems


def _panel(children, summary, snapshot):
    import ipywidgets as widgets

    class Panel(widgets.VBox):
        def __repr__(self):
            return summary(self)

        def snapshot(self):
            """This panel's current state as static HTML, for a view without a kernel."""
            return ('<div class="ragscore-snapshot"><p><i>Stored view of the live panel '
                    "(it becomes live when the notebook runs): "
                    f"{summary(self)}.</i></p>{snapshot(self)}</div>")

    return Panel(children=children, layout=widgets.Layout(width="100%"))


def show(panel):
    """Display a live panel and, beside it, its snapshot (:meth:`snapshot`) as HTML.

    Where the widget is drawn (JupyterLab, Voila) the snapshot is hidden by the widget's own
    style, so the page never shows a number that can go stale; where it cannot be drawn
    (GitHub's view, nbconvert's HTML) the snapshot shows what the panel showed. nbval
    compares the snapshot, which pins the numbers.
    """
    from IPython.display import HTML, display

    display(panel, HTML(panel.snapshot()))


class SweepImages:
    """The metric-against-k plot as PNG bytes for each (k, system), drawn once and kept, so a
    slider step only swaps bytes instead of drawing (about 100 ms on these machines).

    One figure is drawn; for each (k, system) only the current-k marker and the thick line
    move before the figure is saved.
    """

    def __init__(self, sweep_table, *, metric):
        self.sweep_table, self.metric, self._cache, self._ax = sweep_table, metric, {}, None

    def png(self, k, system):
        if (k, system) not in self._cache:
            self._cache[(k, system)] = self._draw(k, system)
        return self._cache[(k, system)]

    def warm(self, ks, systems):
        for system in systems:
            for k in ks:
                self.png(k, system)

    def _draw(self, k, system):
        from ..render.plots import LABEL_POINTS, PROJECTOR_DPI, mark_cutoff, plot_sweep, projector_figure, \
            sweep_title

        if self._ax is None:
            figure = projector_figure((PLOT_WIDTH / PROJECTOR_DPI, 4.2))
            self._ax = plot_sweep(self.sweep_table, metric=self.metric, ax=figure.subplots(),
                                  mark_k=k, highlight=system)
            figure.tight_layout()
            figure.set_layout_engine(None)  # laid out: savefig draws once, not layout + draw
        mark_cutoff(self._ax, k)
        self._ax.set_title(sweep_title(self.metric, system), fontsize=LABEL_POINTS)
        for line in self._ax.get_lines():
            if line.get_gid() and line.get_gid().startswith("system "):
                wide = line.get_gid() == f"system {system}"
                line.set_linewidth(4 if wide else 1.5)
                line.set_markersize(9 if wide else 6)
        buffer = io.BytesIO()
        self._ax.figure.savefig(buffer, format="png", metadata={"Software": None})
        return buffer.getvalue()


def k_explorer(dataset, *, k=2, system=None, metric="recall", plot=True):
    """A k slider (1 to 5) and a system choice; the per-question table and plot follow.

    Attributes: ``k`` (IntSlider), ``system`` (Dropdown), ``table`` (HTML), ``plot`` (Image).
    ``panel.rows()`` gives the table as plain values and ``panel.plotted()`` the numbers the
    plot draws. Every plot is drawn when the panel is built, so a step costs no drawing.
    """
    import ipywidgets as widgets

    from ..core.metrics import get
    from ..tables.summary import sweep

    _, systems = _checked(dataset, k=k, system=system, builder="k explorer")
    get(metric)
    slider = widgets.IntSlider(value=k, min=1, max=MAX_SLIDER_K, description="k",
                               continuous_update=True)
    choice = widgets.Dropdown(options=systems, value=system or systems[0],
                              description="system")
    table = widgets.HTML()
    image = widgets.Image(format="png", layout=widgets.Layout(width=f"{PLOT_WIDTH}px"))
    sweep_table = sweep(dataset, max_k=MAX_SLIDER_K)
    images = SweepImages(sweep_table, metric=metric) if plot else None
    if plot:
        images.warm(range(1, MAX_SLIDER_K + 1), systems)

    def update(_=None):
        table.value = LIVE_STYLE + question_table_html(dataset, k=slider.value,
                                                       system=choice.value)
        if plot:
            image.value = images.png(slider.value, choice.value)

    def rows():
        return question_rows(dataset, k=slider.value, system=choice.value)

    def plotted():
        return sweep_rows(sweep_table, metric=metric)

    def snapshot(_):
        return (question_table_html(dataset, k=slider.value, system=choice.value)
                + rows_html(plotted(), caption=f"numbers in the plot: mean {metric} "
                                               "(answerable questions) by k"))

    slider.observe(update, names="value")
    choice.observe(update, names="value")
    update()
    children = [widgets.HBox([slider, choice]), table] + ([image] if plot else [])
    panel = _panel(children, lambda p: f"k explorer: k={slider.value}, system {choice.value}",
                   snapshot)
    panel.k, panel.system, panel.table, panel.plot = slider, choice, table, image
    panel.rows, panel.plotted = rows, plotted
    return panel


def citation_editor(dataset, *, case=None, system=None, k=2):
    """Edit a recorded answer's claims and citations; support and coverage follow, with the
    reason each claim is or is not supported.

    The claims box holds one claim per line as ``claim: citation, citation``: edit a line to
    change a citation, add a line to add a claim, delete one to drop it. Choosing another
    case or system loads its recorded claims. Attributes: ``case``, ``system`` (Dropdowns),
    ``k`` (IntSlider), ``claims`` (Textarea), ``report`` (HTML).
    """
    import ipywidgets as widgets

    cases, _ = _checked(dataset, k=k, case=case, system=system, builder="citation editor",
                        course_only=True)
    case_choice = widgets.Dropdown(options=cases, value=case or cases[0], description="case")
    options = list(dataset.runs[case_choice.value])
    if system is not None and system not in options:
        fail("system", f"a system with a run for case {case_choice.value!r} "
                       f"({', '.join(options)})", system)
    system_choice = widgets.Dropdown(options=options, value=system, description="system")
    slider = widgets.IntSlider(value=k, min=1, max=MAX_SLIDER_K, description="k")
    claims_box = widgets.Textarea(description="claims", rows=4,
                                  layout=widgets.Layout(width="420px"))
    report = widgets.HTML()

    def recorded():
        return dataset.runs[case_choice.value][system_choice.value]

    def edited():
        return dict(recorded(), claims=parse_claims(claims_box.value))

    def rescore(_=None):
        report.value = LIVE_STYLE + report_html()

    def report_html():
        try:
            run = edited()
        except InvalidInputError as error:
            return error_html(error)
        return claim_report_html(dataset.corpus, dataset.cases[case_choice.value], run,
                                 k=slider.value)

    def scores():
        """``{label: text}`` of support, coverage and abstention for the edited answer."""
        run = edited()
        values = evaluate(dataset.corpus, dataset.cases[case_choice.value], run, k=slider.value)
        return score_row(values, k=slider.value, keys=ANSWER_METRICS)

    def rows():
        return claim_rows(dataset.corpus, dataset.cases[case_choice.value], edited(),
                          k=slider.value)

    def load(_=None):
        claims_box.value = format_claims(recorded().get("claims") or ())  # triggers rescore
        rescore()

    def change_case(_=None):
        options = list(dataset.runs[case_choice.value])
        keep = system_choice.value if system_choice.value in options else options[0]
        system_choice.unobserve(load, names="value")
        system_choice.options = options  # resets the value: set it back, then load once
        system_choice.value = keep
        system_choice.observe(load, names="value")
        load()

    if system_choice.value is None:
        system_choice.value = system_choice.options[0]
    case_choice.observe(change_case, names="value")
    system_choice.observe(load, names="value")
    slider.observe(rescore, names="value")
    claims_box.observe(rescore, names="value")
    load()
    panel = _panel([widgets.HBox([case_choice, system_choice, slider]), claims_box, report],
                   lambda p: f"citation editor: case {case_choice.value}, "
                             f"system {system_choice.value}, k={slider.value}",
                   lambda p: (f"<pre>{html.escape(claims_box.value) or '(no claims)'}</pre>"
                              + report_html()))
    panel.case, panel.system, panel.k = case_choice, system_choice, slider
    panel.claims, panel.report = claims_box, report
    panel.scores, panel.rows = scores, rows
    return panel


def ranking_editor(dataset, *, case=None, system=None, k=2):
    """Reorder or edit a retrieved list (IDs separated by commas); P@k, R@k, RR@k follow.

    Choosing a case or a system loads that system's recorded list. Attributes: ``case``,
    ``system`` (Dropdowns), ``ranking`` (Text), ``k`` (IntSlider), ``report`` (HTML);
    ``panel.scores()`` gives the three numbers as plain values.
    """
    import ipywidgets as widgets

    cases, systems = _checked(dataset, k=k, case=case, system=system,
                              builder="ranking editor", course_only=True)
    case_choice = widgets.Dropdown(options=cases, value=case or cases[0], description="case")
    system_choice = widgets.Dropdown(options=systems, value=system or systems[0],
                                     description="from system",
                                     style={"description_width": "initial"})
    slider = widgets.IntSlider(value=k, min=1, max=MAX_SLIDER_K, description="k")
    ranking = widgets.Text(description="ranking", layout=widgets.Layout(width="420px"))
    report = widgets.HTML()

    def report_html():
        return ranking_report_html(dataset.corpus, dataset.cases[case_choice.value],
                                   parse_ranking(ranking.value), k=slider.value)

    def rescore(_=None):
        report.value = LIVE_STYLE + report_html()

    def scores():
        run = {"retrieved": parse_ranking(ranking.value), "claims": ()}
        values = evaluate(dataset.corpus, dataset.cases[case_choice.value], run, k=slider.value)
        return score_row(values, k=slider.value, keys=RETRIEVAL_METRICS)

    def load(_=None):
        recorded = dataset.runs[case_choice.value].get(system_choice.value)
        ranking.value = format_ranking(recorded["retrieved"] if recorded else ())
        rescore()

    case_choice.observe(load, names="value")
    system_choice.observe(load, names="value")
    slider.observe(rescore, names="value")
    ranking.observe(rescore, names="value")
    load()
    panel = _panel([widgets.HBox([case_choice, system_choice, slider]), ranking, report],
                   lambda p: f"ranking editor: case {case_choice.value}, system "
                             f"{system_choice.value}'s list, k={slider.value}",
                   lambda p: f"<pre>{html.escape(ranking.value)}</pre>" + report_html())
    panel.case, panel.system, panel.ranking, panel.k = case_choice, system_choice, ranking, slider
    panel.report, panel.scores = report, scores
    return panel


def review_editor(dataset, *, path=None, reviewer=None, case=None, system=None, k=2):
    """Review a recorded answer claim by claim and save the judgements into the dataset.

    Pick a question (``case``), a ``system`` and, for repeated trials, a ``trial``; the page
    shows the question, the answer text, the context given to the answer (delivered, else
    the top ``k`` retrieved) with each chunk's text, and each claim with its citations and
    everyone's judgements, disputed claims highlighted. Type your name in ``reviewer``,
    choose a ``claim``, set ``decision`` (supported / unsupported) and a ``note``: the
    judgement is recorded at once (:func:`~ragscore.workbook.review.record_judgement`) in
    ``panel.dataset()``; ``save`` (a Button) records the same judgements, in order, into the
    folder at ``path`` as it is then, under its lock
    (:func:`ragscore.folders.update_dataset`: atomic, validated), so that a judgement
    someone else saved meanwhile is kept.

    Attributes: ``case``, ``system``, ``trial``, ``claim`` (Dropdowns), ``reviewer``,
    ``note`` (Text), ``decision`` (ToggleButtons), ``save`` (Button), ``view`` and
    ``status`` (HTML). ``panel.rows()`` gives the claims as plain rows and
    ``panel.disagreements()`` this question's disputed items.
    """
    import ipywidgets as widgets

    from ..folders import save_dataset, update_dataset
    from ..io.dataset import DatasetFileError
    from ..io.store import is_dataset_folder
    from .review import CLAIM_DECISIONS, claim_review_rows, disagreements, judgement_of, \
        record_judgement, review_html, trials_of

    state = {"dataset": dataset, "unsaved": False, "loading": False, "done": []}
    cases = list(dataset.runs)
    case_choice = widgets.Dropdown(options=cases, value=case or cases[0], description="case")
    systems = list(dataset.runs[case_choice.value])
    system_choice = widgets.Dropdown(options=systems, value=system or systems[0],
                                     description="system")
    trial_choice = widgets.Dropdown(options=[1], value=1, description="trial")
    name = widgets.Text(value=reviewer or "", description="reviewer", placeholder="your name",
                        continuous_update=False)
    claim_choice = widgets.Dropdown(options=[], description="claim")
    decision = widgets.ToggleButtons(
        options=[("not judged", "")] + [(choice, choice) for choice in CLAIM_DECISIONS],
        value="", description="decision")
    # Every keystroke reaches the kernel: a note typed without Enter is never lost.
    note = widgets.Text(description="note", continuous_update=True,
                        layout=widgets.Layout(width="420px"))
    save = widgets.Button(description="Save", disabled=path is None,
                          tooltip="write the judgements into the dataset folder")
    view, status = widgets.HTML(), widgets.HTML()

    def current():
        return state["dataset"]

    def page():
        return review_html(current(), case_choice.value, system_choice.value,
                           name.value.strip(), k=k, trial=trial_choice.value)

    def refresh():
        view.value = LIVE_STYLE + page()

    def say(text, error=False):
        colour = ' style="color:#b2182b"' if error else ""
        status.value = f'<p class="ragscore-status"{colour}>{html.escape(text)}</p>'

    def idle():
        if path is None:
            say("No path given: judgements stay in the editor's .dataset() and are not "
                "saved.")
        elif state["unsaved"]:
            say("Judgements recorded; not saved yet: press Save.")
        else:
            say("Nothing to save.")

    def load_judgement(_=None):
        state["loading"] = True
        try:
            if claim_choice.value is None:
                decision.value, note.value = "", ""
            else:
                found, remark = judgement_of(current(), case_choice.value, system_choice.value,
                                             claim_choice.value, name.value.strip())
                decision.value, note.value = found or "", remark
        finally:
            state["loading"] = False
        decision.disabled = note.disabled = claim_choice.value is None
        refresh()

    def load_claims(_=None):
        runs = trials_of(current(), case_choice.value, system_choice.value)
        state["loading"] = True
        try:
            chosen = min(trial_choice.value or 1, len(runs))
            trial_choice.options = [(f"{n} of {len(runs)}", n) for n in range(1, len(runs) + 1)]
            trial_choice.value = chosen
            trial_choice.disabled = len(runs) == 1
            claims = [claim for claim, _ in runs[trial_choice.value - 1].get("claims") or ()]
            claim_choice.options = claims
            claim_choice.value = claims[0] if claims else None
        finally:
            state["loading"] = False
        load_judgement()

    def change_case(_=None):
        options = list(current().runs[case_choice.value])
        keep = system_choice.value if system_choice.value in options else options[0]
        state["loading"] = True
        try:
            system_choice.options = options
            system_choice.value = keep
        finally:
            state["loading"] = False
        load_claims()

    def change_system(_=None):
        if not state["loading"]:
            load_claims()

    def change_trial(_=None):
        if not state["loading"]:
            load_claims()

    def change_claim(_=None):
        if not state["loading"]:
            load_judgement()

    def judge(_=None):
        if state["loading"] or claim_choice.value is None:
            return
        done = (case_choice.value, system_choice.value, claim_choice.value, name.value,
                decision.value or None, note.value)
        try:
            after = record_judgement(current(), *done)
        except InvalidInputError as error:
            say(f"Not recorded: {error}", error=True)
            return
        if after.cases[case_choice.value] != current().cases[case_choice.value]:
            state["dataset"], state["unsaved"] = after, True
            state["done"].append(done)
        if not decision.value and note.value.strip():
            say("The note is kept in its box; choose supported or unsupported to record it "
                "with your judgement.")
        else:
            idle()
        refresh()

    def replayed(fresh):  # this panel's judgements, on the folder as it is now
        for done in state["done"]:
            fresh = record_judgement(fresh, *done)
        return fresh

    def write(_=None):
        try:
            if is_dataset_folder(path):  # added to the folder as it is now, under its lock
                update_dataset(path, replayed)
            else:  # a new folder (or one refused as not a dataset, with the reason)
                save_dataset(current(), path, overwrite=True)
        except (InvalidInputError, DatasetFileError, OSError) as error:
            say(f"Not saved: {error}", error=True)
            return
        state["unsaved"], state["done"] = False, []
        say(f"Saved the dataset with every judgement to {path}.")

    case_choice.observe(change_case, names="value")
    system_choice.observe(change_system, names="value")
    trial_choice.observe(change_trial, names="value")
    claim_choice.observe(change_claim, names="value")
    name.observe(load_judgement, names="value")
    decision.observe(judge, names="value")
    note.observe(judge, names="value")
    save.on_click(write)
    load_claims()
    idle()

    def summary(_):
        trials = len(trials_of(current(), case_choice.value, system_choice.value))
        return (f"review editor: case {case_choice.value}, system {system_choice.value}, "
                f"trial {trial_choice.value} of {trials}, reviewer "
                f"{name.value.strip() or '(none)'}")

    wrapping = widgets.Layout(flex_flow="row wrap")  # a narrow page (a zoomed projector)
    children = [widgets.HBox([case_choice, system_choice, trial_choice], layout=wrapping),
                name, view, widgets.HBox([claim_choice, decision], layout=wrapping),
                widgets.HBox([note, save], layout=wrapping), status]
    panel = _panel(children, summary, lambda p: page())
    panel.case, panel.system, panel.trial, panel.claim = (case_choice, system_choice,
                                                          trial_choice, claim_choice)
    panel.reviewer, panel.decision, panel.note, panel.save = name, decision, note, save
    panel.view, panel.status = view, status
    panel.dataset = current
    panel.rows = lambda: claim_review_rows(current(), case_choice.value, system_choice.value,
                                           name.value.strip(), trial=trial_choice.value)
    panel.disagreements = lambda: disagreements(current(), case_choice.value)
    return panel
