"""Live widgets for the workbook: wiring only. The logic is in :mod:`ragscore.workbook.explore`.

Each builder returns a panel (an ``ipywidgets.VBox``) whose controls are attributes, so a
test or a notebook cell can set ``panel.k.value = 3`` and read ``panel.table.value``. Displays
are ``HTML`` widgets whose ``.value`` is rewritten, which nbval can compare, and each panel's
plain-text form is one short, deterministic line.
"""
import io

from .explore import claim_report_html, error_html, format_claims, format_ranking, parse_claims, \
    parse_ranking, question_table_html, ranking_report_html
from ..core.rules import InvalidInputError

MAX_SLIDER_K = 5


def _panel(children, summary):
    import ipywidgets as widgets

    class Panel(widgets.VBox):
        def __repr__(self):
            return summary(self)

    return Panel(children=children)


def _sweep_png(sweep_table, *, metric, k, system):
    """The metric-versus-k plot as PNG bytes, with the current k and system marked."""
    from matplotlib.figure import Figure

    from ..render.plots import plot_sweep

    figure = Figure(figsize=(4.5, 3), dpi=80)
    ax = plot_sweep(sweep_table, metric=metric, ax=figure.subplots())
    ax.axvline(k, color="grey", linestyle="--", linewidth=1)
    for line in ax.get_lines():
        if line.get_label() == f"system {system}":
            line.set_linewidth(3)
    ax.set_title(f"{metric} against k; dashed line: k = {k}", fontsize=9)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def k_explorer(dataset, *, k=2, system=None, metric="recall", plot=True):
    """A k slider (1 to 5) and a system choice; the per-question table and plot follow.

    Attributes: ``k`` (IntSlider), ``system`` (Dropdown), ``table`` (HTML), ``plot`` (Image).
    """
    import ipywidgets as widgets

    from ..tables.summary import sweep

    systems = list(dataset.systems)
    slider = widgets.IntSlider(value=k, min=1, max=MAX_SLIDER_K, description="k",
                               continuous_update=True)
    choice = widgets.Dropdown(options=systems, value=system or systems[0],
                              description="system")
    table = widgets.HTML()
    image = widgets.Image(format="png", layout=widgets.Layout(width="360px"))
    sweep_table = sweep(dataset, max_k=MAX_SLIDER_K) if plot else None

    def update(_=None):
        table.value = question_table_html(dataset, k=slider.value, system=choice.value)
        if plot:
            image.value = _sweep_png(sweep_table, metric=metric, k=slider.value,
                                     system=choice.value)

    slider.observe(update, names="value")
    choice.observe(update, names="value")
    update()
    children = [widgets.HBox([slider, choice]), table] + ([image] if plot else [])
    panel = _panel(children, lambda p: f"k explorer: k={slider.value}, system {choice.value}")
    panel.k, panel.system, panel.table, panel.plot = slider, choice, table, image
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

    cases = list(dataset.runs)
    case_choice = widgets.Dropdown(options=cases, value=case or cases[0], description="case")
    system_choice = widgets.Dropdown(options=list(dataset.runs[case_choice.value]),
                                     value=system, description="system")
    slider = widgets.IntSlider(value=k, min=1, max=MAX_SLIDER_K, description="k")
    claims_box = widgets.Textarea(description="claims", rows=4,
                                  layout=widgets.Layout(width="420px"))
    report = widgets.HTML()

    def recorded():
        return dataset.runs[case_choice.value][system_choice.value]

    def rescore(_=None):
        run = recorded()
        try:
            edited = dict(run, claims=parse_claims(claims_box.value))
        except InvalidInputError as error:
            report.value = error_html(error)
            return
        report.value = claim_report_html(dataset.corpus, dataset.cases[case_choice.value],
                                         edited, k=slider.value)

    def load(_=None):
        claims_box.value = format_claims(recorded()["claims"])  # triggers rescore
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
                             f"system {system_choice.value}, k={slider.value}")
    panel.case, panel.system, panel.k = case_choice, system_choice, slider
    panel.claims, panel.report = claims_box, report
    return panel


def ranking_editor(dataset, *, case=None, system=None, k=2):
    """Reorder or edit a retrieved list (IDs separated by commas); P@k, R@k, RR@k follow.

    Attributes: ``case`` (Dropdown), ``ranking`` (Text), ``k`` (IntSlider), ``report`` (HTML).
    """
    import ipywidgets as widgets

    cases = list(dataset.runs)
    case_choice = widgets.Dropdown(options=cases, value=case or cases[0], description="case")
    slider = widgets.IntSlider(value=k, min=1, max=MAX_SLIDER_K, description="k")
    ranking = widgets.Text(description="ranking", layout=widgets.Layout(width="420px"))
    report = widgets.HTML()

    def rescore(_=None):
        report.value = ranking_report_html(dataset.corpus, dataset.cases[case_choice.value],
                                           parse_ranking(ranking.value), k=slider.value)

    def load(_=None):
        systems = dataset.runs[case_choice.value]
        chosen = system if system in systems else next(iter(systems))
        ranking.value = format_ranking(systems[chosen]["retrieved"])
        rescore()

    case_choice.observe(load, names="value")
    slider.observe(rescore, names="value")
    ranking.observe(rescore, names="value")
    load()
    panel = _panel([widgets.HBox([case_choice, slider]), ranking, report],
                   lambda p: f"ranking editor: case {case_choice.value}, k={slider.value}")
    panel.case, panel.ranking, panel.k, panel.report = case_choice, ranking, slider, report
    return panel
