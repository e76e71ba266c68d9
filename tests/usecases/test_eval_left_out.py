"""``ragscore eval`` says what it left out for want of qrels (issue 40, item 4): a run none
of whose questions has a qrels line is named, never silently missing; alone (or chosen) it is
an error, not an empty table; beside another run ``--trec-eval`` refuses rather than print
the other as if it were alone. The counts below are read off the three small files."""
import pytest

from ragscore.cli import capture

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n"
A_RUN = "q1 Q0 d1 1 2 a\nq9 Q0 d1 1 2 a\n"      # q1 judged, q9 not: 1 question left out
B_RUN = "q7 Q0 d1 1 2 b\nq8 Q0 d2 1 1 b\n"      # q7, q8: no qrels line at all


@pytest.fixture
def files(tmp_path):
    for name, text in (("qrels", QRELS), ("a.run", A_RUN), ("b.run", B_RUN)):
        (tmp_path / name).write_text(text)
    return tmp_path


def _eval(files, *args):
    names = [str(files / arg) if arg in ("qrels", "a.run", "b.run") else arg for arg in args]
    return capture(["eval", *names])


def test_a_run_matching_no_qrels_alone_is_an_error_not_an_empty_table(files):
    code, out, err = _eval(files, "qrels", "b.run")
    assert code == 2 and out == ""
    assert err == ("ragscore: error: no run matched a qrels line: every question of 'b' "
                   "(2 questions) has no qrels line (are the qrels for these runs' topics?): "
                   "nothing to score\n")


def test_beside_another_run_it_is_named_and_each_runs_loss_counted(files):
    code, out, err = _eval(files, "qrels", "a.run", "b.run", "--measures", "RR")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["a"]  # b has no row
    assert ("ragscore: note: run 'a': 1 of its questions has no qrels line, left out (as "
            "trec_eval leaves them out)\n") in err
    assert "ragscore: note: matched no qrels line, so not in the table: 'b' (2 questions)\n" in err


def test_trec_eval_refuses_to_print_the_other_run_as_if_alone(files):
    code, out, err = _eval(files, "qrels", "a.run", "b.run", "--trec-eval")
    assert code == 2 and out == ""
    assert "--trec-eval prints one run" in err and "'b' (2 questions) matched no qrels" in err
    code, out, err = _eval(files, "qrels", "a.run", "b.run", "--trec-eval", "--system", "a")
    assert code == 0 and out.startswith("map")
    assert "run 'a': 1 of its questions has no qrels line" in err  # said in trec's layout too


def test_choosing_the_unmatched_run_is_an_error(files):
    code, _, err = _eval(files, "qrels", "a.run", "b.run", "--system", "b")
    assert code == 2 and "--system 'b': none of its run's questions has a qrels line" in err


def test_with_c_an_unmatched_run_scores_zero_on_every_judged_question(files):
    # trec_eval -c: each judged question a run lacks counts with an empty ranking: b gets
    # q1 and q2 at 0; a gets q1 (RR 1) and q2 (0): mean 1/2
    code, out, _ = _eval(files, "qrels", "a.run", "b.run", "-c", "--measures", "RR",
                         "--format", "csv")
    assert code == 0
    assert out.splitlines()[1:] == ["a,all,RR,0.5,macro,2,0", "b,all,RR,0.0,macro,2,0"]
