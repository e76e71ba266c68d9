"""Chapter 6's toy system: a word-overlap retriever over HTTP, answering as `ragscore record`
expects."""
import json
import urllib.request

import ragscore
from ragscore.workbook.toy_system import overlap_ranking, reply, serving


def test_the_ranking_by_shared_words_worked_by_hand():
    notes = ragscore.load_course().corpus
    # "Who owns the alert?": owners shares the, owns, alert (3); launch, rollback and
    # checklist share "the" (1 each, kept in corpus order); archive shares nothing.
    assert overlap_ranking(notes, "Who owns the alert?") == [
        "owners", "launch", "rollback", "checklist", "archive"]


def test_the_reply_delivers_the_top_two_and_points_at_the_first():
    notes = ragscore.load_course().corpus
    assert reply(notes, "Who owns the alert?") == {
        "retrieved": ["owners", "launch", "rollback", "checklist", "archive"],
        "delivered": ["owners", "launch"], "answer": "See the note owners."}
    assert reply({}, "Anything?") == {"retrieved": [], "delivered": [],
                                      "answer": "No note matches."}


def test_it_answers_over_http_and_stops_with_its_block():
    notes = ragscore.load_course().corpus
    with serving(notes) as endpoint:
        asked = urllib.request.Request(endpoint, data=json.dumps(
            {"question": "Who owns the alert?"}).encode(), method="POST",
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(asked, timeout=10) as answer:
            assert json.loads(answer.read())["retrieved"][0] == "owners"
    try:
        urllib.request.urlopen(asked, timeout=2)
        stopped = False
    except OSError:
        stopped = True
    assert stopped
