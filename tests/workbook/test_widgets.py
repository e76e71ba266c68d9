"""Widget wiring, driven the way ipywidgets' own tests do: set .value, read the display."""
import ragscore
from ragscore.workbook.widgets import citation_editor, k_explorer, ranking_editor


def _cell(page, case, metric):
    row = page.split(f'<tr data-case="{case}">')[1].split("</tr>")[0]
    return row.split(f'data-metric="{metric}">')[1].split("<")[0]


def test_k_explorer_follows_the_slider(course):
    panel = k_explorer(course, k=2, plot=False)
    assert repr(panel) == "k explorer: k=2, system A"
    assert _cell(panel.table.value, "owner", "rr") == "0.50"
    panel.k.value = 1
    assert _cell(panel.table.value, "owner", "rr") == "0.00"
    assert _cell(panel.table.value, "launch", "precision") == "1.00"
    panel.k.value = 3
    assert _cell(panel.table.value, "launch", "precision") == "0.33"
    assert repr(panel) == "k explorer: k=3, system A"


def test_k_explorer_follows_the_system(course):
    panel = k_explorer(course, k=2, plot=False)
    panel.system.value = "B"
    assert _cell(panel.table.value, "launch", "support") == "0.50"
    assert _cell(panel.table.value, "region", "abstention_correct") == "yes"
    assert _cell(panel.table.value, "region", "support") == "n/a"


def test_k_explorer_redraws_its_plot(course):
    panel = k_explorer(course, k=2)
    first = bytes(panel.plot.value)
    assert first.startswith(b"\x89PNG")
    panel.k.value = 4
    assert bytes(panel.plot.value) != first


def test_citation_editor_rescores_an_edit(course):
    panel = citation_editor(course, case="owner", system="A")
    assert panel.claims.value == "aurora: archive"
    assert '<td data-metric="support">0.00</td>' in panel.report.value
    assert "cites archive, which is not labelled for aurora" in panel.report.value
    panel.claims.value = "aurora: owners"
    assert '<td data-metric="support">1.00</td>' in panel.report.value
    assert '<td data-metric="coverage">1.00</td>' in panel.report.value


def test_citation_editor_adds_and_drops_claims(course):
    panel = citation_editor(course, case="launch", system="A")
    panel.claims.value = "monday: launch\nbonus: launch"   # add an unlabelled claim
    assert '<td data-metric="support">0.50</td>' in panel.report.value
    assert "bonus is not an expected claim" in panel.report.value
    panel.claims.value = ""                                # drop every claim
    assert '<td class="na" data-metric="support">n/a</td>' in panel.report.value
    assert '<td data-metric="coverage">0.00</td>' in panel.report.value


def test_citation_editor_follows_k_and_choices(course):
    panel = citation_editor(course, case="rollback", system="B")
    assert '<td data-metric="coverage">1.00</td>' in panel.report.value
    panel.k.value = 1
    assert '<td data-metric="coverage">0.50</td>' in panel.report.value
    assert "cites checklist, which is not in the top 1 retrieved" in panel.report.value
    panel.case.value = "region"
    assert panel.system.value == "B" and panel.claims.value == ""
    assert '<td data-metric="abstention_correct">yes</td>' in panel.report.value
    panel.system.value = "A"
    assert panel.claims.value == "region: archive"


def test_citation_editor_shows_bad_input_as_a_message(course):
    panel = citation_editor(course, case="owner", system="B")
    panel.claims.value = "aurora owners"
    assert "Not scored: claims line 1 must look like" in panel.report.value


def test_ranking_editor(course):
    panel = ranking_editor(course, case="owner", system="A")
    assert panel.ranking.value == "archive, owners"
    assert '<td data-metric="rr">0.50</td>' in panel.report.value
    panel.ranking.value = "owners, archive"
    assert '<td data-metric="rr">1.00</td>' in panel.report.value
    panel.k.value = 1
    assert '<td data-metric="precision">1.00</td>' in panel.report.value
    panel.ranking.value = "archive"
    assert '<td data-metric="recall">0.00</td>' in panel.report.value
    panel.case.value = "rollback"
    assert panel.ranking.value == "rollback"


def test_ranking_editor_label_is_not_cut(course):
    """'from system' is wider than the default label width, which cut it to 'from syst...'."""
    panel = ranking_editor(course, case="owner", system="A")
    assert panel.system.description == "from system"
    assert panel.system.style.description_width == "initial"


def test_a_typo_in_a_ranking_is_refused_not_scored(course):
    panel = ranking_editor(course, case="owner", system="A")
    panel.ranking.value = "owners, archve"
    assert "Not scored: " in panel.report.value
    assert "must be an ID in the corpus; got &#x27;archve&#x27;" in panel.report.value


def test_widgets_do_not_change_the_dataset(course):
    import copy
    before = copy.deepcopy(course)
    panel = citation_editor(course, case="owner", system="A")
    panel.claims.value = "aurora: owners"
    editor = ranking_editor(course, case="owner")
    editor.ranking.value = "owners"
    assert course == before
    assert ragscore.load_course() == before


def test_panels_read_their_state_as_plain_values(course):
    explorer = k_explorer(course, k=2, system="B", plot=False)
    assert explorer.rows()[2] == {"case": "owner", "P@2": "0.50", "R@2": "1.00",
                                  "RR@2": "1.00", "support": "1.00", "coverage": "1.00",
                                  "abstention": "n/a"}
    editor = citation_editor(course, case="rollback", system="A")
    # the workbook: rollback A supports its one claim and covers one of two
    assert editor.scores() == {"support": "1.00", "coverage": "0.50", "abstention": "n/a"}
    assert editor.rows()[0]["supported"] == "yes"
    ranking = ranking_editor(course, case="owner", system="B")
    assert ranking.scores() == {"P@2": "0.50", "R@2": "1.00", "RR@2": "1.00"}


def test_panels_start_as_described(course):
    editor = ranking_editor(course, case="owner", system="A")
    assert repr(editor) == "ranking editor: case owner, system A's list, k=2"
    assert editor.scores()["RR@2"] == "0.50"
    editor.system.value = "B"
    assert editor.ranking.value == "owners, archive"
    editor.case.value = "region"
    assert editor.ranking.value == "" and editor.scores()["P@2"] == "n/a"


def test_snapshots_hold_the_initial_state_and_live_values_hide_them(course):
    explorer = k_explorer(course, k=2, plot=False)
    snapshot = explorer.snapshot()
    assert snapshot.startswith('<div class="ragscore-snapshot">')
    assert "k explorer: k=2, system A" in snapshot
    assert "numbers in the plot" in snapshot and "<td>0.83</td>" in snapshot
    assert ".ragscore-snapshot{display:none}" not in snapshot
    assert ".ragscore-snapshot{display:none}" in explorer.table.value
    editor = citation_editor(course, case="owner", system="A")
    assert "<pre>aurora: archive</pre>" in editor.snapshot()
    assert ".ragscore-snapshot{display:none}" in editor.report.value


def test_the_explorer_plot_is_projector_sized_and_drawn_once(course):
    import struct

    panel = k_explorer(course, k=2)
    width, height = struct.unpack(">II", bytes(panel.plot.value)[16:24])
    assert width >= 800 and panel.plot.layout.width == f"{width}px"
    first = bytes(panel.plot.value)
    panel.k.value = 3
    panel.k.value = 2
    assert bytes(panel.plot.value) == first        # the same cached image, not a redraw
    panel.system.value = "B"
    assert bytes(panel.plot.value) != first



def test_each_explorer_image_is_one_draw_of_the_figure(course, monkeypatch):
    """The explorer draws its ten images (k 1-5, systems A and B) when it is built, which
    the live page waits for: after the first, each is one draw of the figure, not a layout
    draw and then the real one (savefig lays out again a figure that keeps tight_layout's
    engine)."""
    from matplotlib.figure import Figure

    from ragscore.tables.summary import sweep
    from ragscore.workbook.widgets import SweepImages

    images = SweepImages(sweep(course, max_k=3), metric="recall")
    images.png(1, "A")                 # lays the figure out (tight_layout) and draws it
    draws = []
    real = Figure.draw
    monkeypatch.setattr(Figure, "draw", lambda self, renderer: draws.append(1) or real(
        self, renderer))
    images.png(2, "A")
    images.png(2, "B")
    assert len(draws) == 2             # one each; four before the engine was dropped
