"""The practice collection (fixtures/practice, format version 3): figures worked out by hand.

Every expected number below was worked out by reading ``tools/build_practice.py`` (the data)
at k = 3, with the arithmetic in the comments. The tests in the first part read the JSON Lines
files with plain ``json`` and apply the declared rules of ``v3-format`` in a few lines each,
so they pin the data; the last tests ask ragscore itself (format version 3) for the same
figures.

Rules used (v3-format, "semantics"):
- recall@3 = |relevant ∩ retrieved[:3]| / |relevant|, over answerable questions (relevant
  not empty), from ``retrieved`` (not ``delivered``);
- visible context = ``delivered`` (every run has it); a claim is supported when it is an
  expected claim, has citations, and every citation is labelled for it and delivered, and
  none is a losing passage (``conflicting``);
- disclosure: a chunk with groups that share none with ``caller_groups``, delivered or cited;
- stale support: a supported claim whose citations are all superseded chunks;
- an item (a doc, or a (system, claim)) with two different decisions is disputed.
Runs with trials (rerank on sick-note, expense-deadline, restore-approval, pay-proposals)
retrieve and deliver the same chunks in every trial, so retrieval figures and disclosures do
not depend on which trial is read; the per-system figures below use trial 1.
"""
import importlib.util
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

import ragscore
from ragscore.cli import main
from ragscore.core.metrics import REGISTRY
from ragscore.core.trials import value_of
from ragscore.engine import count_folder

ROOT = Path(__file__).resolve().parents[2]
PRACTICE = ROOT / "fixtures" / "practice"
SYSTEMS = ("baseline", "rerank", "rerank-guarded")
K = 3


def _read(name):
    with open(PRACTICE / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


CORPUS = {record["id"]: record for record in _read("corpus.jsonl")}
CASES = {record["id"]: record for record in _read("cases.jsonl")}
RUNS = _read("runs.jsonl")


def _first_runs(system):
    """``case -> run`` for one system (trial 1 where there are trials)."""
    return {run["case"]: run for run in RUNS
            if run["system"] == system and run.get("trial", 1) == 1}


def _recall(case, run):
    relevant = set(case["relevant"])
    return Fraction(len(relevant & set(run["retrieved"][:K])), len(relevant))


def _supported(case, run, claim):
    labelled = set(case["support"].get(claim["claim"], ()))
    citations = claim["citations"]
    return bool(citations) and all(doc in labelled and doc in run["delivered"]
                                   for doc in citations) \
        and not set(citations) & set(case.get("conflicting", ()))


def _disclosed(case, run):
    seen = set(run["delivered"]) | {doc for c in run["claims"] for doc in c["citations"]}
    return sorted(doc for doc in seen if CORPUS[doc].get("groups")
                  and not set(CORPUS[doc]["groups"]) & set(case["caller_groups"]))


# --------------------------------------------------------------------------------------------
# The files
# --------------------------------------------------------------------------------------------
def test_the_files_are_exactly_what_the_build_script_writes(tmp_path):
    spec = importlib.util.spec_from_file_location("build_practice",
                                                  ROOT / "tools" / "build_practice.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    assert build.main(["--out", str(tmp_path)]) == 0
    for name in ("dataset.json", "corpus.jsonl", "cases.jsonl", "runs.jsonl"):
        assert (tmp_path / name).read_bytes() == (PRACTICE / name).read_bytes(), name


def test_the_collection_has_its_slices_splits_systems_and_trials():
    index = json.loads((PRACTICE / "dataset.json").read_text(encoding="utf-8"))
    assert (index["format"], index["version"], index["ids"]) == ("ragscore-dataset", 3, "open")
    assert "files" not in index
    assert sorted(index["manifests"]) == sorted(SYSTEMS)
    assert len(CORPUS) == 54 and len(CASES) == 46
    # 46 questions x 3 systems = 138 runs, plus 2 more trials on each of 4 questions = 146
    assert len(RUNS) == 146
    tags = {}
    for case in CASES.values():
        for tag in case["tags"]:
            tags[tag] = tags.get(tag, 0) + 1
    assert tags == {"lookup": 11, "multi-evidence": 9, "near-duplicate": 6, "outdated": 8,
                    "conflicting": 5, "unanswerable": 7, "permission": 9}
    assert sum(case["split"] == "dev" for case in CASES.values()) == 18  # 18/46 = 39 %
    assert sum(not case["relevant"] for case in CASES.values()) == 7  # so 39 answerable
    trials = sorted({(run["case"], run["system"]) for run in RUNS if "trial" in run})
    assert trials == [("expense-deadline", "rerank"), ("pay-proposals", "rerank"),
                      ("restore-approval", "rerank"), ("sick-note", "rerank")]
    superseded = sorted(doc for doc, record in CORPUS.items() if record.get("superseded"))
    assert superseded == ["leave@2025#annual", "leave@2025#carry-over", "ops@2025#oncall",
                          "remote@2024#days", "remote@2024#equipment"]


# --------------------------------------------------------------------------------------------
# Recall@3 over the 39 answerable questions
# --------------------------------------------------------------------------------------------
# baseline, by question (recall@3 = hits in the top 3 / relevant):
#   0   parental-weeks, train-class, remote-days, parental-notice, card-limit-finance (5)
#   1/2 flight-and-meals, restore-retention, oncall-escalation, leave-this-year,
#       remote-setup, bike-shed (6)
#   1/3 visitor-escort (facilities#visitors only, of 3 copies)
#   3/4 lost-laptop-and-phone (3 laptop copies in the top 3, it#mfa 4th)
#   1   the other 39 - 5 - 6 - 1 - 1 = 26
#   sum = 26 + 6/2 + 1/3 + 3/4 = 26 + 49/12 = 361/12; mean = 361/(12*39) = 361/468 = 0.7714
# rerank: 0 on volunteering-days and ev-spaces (the answer slips to rank 4), 3/4 on
#   lost-laptop-and-phone (it#mfa 2nd, one laptop copy 4th), 1 on the other 36:
#   sum = 36 + 3/4 = 147/4; mean = 147/(4*39) = 147/156 = 49/52 = 0.9423
# rerank-guarded = rerank with superseded and forbidden chunks filtered out, which removes
#   a relevant superseded chunk on annual-days (leave@2025#annual) and oncall-change
#   (ops@2025#oncall): 1 -> 1/2 on each: sum = 147/4 - 1 = 143/4; mean = 143/156 = 11/12
#   = 0.9167
RECALL_AT_3 = {"baseline": Fraction(361, 468), "rerank": Fraction(49, 52),
               "rerank-guarded": Fraction(11, 12)}


def test_mean_recall_at_3_over_answerable_questions_by_hand():
    for system, expected in RECALL_AT_3.items():
        runs = _first_runs(system)
        values = [_recall(case, runs[cid]) for cid, case in CASES.items() if case["relevant"]]
        assert len(values) == 39
        assert sum(values) / len(values) == expected, system


def test_rerank_against_baseline_paired_recall_at_3():
    # improved: 0 -> 1 on 5, 1/2 -> 1 on 6, 1/3 -> 1 on visitor-escort = 12 questions;
    # worse: 1 -> 0 on volunteering-days and ev-spaces; unchanged on the other 25.
    base, rerank = _first_runs("baseline"), _first_runs("rerank")
    delta = {cid: _recall(case, rerank[cid]) - _recall(case, base[cid])
             for cid, case in CASES.items() if case["relevant"]}
    assert sorted(cid for cid, d in delta.items() if d > 0) == sorted([
        "parental-weeks", "train-class", "remote-days", "parental-notice", "card-limit-finance",
        "flight-and-meals", "restore-retention", "oncall-escalation", "leave-this-year",
        "remote-setup", "bike-shed", "visitor-escort"])
    assert sorted(cid for cid, d in delta.items() if d < 0) == ["ev-spaces",
                                                                 "volunteering-days"]
    assert sum(d == 0 for d in delta.values()) == 25
    # mean difference = 49/52 - 361/468 = 441/468 - 361/468 = 80/468 = 20/117
    assert sum(delta.values()) / 39 == Fraction(20, 117)


# --------------------------------------------------------------------------------------------
# Permissions: disclosures (delivered or cited, groups not meeting the caller's)
# --------------------------------------------------------------------------------------------
# Restricted chunks: card#limits, close#calendar [finance]; budget-2027#headcount [finance,
# leadership]; salary-bands#engineering, pay-review#timeline [hr]; incident-0814#ledgerly
# [security]. Callers are ["staff"] except pay-proposals ["staff", "hr"], card-limit-finance
# ["staff", "finance"] and ledger-lock ["finance"], whose restricted chunks are allowed.
# baseline: card-request 1 (card#limits), salary-band 2 (salary-bands, pay-review),
#   pay-letters 2 (pay-review, salary-bands), card-limit-staff 1 (card#limits),
#   outage-cause 1 (incident), headcount-2027 2 (budget-2027, close#calendar):
#   1+2+2+1+1+2 = 9 disclosures on 6 questions
# rerank: card-request 1, salary-band 1 (salary-bands, delivered and cited: counted once),
#   pay-letters 1 (pay-review), card-limit-staff 1, outage-cause 1, headcount-2027 3
#   (budget-2027, card#limits, close#calendar): 1+1+1+1+1+3 = 8 on 6 questions
# rerank-guarded filters them before ranking: 0
DISCLOSURES = {
    "baseline": {"card-request": 1, "salary-band": 2, "pay-letters": 2, "card-limit-staff": 1,
                 "outage-cause": 1, "headcount-2027": 2},
    "rerank": {"card-request": 1, "salary-band": 1, "pay-letters": 1, "card-limit-staff": 1,
               "outage-cause": 1, "headcount-2027": 3},
    "rerank-guarded": {},
}


def test_disclosures_per_question_by_hand():
    for system, expected in DISCLOSURES.items():
        runs = _first_runs(system)
        found = {cid: len(_disclosed(case, runs[cid])) for cid, case in CASES.items()}
        assert {cid: n for cid, n in found.items() if n} == expected, system
    assert sum(DISCLOSURES["baseline"].values()) == 9
    assert sum(DISCLOSURES["rerank"].values()) == 8


def test_a_fully_supported_answer_still_discloses():
    # rerank on card-request: budget-owner cites card#apply (labelled, delivered) and is its
    # only claim, so support = 1/1; card#limits [finance] was delivered (rank 2) to a staff
    # caller. baseline on pay-letters: december cites pay-faq#review, 1/1, with two HR chunks
    # delivered. Both also hold for rerank on pay-letters.
    for system, cid in (("rerank", "card-request"), ("baseline", "pay-letters"),
                        ("rerank", "pay-letters")):
        run, case = _first_runs(system)[cid], CASES[cid]
        assert run["claims"] and all(_supported(case, run, c) for c in run["claims"])
        assert _disclosed(case, run), (system, cid)


# --------------------------------------------------------------------------------------------
# Outdated versions and conflicts
# --------------------------------------------------------------------------------------------
def test_stale_support_rests_on_superseded_chunks_only():
    # baseline, annual-days: roster-two-weeks cites [leave@2025#annual]: labelled for it
    #   (the procedure did not change), delivered (rank 1), superseded -> stale support.
    # rerank, oncall-change: ops-handover cites [ops@2025#oncall]: labelled, delivered
    #   (rank 1), superseded -> stale. baseline's ops-handover there cites both editions, so
    #   it is ordinary support.
    expected = {"baseline": [("annual-days", "roster-two-weeks")],
                "rerank": [("oncall-change", "ops-handover")], "rerank-guarded": []}
    for system, pairs in expected.items():
        found = [(cid, claim["claim"]) for cid, run in _first_runs(system).items()
                 for claim in run["claims"]
                 if _supported(CASES[cid], run, claim)
                 and all(CORPUS[doc].get("superseded") for doc in claim["citations"])]
        assert found == pairs, system


def test_claims_citing_the_losing_side_of_a_conflict():
    # losing passages: travel-faq#meals (flight-and-meals), ops-wiki#backups
    # (restore-retention), it-wiki#passwords (password-expiry), onboarding#vpn (vpn-session),
    # hr-faq#parental (parental-notice).
    # baseline cites four of them; rerank cites onboarding#vpn for sign-in-again, which is
    # labelled for that claim (both VPN pages say you sign in again) and delivered (rank 1):
    # only the conflict rule makes it unsupported, so rerank's support there is 1/2.
    # rerank-guarded cites none.
    expected = {"baseline": [("flight-and-meals", "meal-limit"),
                             ("password-expiry", "every-90-days"),
                             ("vpn-session", "8-hours"), ("parental-notice", "four-weeks")],
                "rerank": [("vpn-session", "sign-in-again")], "rerank-guarded": []}
    for system, pairs in expected.items():
        found = [(cid, claim["claim"]) for cid, run in _first_runs(system).items()
                 for claim in run["claims"]
                 if set(claim["citations"]) & set(CASES[cid].get("conflicting", ()))]
        assert found == pairs, system
        for cid, claim_id in found:
            run = _first_runs(system)[cid]
            claim = next(c for c in run["claims"] if c["claim"] == claim_id)
            assert not _supported(CASES[cid], run, claim)
    run, case = _first_runs("rerank")["vpn-session"], CASES["vpn-session"]
    assert "onboarding#vpn" in case["support"]["sign-in-again"]
    assert "onboarding#vpn" in run["delivered"]
    assert [_supported(case, run, c) for c in run["claims"]] == [True, False]


def test_one_run_delivers_other_than_its_top_3():
    # rerank, visitor-registration: retrieved facilities, onboarding, reception (top 3), but
    # the context builder dropped the identical onboarding copy and delivered rank 4
    # (onboarding#first-day). escorted cites onboarding#visitors, labelled and in the top 3
    # but never delivered: unsupported, so support is 1 of 2 claims.
    differs = [(run["case"], run["system"]) for run in RUNS
               if set(run["delivered"]) != set(run["retrieved"][:K])]
    assert differs == [("visitor-registration", "rerank")]
    run, case = _first_runs("rerank")["visitor-registration"], CASES["visitor-registration"]
    assert [_supported(case, run, c) for c in run["claims"]] == [True, False]


# --------------------------------------------------------------------------------------------
# Reviews: ana and ben
# --------------------------------------------------------------------------------------------
# 27 items judged by both, on 7 questions (positive = relevant / supported):
#   flight-and-meals      ++ expenses#meals, -- travel-faq#meals, ++ expenses#travel-class,
#                         -- baseline/meal-limit
#   annual-days           ++ leave@2026#annual, +- leave@2025#annual, -- leave@2026#carry-over,
#                         +- baseline/roster-two-weeks
#   oncall-change         ++ ops@2026#oncall, ++ ops@2025#oncall, ++ rerank/ops-handover,
#                         ++ rerank/monday-10
#   parental-notice       -- hr-faq#parental, ++ leave@2026#parental, -- baseline/four-weeks
#   lost-laptop-and-phone ++ it#laptop-loss, ++ onboarding#laptop-loss,
#                         +- security-faq#laptop-loss, ++ it#mfa
#   visitor-registration  ++ facilities, reception, onboarding visitors, -+ rerank/escorted
#   salary-band           ++ pay-faq#bands, -- salary-bands#engineering,
#                         ++ rerank/ask-manager, -+ rerank/l4-band
# (ana first, ben second.) Both positive a = 2+1+4+1+3+3+2 = 16; both negative
# d = 2+1+0+2+0+0+1 = 6; ana only b = 3; ben only c = 2; n = 27; disputed = b + c = 5.
# po = (16 + 6)/27 = 22/27 = 0.8148
# ana positive 16 + 3 = 19, negative 8; ben positive 16 + 2 = 18, negative 9
# pe = (19*18 + 8*9)/27^2 = (342 + 72)/729 = 414/729 = 46/81 = 0.5679
# kappa = (po - pe)/(1 - pe) = (66/81 - 46/81)/(35/81) = 20/35 = 4/7 = 0.5714
# (With the four decisions kept apart, relevant / not relevant / supported / unsupported:
#  ana 15/4/4/4, ben 13/6/5/3, pe = (15*13 + 4*6 + 4*5 + 4*3)/729 = 251/729, kappa =
#  (594 - 251)/(729 - 251) = 343/478 = 0.7176. Documents alone: n 19, po 17/19,
#  pe (15*13 + 4*6)/361 = 219/361, kappa 104/142 = 52/71; claims alone: n 8, po 5/8,
#  pe (4*5 + 4*3)/64 = 1/2, kappa 1/4.)
def _review_pairs():
    items = {}
    for cid, case in CASES.items():
        for review in case.get("reviews", ()):
            item = (cid, review["doc"]) if "doc" in review else \
                (cid, review["system"], review["claim"])
            items.setdefault(item, {})[review["reviewer"]] = review["decision"]
    return {item: (d["ana"], d["ben"]) for item, d in items.items() if set(d) == {"ana", "ben"}}


def test_disputed_items_and_agreement_between_ana_and_ben():
    pairs = _review_pairs()
    assert len(pairs) == 27
    assert sorted(item for item, (a, b) in pairs.items() if a != b) == sorted([
        ("annual-days", "leave@2025#annual"),
        ("annual-days", "baseline", "roster-two-weeks"),
        ("lost-laptop-and-phone", "security-faq#laptop-loss"),
        ("visitor-registration", "rerank", "escorted"),
        ("salary-band", "rerank", "l4-band")])
    positive = {"relevant", "supported"}
    a = sum(x in positive and y in positive for x, y in pairs.values())
    d = sum(x not in positive and y not in positive for x, y in pairs.values())
    assert (a, d) == (16, 6)
    po = Fraction(a + d, 27)
    ana, ben = (sum(pair[i] in positive for pair in pairs.values()) for i in (0, 1))
    assert (ana, ben) == (19, 18)
    pe = Fraction(ana * ben + (27 - ana) * (27 - ben), 27 * 27)
    assert (po, pe) == (Fraction(22, 27), Fraction(46, 81))
    assert (po - pe) / (1 - pe) == Fraction(4, 7)


# --------------------------------------------------------------------------------------------
# ragscore itself, once format version 3 is on main
# --------------------------------------------------------------------------------------------
def _ragscore_values(metric, k=K):
    """``{system: {case: value}}`` of one registry metric, as ragscore reads the folder
    (a question with trials gives one value: see ``ragscore.core.trials``)."""
    counted = count_folder(PRACTICE, engine="reference")
    values = {}
    for (case, system), counts in zip(counted.keys, counted.counts):
        values.setdefault(system, {})[case] = value_of(REGISTRY[metric], counts, k)
    return values


def test_ragscore_loads_the_practice_collection():
    dataset = ragscore.load_dataset(PRACTICE)
    assert (len(dataset.corpus), len(dataset.cases)) == (54, 46)
    assert dataset.systems == SYSTEMS
    assert dataset.groups["budget-2027#headcount"] == frozenset({"finance", "leadership"})
    assert len(dataset.groups) == 6
    assert len(dataset.superseded) == 5
    assert [run["trial"] for run in dataset.runs["sick-note"]["rerank"]] == [1, 2, 3]
    assert dataset.cases["vpn-session"]["conflicting"] == ("onboarding#vpn",)


def test_ragscore_mean_recall_at_3_matches_the_hand_figures():
    recall = _ragscore_values("recall")
    for system, expected in RECALL_AT_3.items():
        defined = [value for value in recall[system].values() if value is not None]
        assert len(defined) == 39
        assert sum(defined) / 39 == pytest.approx(float(expected), abs=1e-12), system


def test_ragscore_disclosures_stale_support_and_context_match_the_hand_figures():
    disclosures = _ragscore_values("disclosures")
    for system, expected in DISCLOSURES.items():
        assert {case: n for case, n in disclosures[system].items() if n} == expected, system
    # stale_support = stale claims / claims: 1 of 2 on each (see the stale test above)
    stale = _ragscore_values("stale_support")
    assert {(s, c): v for s, by_case in stale.items() for c, v in by_case.items() if v} == {
        ("baseline", "annual-days"): 0.5, ("rerank", "oncall-change"): 0.5}
    differs = _ragscore_values("context_differs")
    assert [(s, c) for s, by_case in differs.items() for c, v in by_case.items() if v] == [
        ("rerank", "visitor-registration")]
    # rerank on vpn-session: 12-hours supported, sign-in-again cites the losing page
    support, unsupported = _ragscore_values("support"), _ragscore_values("unsupported")
    assert (support["rerank"]["vpn-session"], unsupported["rerank"]["vpn-session"]) == (0.5, 1)
    # rerank on card-request: fully supported (1/1) and one disclosure
    assert (support["rerank"]["card-request"], disclosures["rerank"]["card-request"]) == (1.0, 1)


def test_ragscore_reports_the_practice_collection():
    out = io.StringIO()
    assert main(["report", str(PRACTICE), "--k", "3"], out=out) == 0
    text = out.getvalue()
    # the declared aggregates (text report) name the totals worked out above
    assert "baseline all disclosures (total) = 9.0000: 9 disclosures in all, in 6 of 46" in text
    assert "rerank all disclosures (total) = 8.0000: 8 disclosures in all, in 6 of 46" in text
    assert "rerank-guarded all disclosures (total) = 0.0000" in text


def test_ragscore_compare_shows_the_paired_recall_effect():
    # 12 improved and 2 regressed (test_rerank_against_baseline_paired_recall_at_3); the other
    # 25 answerable questions and the 7 unanswerable ones (n/a on both sides) are unchanged
    out = io.StringIO()
    assert main(["compare", str(PRACTICE), "--baseline", "baseline", "--candidate", "rerank",
                 "--k", "3", "--metrics", "recall"], out=out) == 0
    lines = out.getvalue().splitlines()
    # the 46 questions are 18 dev and 28 held-out: the comparison warns first
    assert lines[0].startswith("WARNING: this comparison mixes splits (")
    assert "28 heldout" in lines[0] and "18 dev" in lines[0]
    assert lines[1] == (
        "rerank (candidate) against baseline (baseline) at k=3, 46 questions: 2 regressed, "
        "12 improved, 32 unchanged")
