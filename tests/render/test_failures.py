"""report --failures: the failing questions of the course data with their text (diagnoses
worked by hand in tests/core/test_diagnosis.py)."""
import json

from ragscore.cli import capture


def test_course_failures_text():
    code, out, err = capture(["report", "fixtures/course", "--failures"])
    assert code == 0 and err == ""
    lines = out.splitlines()
    # launch B (1 of 2 claims supported), owner A (cites archive), region A (answers an
    # unanswerable question): 3 pairs, in the dataset's order
    assert lines[0] == ("3 failing (question, system) pairs at k=2: 2 delivered but the "
                        "answer's claims unsupported; 1 answered when it should abstain")
    headers = [line for line in lines if ": " in line and "  " in line.split(":")[0]]
    assert headers == ["launch  B: delivered but the answer's claims unsupported",
                       "owner  A: delivered but the answer's claims unsupported",
                       "region  A: answered when it should abstain"]
    owner = lines.index("owner  A: delivered but the answer's claims unsupported")
    row = lines[owner + 3]  # question | claims [citations] | relevant IDs, side by side
    assert row.split() == ["Who", "owns", "the", "alert?", "aurora", "[archive]", "owners"]


def test_course_failures_at_k1_and_json():
    code, out, _ = capture(["report", "fixtures/course", "--failures", "--k", "1",
                            "--format", "json"])
    assert code == 0
    found = {(row["case"], row["system"]): row["diagnosis"]
             for row in json.loads(out)["failures"]}
    # at k=1: owner A's relevant ID sits at rank 2 (not delivered); rollback B's second
    # claim cites checklist at rank 2 (unsupported); launch B and region A as at k=2
    assert found == {("launch", "B"): "unsupported", ("rollback", "B"): "unsupported",
                     ("owner", "A"): "not_delivered", ("region", "A"): "should_abstain"}


def test_failures_refuse_a_table_format():
    code, _, err = capture(["report", "fixtures/course", "--failures", "--format", "csv"])
    assert code == 2 and "--failures prints text or json" in err


def test_the_text_report_counts_each_diagnosis():
    code, out, _ = capture(["report", "fixtures/course"])
    assert code == 0
    tail = out.splitlines()[-3:]
    # A: owner unsupported, region should abstain, launch and rollback ok;
    # B: launch unsupported, the other three ok (by hand in tests/core/test_diagnosis.py)
    assert tail[0].startswith("Diagnosis per question at k=2: the first stage that failed")
    assert tail[1:] == ["- A: 1 delivered but the answer's claims unsupported, 1 answered when "
                        "it should abstain, 2 no stage failed",
                        "- B: 1 delivered but the answer's claims unsupported, 3 no stage failed"]
