"""Write ``fixtures/practice/``: a fictional practical test collection (issue 11).

Fernhollow is an invented instrument maker; everything below (its handbook, its people, its
systems "baseline", "rerank" and "rerank-guarded") is made up to exercise the slices the
workbook's chapter 6 asks for: lookups, several pieces of evidence, near-duplicate notes,
outdated versions, conflicting passages, unanswerable questions and permission-sensitive
cases. Nothing here measures a real retriever or model.

    python tools/build_practice.py            # (re)write the four files
    python tools/build_practice.py --check    # only self-check the data, write nothing

Format version 3 (``/work/shared/v3-format.md``): chunks carry ``source``, ``version``,
optional ``groups`` and ``superseded``; cases carry ``tags``, ``split``, ``caller_groups``,
``conflicting`` and ``reviews``; runs carry ``delivered``, ``answer``, costs and ``trial``.
The output is deterministic: same data, same bytes.
"""
import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "fixtures" / "practice"
K = 3  # the context cutoff every system delivers (manifest "context_cutoff")
TAGS = ("lookup", "multi-evidence", "near-duplicate", "outdated", "conflicting",
        "unanswerable", "permission")
SYSTEMS = ("baseline", "rerank", "rerank-guarded")

# --------------------------------------------------------------------------------------------
# The corpus: (id, source, version, text, groups, superseded)
# --------------------------------------------------------------------------------------------
HR, FIN, LEAD, SEC = "hr", "finance", "leadership", "security"
CORPUS = [
    # Leave policy: the 2025 edition is replaced by the 2026 edition.
    ("leave@2025#annual", "leave-policy", "2025-01",
     "Full-time staff at Fernhollow receive 22 days of annual leave per calendar year. Leave "
     "requests go to your line manager in the Roster tool at least two weeks before the first "
     "day off.", [], True),
    ("leave@2026#annual", "leave-policy", "2026-06",
     "Full-time staff at Fernhollow receive 25 days of annual leave per calendar year. Leave "
     "requests go to your line manager in the Roster tool at least two weeks before the first "
     "day off.", [], False),
    ("leave@2025#carry-over", "leave-policy", "2025-01",
     "Up to 5 unused leave days may be carried over into the next year; carried days expire "
     "on 31 March.", [], True),
    ("leave@2026#carry-over", "leave-policy", "2026-06",
     "Up to 8 unused leave days may be carried over into the next year; carried days expire "
     "on 30 June.", [], False),
    ("leave@2026#parental", "leave-policy", "2026-06",
     "Every parent receives 20 weeks of parental leave at full pay, whatever their length of "
     "service. Tell HR at least eight weeks before the leave starts.", [], False),
    ("leave@2026#sick", "leave-policy", "2026-06",
     "Sick leave of up to three consecutive days needs no certificate. From the fourth day, "
     "upload a doctor's note to the HR portal.", [], False),
    ("leave@2026#volunteering", "leave-policy", "2026-06",
     "Each employee may take two paid volunteering days per year, booked in Roster under "
     "'volunteering'.", [], False),
    ("hr-faq#parental", "hr-faq", "2024-08",
     "Parental leave: let HR know at least four weeks before your leave begins.", [], False),
    # Remote work: the 2024 policy is replaced by the 2026 policy.
    ("remote@2024#days", "remote-work-policy", "2024-09",
     "Staff may work remotely up to two days per week, agreed with their team lead. Mondays "
     "are office days for every team.", [], True),
    ("remote@2026#days", "remote-work-policy", "2026-02",
     "Staff may work remotely up to three days per week, agreed with their team lead. "
     "Tuesdays are office days for every team.", [], False),
    ("remote@2026#abroad", "remote-work-policy", "2026-02",
     "Working from another country is allowed for up to 20 working days per year. It needs "
     "written approval from HR and from the Security desk before you travel.", [], False),
    ("remote@2026#equipment", "remote-work-policy", "2026-02",
     "Remote workers may order one monitor and one office chair from the IT catalogue. The "
     "equipment remains Fernhollow property and is returned when you leave.", [], False),
    ("remote@2024#equipment", "remote-work-policy", "2024-09",
     "Remote workers may claim up to 300 euros per year for home-office furniture against "
     "receipts.", [], True),
    # Expenses and travel: the travel FAQ is older than the expense policy and contradicts it.
    ("expenses#meals", "expense-policy", "2026-01",
     "Meals on business travel are reimbursed up to 45 euros per day, with itemised "
     "receipts.", [], False),
    ("expenses#travel-class", "expense-policy", "2026-01",
     "Book train travel in second class. Flights shorter than four hours are booked in "
     "economy; longer flights may be booked in premium economy.", [], False),
    ("expenses#deadline", "expense-policy", "2026-01",
     "Submit expense claims in Ledgerly within 30 days of the expense. Later claims need "
     "sign-off from the budget owner.", [], False),
    ("expenses#mileage", "expense-policy", "2026-01",
     "Private car use on business trips is reimbursed at 0.30 euros per kilometre.", [], False),
    ("travel-faq#meals", "travel-faq", "2023-11",
     "The daily meal allowance when travelling is 40 euros; no receipts are needed below that "
     "amount.", [], False),
    ("travel-faq#booking", "travel-faq", "2023-11",
     "Flights and hotels are booked through the travel desk at travel@fernhollow.example.",
     [], False),
    # Finance: restricted pages beside a public how-to.
    ("card#limits", "corporate-card-rules", "2026-03",
     "Corporate card limits: 2,000 euros per month for standard cards and 6,000 euros per "
     "month for senior cards. Limit changes are approved by the finance controller.",
     [FIN], False),
    ("card#apply", "corporate-card-guide", "2026-03",
     "To get a corporate card, ask your budget owner to raise a request in Ledgerly; the "
     "finance team sets the limit.", [], False),
    ("close#calendar", "finance-close-calendar", "2026-01",
     "Month-end close: accruals are posted by working day 3 and the ledger locks on working "
     "day 5.", [FIN], False),
    ("budget-2027#headcount", "budget-2027", "2026-10",
     "The 2027 plan funds 14 new roles, 9 of them in Operations.", [FIN, LEAD], False),
    # Pay: restricted HR tables beside a public FAQ.
    ("salary-bands#engineering", "salary-bands", "2026-01",
     "Engineering salary bands for 2026: L3 52,000 to 61,000 euros; L4 60,000 to 74,000 "
     "euros; L5 72,000 to 90,000 euros.", [HR], False),
    ("pay-review#timeline", "pay-review-2026", "2026-09",
     "Pay review 2026: managers submit proposals by 15 October, HR calibrates them by "
     "6 November and letters are sent on 1 December.", [HR], False),
    ("pay-faq#bands", "pay-faq", "2026-02",
     "Your manager shares the salary band for your own level with you. The full band table "
     "is kept by HR and is not published.", [], False),
    ("pay-faq#review", "pay-faq", "2026-02",
     "Pay review letters are sent in December each year.", [], False),
    # An incident: the review is restricted, the status note is public.
    ("incident-0814#ledgerly", "incident-review-0814", "2026-08",
     "Incident review: the 14 August Ledgerly outage was caused by an expired TLS certificate "
     "on the export gateway; exports were down for 3 hours 40 minutes.", [SEC], False),
    ("status#ledgerly", "status-page", "2026-08",
     "14 August: Ledgerly exports were unavailable for part of the afternoon. Service has "
     "been restored.", [], False),
    # IT handbook, security standard, and the older wiki that contradicts them.
    ("it#vpn", "it-handbook", "2026-03",
     "Connect to the office network from outside with the Gatekey VPN client. A VPN session "
     "ends after 12 hours and you must sign in again.", [], False),
    ("it#laptop-loss", "it-handbook", "2026-03",
     "Report a lost or stolen laptop to the Service Desk on extension 4400 within one hour. "
     "The laptop will be wiped remotely.", [], False),
    ("it#mfa", "it-handbook", "2026-03",
     "Multi-factor sign-in uses the Keyfob app. If you lose your phone, the Service Desk "
     "resets Keyfob after an identity check by video call.", [], False),
    ("it#software", "it-handbook", "2026-03",
     "Install software only from the Fernhollow app portal. Anything else needs a request to "
     "the Service Desk with a business reason.", [], False),
    ("it#printing", "it-handbook", "2026-03",
     "Print jobs are held until you badge in at a printer; unreleased jobs are deleted after "
     "24 hours.", [], False),
    ("it-faq#printing", "it-faq", "2026-03",
     "Print jobs are held until you badge in at a printer; unreleased jobs are deleted after "
     "24 hours.", [], False),
    ("security#passwords", "security-standard", "2026-01",
     "Passwords must be at least 14 characters long. Change a password only when you suspect "
     "it has been exposed; there is no scheduled expiry.", [], False),
    ("it-wiki#passwords", "it-wiki", "2022-05",
     "Passwords expire every 90 days and must be at least 10 characters long.", [], False),
    # The onboarding pack copies several handbook sections (near-duplicates).
    ("onboarding#laptop-loss", "onboarding-pack", "2026-04",
     "Report a lost or stolen laptop to the Service Desk on extension 4400 within one hour. "
     "The laptop will be wiped remotely.", [], False),
    ("onboarding#visitors", "onboarding-pack", "2026-04",
     "Hosts register visitors in Frontdesk before 17:00 on the working day before the visit. "
     "Visitors sign in at reception and are escorted at all times.", [], False),
    ("onboarding#first-day", "onboarding-pack", "2026-04",
     "On your first day, collect your badge and laptop at reception from 09:00; your buddy "
     "meets you there.", [], False),
    ("onboarding#vpn", "onboarding-pack", "2026-04",
     "VPN sessions last 8 hours; after that you sign in again.", [], False),
    ("onboarding#bikes", "onboarding-pack", "2026-04",
     "A covered bike shed behind building B opens with your access badge.", [], False),
    ("security-faq#laptop-loss", "security-faq", "2025-10",
     "Report a lost or stolen laptop to the Service Desk (extension 4400) within one hour; it "
     "will be wiped remotely.", [], False),
    # Facilities guide and a reception notice that repeats it.
    ("facilities#visitors", "facilities-guide", "2026-05",
     "Hosts register visitors in Frontdesk before 17:00 on the working day before the visit. "
     "Visitors sign in at reception and are escorted at all times.", [], False),
    ("facilities#badge", "facilities-guide", "2026-05",
     "A lost access badge is replaced at reception for a fee of 10 euros. The old badge is "
     "blocked as soon as you report it.", [], False),
    ("facilities#parking", "facilities-guide", "2026-05",
     "The car park has 40 spaces, assigned daily in Frontdesk from 07:00; 6 spaces with "
     "chargers are kept for electric cars.", [], False),
    ("facilities#bikes", "facilities-guide", "2026-05",
     "A covered bike shed behind building B opens with your access badge.", [], False),
    ("reception#visitors", "reception-notice", "2026-05",
     "Hosts must register visitors in Frontdesk before 17:00 on the working day before the "
     "visit. Visitors sign in at reception and are escorted at all times.", [], False),
    # Operations runbook (2025 edition replaced) and an older wiki page that contradicts it.
    ("ops@2025#oncall", "ops-runbook", "2025-03",
     "The on-call rota changes every Friday at 16:00. The outgoing engineer posts a handover "
     "note in the #ops-handover channel.", [], True),
    ("ops@2026#oncall", "ops-runbook", "2026-07",
     "The on-call rota changes every Monday at 10:00. The outgoing engineer posts a handover "
     "note in the #ops-handover channel.", [], False),
    ("ops@2026#escalation", "ops-runbook", "2026-07",
     "If the primary on-call does not acknowledge a page within 15 minutes, it goes to the "
     "secondary; after 30 minutes, to the duty manager.", [], False),
    ("ops@2026#backups", "ops-runbook", "2026-07",
     "The warehouse database is backed up every night at 02:00 and backups are kept for "
     "35 days.", [], False),
    ("ops@2026#restore", "ops-runbook", "2026-07",
     "Restores are requested through the Service Desk and need approval from the data owner.",
     [], False),
    ("ops-wiki#backups", "ops-wiki", "2024-02",
     "Backups of the warehouse database are kept for 30 days.", [], False),
]

# --------------------------------------------------------------------------------------------
# The cases. Each run is written as two strings:
#   retrieved: the ranked chunk IDs, space-separated (5 deep);
#   claims:    "claim=id+id; claim=id" ("" is an abstention).
# "say" gives the sentence of every claim any system makes, to build the answer text.
# "rerank-guarded" defaults to the rerank run when it is not written out.
# --------------------------------------------------------------------------------------------
STAFF = ["staff"]


def case(cid, tags, split, question, relevant, support, say, runs, *, caller=STAFF,
         conflicting=(), reviews=()):
    return {"id": cid, "tags": tags, "split": split, "question": question,
            "relevant": relevant, "support": support, "say": say, "runs": runs,
            "caller": caller, "conflicting": list(conflicting), "reviews": list(reviews)}


def rv(reviewer, item, decision, note):
    """A review of a document ("doc-id") or of a claim ("system/claim")."""
    if "/" in item and item.split("/")[0] in SYSTEMS:
        system, claim = item.split("/", 1)
        return {"reviewer": reviewer, "system": system, "claim": claim, "decision": decision,
                "note": note}
    return {"reviewer": reviewer, "doc": item, "decision": decision, "note": note}


CASES = [
    # ---------------------------------------------------------------- lookups
    case("parental-weeks", ["lookup"], "heldout",
         "How many weeks of parental leave does a parent get?",
         ["leave@2026#parental"], {"20-weeks": ["leave@2026#parental"]},
         {"20-weeks": "Each parent gets 20 weeks of parental leave at full pay."},
         {"baseline": ("hr-faq#parental leave@2026#sick leave@2026#annual leave@2026#parental "
                       "leave@2026#volunteering", "20-weeks=hr-faq#parental"),
          "rerank": ("leave@2026#parental hr-faq#parental leave@2026#sick leave@2026#annual "
                     "leave@2026#volunteering", "20-weeks=leave@2026#parental")}),
    case("sick-note", ["lookup"], "dev",
         "From which day of sick leave do I need a doctor's note?",
         ["leave@2026#sick"], {"day-four": ["leave@2026#sick"]},
         {"day-four": "A doctor's note is needed from the fourth day of sick leave.",
          "no-note-3": "The first three days need no certificate.",
          "day-three": "A doctor's note is needed from the third day."},
         {"baseline": ("leave@2026#sick leave@2026#annual leave@2026#parental "
                       "leave@2026#volunteering hr-faq#parental", "day-four=leave@2026#sick"),
          "rerank": [("leave@2026#sick leave@2026#parental leave@2026#annual "
                      "leave@2026#volunteering hr-faq#parental", "day-four=leave@2026#sick"),
                     ("leave@2026#sick leave@2026#parental leave@2026#annual "
                      "leave@2026#volunteering hr-faq#parental",
                      "day-four=leave@2026#sick; no-note-3=leave@2026#sick"),
                     ("leave@2026#sick leave@2026#parental leave@2026#annual "
                      "leave@2026#volunteering hr-faq#parental", "day-three=leave@2026#sick")]}),
    case("volunteering-days", ["lookup"], "heldout",
         "How many paid volunteering days can I take each year?",
         ["leave@2026#volunteering"], {"two-days": ["leave@2026#volunteering"]},
         {"two-days": "You may take two paid volunteering days a year."},
         {"baseline": ("leave@2026#annual leave@2025#annual leave@2026#volunteering "
                       "leave@2026#sick leave@2026#carry-over",
                       "two-days=leave@2026#volunteering"),
          "rerank": ("leave@2026#annual leave@2026#sick leave@2026#carry-over "
                     "leave@2026#volunteering leave@2025#annual", ""),
          "rerank-guarded": ("leave@2026#annual leave@2026#sick leave@2026#carry-over "
                             "leave@2026#volunteering leave@2026#parental", "")}),
    case("train-class", ["lookup"], "dev",
         "Which class should I book for train travel?",
         ["expenses#travel-class"], {"second-class": ["expenses#travel-class"]},
         {"second-class": "Train travel is booked in second class."},
         {"baseline": ("travel-faq#booking expenses#mileage expenses#meals "
                       "expenses#travel-class travel-faq#meals", ""),
          "rerank": ("expenses#travel-class travel-faq#booking expenses#mileage expenses#meals "
                     "travel-faq#meals", "second-class=expenses#travel-class")}),
    case("expense-deadline", ["lookup"], "heldout",
         "How long do I have to submit an expense claim?",
         ["expenses#deadline"], {"30-days": ["expenses#deadline"]},
         {"30-days": "Expense claims are due in Ledgerly within 30 days.",
          "late-signoff": "A later claim needs the budget owner's sign-off.",
          "60-days": "Expense claims are due within 60 days."},
         {"baseline": ("expenses#deadline expenses#meals expenses#mileage card#apply "
                       "expenses#travel-class", "30-days=expenses#deadline"),
          "rerank": [("expenses#deadline card#apply expenses#mileage expenses#meals "
                      "expenses#travel-class", "30-days=expenses#deadline"),
                     ("expenses#deadline card#apply expenses#mileage expenses#meals "
                      "expenses#travel-class",
                      "30-days=expenses#deadline; late-signoff=expenses#deadline"),
                     ("expenses#deadline card#apply expenses#mileage expenses#meals "
                      "expenses#travel-class", "60-days=card#apply")]}),
    case("mileage-rate", ["lookup"], "heldout",
         "What rate is paid for using my own car on a business trip?",
         ["expenses#mileage"], {"30-cents": ["expenses#mileage"]},
         {"30-cents": "Private car use is reimbursed at 0.30 euros per kilometre."},
         {"baseline": ("expenses#travel-class expenses#meals expenses#mileage "
                       "travel-faq#booking expenses#deadline", "30-cents=expenses#mileage"),
          "rerank": ("expenses#mileage expenses#travel-class expenses#deadline expenses#meals "
                     "travel-faq#booking", "30-cents=expenses#mileage")}),
    case("print-jobs", ["lookup", "near-duplicate"], "heldout",
         "How long are unreleased print jobs kept?",
         ["it#printing", "it-faq#printing"], {"24-hours": ["it#printing", "it-faq#printing"]},
         {"24-hours": "Unreleased print jobs are deleted after 24 hours."},
         {"baseline": ("it-faq#printing it#printing facilities#badge it#software "
                       "facilities#bikes", "24-hours=it-faq#printing"),
          "rerank": ("it#printing it-faq#printing facilities#badge it#software it#vpn",
                     "24-hours=it#printing")}),
    case("badge-fee", ["lookup"], "heldout",
         "What does it cost to replace a lost access badge?",
         ["facilities#badge"], {"10-euros": ["facilities#badge"]},
         {"10-euros": "A replacement badge costs 10 euros at reception."},
         {"baseline": ("onboarding#first-day facilities#bikes facilities#badge "
                       "facilities#parking facilities#visitors", "10-euros=facilities#badge"),
          "rerank": ("facilities#badge onboarding#first-day facilities#bikes "
                     "facilities#parking facilities#visitors", "10-euros=facilities#badge")}),
    case("ev-spaces", ["lookup"], "heldout",
         "How many car park spaces have chargers for electric cars?",
         ["facilities#parking"], {"6-spaces": ["facilities#parking"]},
         {"6-spaces": "Six spaces with chargers are kept for electric cars."},
         {"baseline": ("facilities#parking facilities#bikes facilities#badge "
                       "facilities#visitors onboarding#first-day", "6-spaces=facilities#parking"),
          # rerank pushes the parking page to rank 4 and still cites it: not visible at k=3.
          "rerank": ("facilities#bikes facilities#badge facilities#visitors facilities#parking "
                     "onboarding#first-day", "6-spaces=facilities#parking")}),
    case("card-request", ["lookup", "permission"], "dev",
         "How do I request a corporate card?",
         ["card#apply"], {"budget-owner": ["card#apply"]},
         {"budget-owner": "Ask your budget owner to raise a card request in Ledgerly.",
          "limit-2000": "A standard card has a limit of 2,000 euros a month."},
         {"baseline": ("card#limits card#apply expenses#deadline expenses#meals "
                       "expenses#mileage",
                       "budget-owner=card#apply; limit-2000=card#limits"),
          # fully supported, and still the finance-only limits page was delivered: a disclosure
          "rerank": ("card#apply card#limits expenses#deadline expenses#meals expenses#mileage",
                     "budget-owner=card#apply"),
          "rerank-guarded": ("card#apply expenses#deadline expenses#meals expenses#mileage "
                             "expenses#travel-class", "budget-owner=card#apply")}),
    case("restore-approval", ["lookup"], "heldout",
         "Who has to approve a restore from backup?",
         ["ops@2026#restore"], {"data-owner": ["ops@2026#restore"]},
         {"data-owner": "A restore needs approval from the data owner.",
          "via-service-desk": "Restores are requested through the Service Desk.",
          "duty-manager": "The duty manager approves restores."},
         {"baseline": ("ops@2026#backups ops-wiki#backups ops@2026#restore "
                       "ops@2026#escalation ops@2026#oncall", "data-owner=ops@2026#restore"),
          "rerank": [("ops@2026#restore ops@2026#backups ops-wiki#backups ops@2026#escalation "
                      "ops@2026#oncall", "data-owner=ops@2026#restore; "
                      "via-service-desk=ops@2026#restore"),
                     ("ops@2026#restore ops@2026#backups ops-wiki#backups ops@2026#escalation "
                      "ops@2026#oncall", "duty-manager=ops@2026#escalation"),
                     ("ops@2026#restore ops@2026#backups ops-wiki#backups ops@2026#escalation "
                      "ops@2026#oncall", "data-owner=ops@2026#restore")]}),
    # ---------------------------------------------------------------- several pieces of evidence
    case("flight-and-meals", ["multi-evidence", "conflicting"], "heldout",
         "For a five-hour flight to a customer, which class may I book and what is the daily "
         "meal limit?",
         ["expenses#travel-class", "expenses#meals"],
         {"premium-economy": ["expenses#travel-class"], "meal-limit": ["expenses#meals"]},
         {"premium-economy": "A flight over four hours may be booked in premium economy.",
          "meal-limit": "Meals are reimbursed up to 45 euros per day."},
         {"baseline": ("travel-faq#meals expenses#travel-class travel-faq#booking "
                       "expenses#meals expenses#deadline",
                       "premium-economy=expenses#travel-class; meal-limit=travel-faq#meals"),
          "rerank": ("expenses#meals expenses#travel-class travel-faq#meals travel-faq#booking "
                     "expenses#deadline", "premium-economy=expenses#travel-class; "
                     "meal-limit=expenses#meals")},
         conflicting=["travel-faq#meals"],
         reviews=[rv("ana", "expenses#meals", "relevant", "current expense policy"),
                  rv("ben", "expenses#meals", "relevant", ""),
                  rv("ana", "travel-faq#meals", "not relevant", "older FAQ, overruled"),
                  rv("ben", "travel-faq#meals", "not relevant", "conflicts with the policy"),
                  rv("ana", "expenses#travel-class", "relevant", ""),
                  rv("ben", "expenses#travel-class", "relevant", ""),
                  rv("ana", "baseline/meal-limit", "unsupported", "cites the FAQ's 40 euros"),
                  rv("ben", "baseline/meal-limit", "unsupported", "")]),
    case("restore-retention", ["multi-evidence", "conflicting"], "dev",
         "How long are warehouse backups kept, and who approves a restore?",
         ["ops@2026#backups", "ops@2026#restore"],
         {"35-days": ["ops@2026#backups"], "data-owner": ["ops@2026#restore"]},
         {"35-days": "Warehouse backups are kept for 35 days.",
          "data-owner": "A restore needs approval from the data owner."},
         {"baseline": ("ops-wiki#backups ops@2026#backups ops@2026#oncall ops@2026#restore "
                       "ops@2026#escalation", "35-days=ops@2026#backups"),
          "rerank": ("ops@2026#backups ops@2026#restore ops-wiki#backups ops@2026#oncall "
                     "ops@2026#escalation", "35-days=ops@2026#backups; "
                     "data-owner=ops@2026#restore")},
         conflicting=["ops-wiki#backups"]),
    case("oncall-escalation", ["multi-evidence"], "heldout",
         "When does an unacknowledged page reach the duty manager, and where is the on-call "
         "handover posted?",
         ["ops@2026#escalation", "ops@2026#oncall"],
         {"30-minutes": ["ops@2026#escalation"], "ops-handover": ["ops@2026#oncall"]},
         {"30-minutes": "After 30 minutes an unacknowledged page goes to the duty manager.",
          "ops-handover": "The handover note is posted in #ops-handover."},
         {"baseline": ("ops@2026#escalation ops@2025#oncall ops@2026#restore ops@2026#oncall "
                       "ops@2026#backups",
                       "30-minutes=ops@2026#escalation; ops-handover=ops@2025#oncall"),
          "rerank": ("ops@2026#escalation ops@2026#oncall ops@2025#oncall ops@2026#restore "
                     "ops@2026#backups", "30-minutes=ops@2026#escalation; "
                     "ops-handover=ops@2026#oncall"),
          "rerank-guarded": ("ops@2026#escalation ops@2026#oncall ops@2026#restore "
                             "ops@2026#backups ops-wiki#backups", "30-minutes=ops@2026#escalation; "
                             "ops-handover=ops@2026#oncall")}),
    case("lost-phone-and-badge", ["multi-evidence"], "heldout",
         "I lost my phone and my access badge. Who resets Keyfob, and what does a new badge "
         "cost?",
         ["it#mfa", "facilities#badge"],
         {"video-check": ["it#mfa"], "10-euros": ["facilities#badge"]},
         {"video-check": "The Service Desk resets Keyfob after an identity check by video call.",
          "10-euros": "A replacement badge costs 10 euros."},
         {"baseline": ("it#mfa it#laptop-loss facilities#badge security-faq#laptop-loss "
                       "onboarding#first-day", "video-check=it#mfa; 10-euros=facilities#badge"),
          "rerank": ("it#mfa facilities#badge it#laptop-loss security-faq#laptop-loss "
                     "onboarding#first-day", "video-check=it#mfa; 10-euros=facilities#badge")}),
    case("expense-late-mileage", ["multi-evidence"], "heldout",
         "I drove 120 km to a supplier six weeks ago. What rate applies, and what does a late "
         "claim need?",
         ["expenses#mileage", "expenses#deadline"],
         {"30-cents": ["expenses#mileage"], "budget-owner-signoff": ["expenses#deadline"]},
         {"30-cents": "The rate is 0.30 euros per kilometre, so 36 euros for 120 km.",
          "budget-owner-signoff": "A claim after 30 days needs the budget owner's sign-off."},
         {"baseline": ("expenses#mileage expenses#deadline expenses#meals expenses#travel-class "
                       "card#apply", "30-cents=expenses#mileage; "
                       "budget-owner-signoff=expenses#deadline"),
          "rerank": ("expenses#deadline expenses#mileage expenses#travel-class expenses#meals "
                     "card#apply", "30-cents=expenses#mileage; "
                     "budget-owner-signoff=expenses#deadline")}),
    case("first-day-kit", ["multi-evidence"], "heldout",
         "On my first day, where do I collect my laptop, and which app do I need to sign in?",
         ["onboarding#first-day", "it#mfa"],
         {"reception-0900": ["onboarding#first-day"], "keyfob": ["it#mfa"]},
         {"reception-0900": "Collect your badge and laptop at reception from 09:00.",
          "keyfob": "Sign-in uses the Keyfob app."},
         {"baseline": ("onboarding#first-day onboarding#visitors it#mfa onboarding#laptop-loss "
                       "facilities#badge", "reception-0900=onboarding#first-day; keyfob=it#mfa"),
          "rerank": ("onboarding#first-day it#mfa onboarding#visitors onboarding#laptop-loss "
                     "facilities#badge", "reception-0900=onboarding#first-day; keyfob=it#mfa")}),
    case("leave-this-year", ["multi-evidence", "outdated"], "heldout",
         "How many annual leave days do I get this year, and how many unused days can I carry "
         "over?",
         ["leave@2026#annual", "leave@2026#carry-over"],
         {"25-days": ["leave@2026#annual"], "8-days": ["leave@2026#carry-over"]},
         {"25-days": "Full-time staff get 25 days of annual leave.",
          "8-days": "Up to 8 unused days can be carried over.",
          "5-days": "Up to 5 unused days can be carried over."},
         {"baseline": ("leave@2025#annual leave@2025#carry-over leave@2026#annual "
                       "leave@2026#carry-over leave@2026#sick",
                       "25-days=leave@2026#annual; 5-days=leave@2025#carry-over"),
          "rerank": ("leave@2026#annual leave@2026#carry-over leave@2025#annual "
                     "leave@2025#carry-over leave@2026#sick",
                     "25-days=leave@2026#annual; 8-days=leave@2026#carry-over"),
          "rerank-guarded": ("leave@2026#annual leave@2026#carry-over leave@2026#sick "
                             "leave@2026#parental leave@2026#volunteering",
                             "25-days=leave@2026#annual; 8-days=leave@2026#carry-over")}),
    case("remote-setup", ["multi-evidence", "outdated"], "dev",
         "What can I get for my home office, and how many days a week may I work from home?",
         ["remote@2026#equipment", "remote@2026#days"],
         {"monitor-chair": ["remote@2026#equipment"], "three-days": ["remote@2026#days"]},
         {"monitor-chair": "You may order one monitor and one office chair from the IT "
                           "catalogue.",
          "three-days": "You may work from home up to three days a week.",
          "two-days": "You may work from home up to two days a week."},
         {"baseline": ("remote@2024#equipment remote@2024#days remote@2026#equipment "
                       "remote@2026#days remote@2026#abroad",
                       "monitor-chair=remote@2026#equipment; two-days=remote@2024#days"),
          "rerank": ("remote@2026#equipment remote@2026#days remote@2024#equipment "
                     "remote@2024#days remote@2026#abroad",
                     "monitor-chair=remote@2026#equipment; three-days=remote@2026#days"),
          "rerank-guarded": ("remote@2026#equipment remote@2026#days remote@2026#abroad "
                             "it#software facilities#badge",
                             "monitor-chair=remote@2026#equipment; three-days=remote@2026#days")}),
    # ---------------------------------------------------------------- outdated versions
    case("annual-days", ["outdated"], "dev",
         "How many days of annual leave does a full-time employee get, and how are they "
         "requested?",
         ["leave@2026#annual", "leave@2025#annual"],
         {"25-days": ["leave@2026#annual"],
          "roster-two-weeks": ["leave@2026#annual", "leave@2025#annual"]},
         {"25-days": "Full-time staff get 25 days of annual leave.",
          "22-days": "Full-time staff get 22 days of annual leave.",
          "roster-two-weeks": "Request leave from your line manager in Roster at least two "
                              "weeks ahead."},
         # baseline's procedure claim rests on the 2025 edition alone: stale support
         {"baseline": ("leave@2025#annual leave@2025#carry-over leave@2026#annual "
                       "leave@2026#carry-over leave@2026#sick",
                       "22-days=leave@2025#annual; roster-two-weeks=leave@2025#annual"),
          "rerank": ("leave@2026#annual leave@2025#annual leave@2026#carry-over "
                     "leave@2025#carry-over leave@2026#sick",
                     "25-days=leave@2026#annual; roster-two-weeks=leave@2026#annual"),
          "rerank-guarded": ("leave@2026#annual leave@2026#carry-over leave@2026#sick "
                             "leave@2026#parental leave@2026#volunteering",
                             "25-days=leave@2026#annual; roster-two-weeks=leave@2026#annual")},
         reviews=[rv("ana", "leave@2026#annual", "relevant", ""),
                  rv("ben", "leave@2026#annual", "relevant", ""),
                  rv("ana", "leave@2025#annual", "relevant",
                     "the request procedure did not change"),
                  rv("ben", "leave@2025#annual", "not relevant", "superseded edition"),
                  rv("ana", "leave@2026#carry-over", "not relevant", ""),
                  rv("ben", "leave@2026#carry-over", "not relevant", ""),
                  rv("ana", "baseline/roster-two-weeks", "supported", "same wording in 2025"),
                  rv("ben", "baseline/roster-two-weeks", "unsupported",
                     "cites only the superseded edition")]),
    case("carry-over", ["outdated"], "heldout",
         "How many unused leave days can I carry into next year, and until when?",
         ["leave@2026#carry-over"],
         {"8-days": ["leave@2026#carry-over"], "until-june": ["leave@2026#carry-over"]},
         {"8-days": "Up to 8 unused days can be carried over.",
          "until-june": "Carried days expire on 30 June.",
          "5-days": "Up to 5 unused days can be carried over.",
          "until-march": "Carried days expire on 31 March."},
         {"baseline": ("leave@2025#carry-over leave@2026#carry-over leave@2025#annual "
                       "leave@2026#annual leave@2026#sick",
                       "5-days=leave@2025#carry-over; until-march=leave@2025#carry-over"),
          "rerank": ("leave@2026#carry-over leave@2025#carry-over leave@2026#annual "
                     "leave@2025#annual leave@2026#sick",
                     "8-days=leave@2026#carry-over; until-june=leave@2026#carry-over"),
          "rerank-guarded": ("leave@2026#carry-over leave@2026#annual leave@2026#sick "
                             "leave@2026#parental leave@2026#volunteering",
                             "8-days=leave@2026#carry-over; until-june=leave@2026#carry-over")}),
    case("office-day", ["outdated"], "dev",
         "Which weekday is an office day for every team?",
         ["remote@2026#days"], {"tuesday": ["remote@2026#days"]},
         {"tuesday": "Tuesday is the office day for every team.",
          "monday": "Monday is the office day for every team."},
         {"baseline": ("remote@2024#days remote@2026#days remote@2024#equipment "
                       "remote@2026#abroad remote@2026#equipment", "monday=remote@2024#days"),
          "rerank": ("remote@2024#days remote@2026#days remote@2026#equipment "
                     "remote@2026#abroad remote@2024#equipment", "monday=remote@2024#days"),
          "rerank-guarded": ("remote@2026#days remote@2026#equipment remote@2026#abroad "
                             "facilities#parking onboarding#first-day",
                             "tuesday=remote@2026#days")}),
    case("remote-days", ["outdated"], "heldout",
         "How many days a week may I work remotely?",
         ["remote@2026#days"], {"three-days": ["remote@2026#days"]},
         {"three-days": "You may work remotely up to three days a week.",
          "two-days": "You may work remotely up to two days a week."},
         {"baseline": ("remote@2024#days remote@2026#abroad remote@2024#equipment "
                       "remote@2026#days remote@2026#equipment", "two-days=remote@2024#days"),
          "rerank": ("remote@2026#days remote@2024#days remote@2026#abroad "
                     "remote@2026#equipment remote@2024#equipment", "three-days=remote@2026#days"),
          "rerank-guarded": ("remote@2026#days remote@2026#abroad remote@2026#equipment "
                             "leave@2026#annual it#vpn", "three-days=remote@2026#days")}),
    case("home-equipment", ["outdated"], "dev",
         "What does the company provide for a home office?",
         ["remote@2026#equipment"], {"monitor-chair": ["remote@2026#equipment"]},
         {"monitor-chair": "You may order one monitor and one office chair from the IT "
                           "catalogue.",
          "allowance-300": "You may claim up to 300 euros a year for furniture."},
         {"baseline": ("remote@2024#equipment remote@2026#equipment remote@2026#days "
                       "remote@2024#days remote@2026#abroad",
                       "allowance-300=remote@2024#equipment; "
                       "monitor-chair=remote@2026#equipment"),
          "rerank": ("remote@2026#equipment remote@2024#equipment remote@2026#days "
                     "remote@2026#abroad remote@2024#days", "monitor-chair=remote@2026#equipment"),
          "rerank-guarded": ("remote@2026#equipment remote@2026#days remote@2026#abroad "
                             "it#software facilities#badge",
                             "monitor-chair=remote@2026#equipment")}),
    case("oncall-change", ["outdated"], "heldout",
         "When does the on-call rota change over, and where is the handover note posted?",
         ["ops@2026#oncall", "ops@2025#oncall"],
         {"monday-10": ["ops@2026#oncall"],
          "ops-handover": ["ops@2026#oncall", "ops@2025#oncall"]},
         {"monday-10": "The rota changes every Monday at 10:00.",
          "friday-16": "The rota changes every Friday at 16:00.",
          "ops-handover": "The handover note goes in #ops-handover."},
         {"baseline": ("ops@2025#oncall ops@2026#escalation ops@2026#oncall ops@2026#backups "
                       "ops@2026#restore",
                       "friday-16=ops@2025#oncall; ops-handover=ops@2025#oncall+ops@2026#oncall"),
          # rerank's handover claim rests on the 2025 edition alone: stale support
          "rerank": ("ops@2025#oncall ops@2026#oncall ops@2026#escalation ops@2026#backups "
                     "ops@2026#restore",
                     "monday-10=ops@2026#oncall; ops-handover=ops@2025#oncall"),
          "rerank-guarded": ("ops@2026#oncall ops@2026#escalation ops@2026#backups "
                             "ops@2026#restore ops-wiki#backups",
                             "monday-10=ops@2026#oncall; ops-handover=ops@2026#oncall")},
         reviews=[rv("ana", "ops@2026#oncall", "relevant", ""),
                  rv("ben", "ops@2026#oncall", "relevant", ""),
                  rv("ana", "ops@2025#oncall", "relevant", "channel unchanged"),
                  rv("ben", "ops@2025#oncall", "relevant", "for the channel only"),
                  rv("ana", "rerank/ops-handover", "supported", ""),
                  rv("ben", "rerank/ops-handover", "supported", "but only via the 2025 text"),
                  rv("ana", "rerank/monday-10", "supported", ""),
                  rv("ben", "rerank/monday-10", "supported", "")]),
    # ---------------------------------------------------------------- conflicting passages
    case("password-expiry", ["conflicting"], "dev",
         "How often must I change my password, and how long must it be?",
         ["security#passwords"],
         {"no-expiry": ["security#passwords"], "14-chars": ["security#passwords"]},
         {"no-expiry": "There is no scheduled expiry; change it only if it may be exposed.",
          "every-90-days": "Passwords must be changed every 90 days.",
          "14-chars": "Passwords need at least 14 characters."},
         {"baseline": ("it-wiki#passwords security#passwords it#mfa it#vpn it#software",
                       "every-90-days=it-wiki#passwords; 14-chars=security#passwords"),
          "rerank": ("security#passwords it-wiki#passwords it#mfa it#vpn it#software",
                     "no-expiry=security#passwords; 14-chars=security#passwords")},
         conflicting=["it-wiki#passwords"]),
    # Both pages are on the question (relevant) and both say you sign in again, but the
    # onboarding page loses the conflict on the duration: citing it makes a claim unsupported
    # even where it is labelled.
    case("vpn-session", ["conflicting"], "heldout",
         "How long does a VPN session last before I have to sign in again?",
         ["it#vpn", "onboarding#vpn"],
         {"12-hours": ["it#vpn"], "sign-in-again": ["it#vpn", "onboarding#vpn"]},
         {"12-hours": "A VPN session ends after 12 hours.",
          "8-hours": "A VPN session lasts 8 hours.",
          "sign-in-again": "After that you sign in again."},
         {"baseline": ("onboarding#vpn it#vpn onboarding#first-day it#mfa it#software",
                       "8-hours=onboarding#vpn"),
          # the right figure, but the second claim cites the losing onboarding page
          "rerank": ("onboarding#vpn it#vpn it#mfa onboarding#first-day it#software",
                     "12-hours=it#vpn; sign-in-again=onboarding#vpn"),
          "rerank-guarded": ("onboarding#vpn it#vpn it#mfa onboarding#first-day it#software",
                             "12-hours=it#vpn; sign-in-again=it#vpn")},
         conflicting=["onboarding#vpn"]),
    case("parental-notice", ["conflicting"], "dev",
         "How far ahead must I tell HR about parental leave?",
         ["leave@2026#parental"], {"eight-weeks": ["leave@2026#parental"]},
         {"eight-weeks": "Tell HR at least eight weeks before parental leave starts.",
          "four-weeks": "Tell HR at least four weeks before parental leave starts."},
         {"baseline": ("hr-faq#parental leave@2026#sick leave@2026#annual leave@2026#parental "
                       "leave@2026#volunteering", "four-weeks=hr-faq#parental"),
          "rerank": ("leave@2026#parental hr-faq#parental leave@2026#sick leave@2026#annual "
                     "leave@2026#volunteering", "eight-weeks=leave@2026#parental")},
         conflicting=["hr-faq#parental"],
         reviews=[rv("ana", "hr-faq#parental", "not relevant", "older FAQ, overruled"),
                  rv("ben", "hr-faq#parental", "not relevant", ""),
                  rv("ana", "leave@2026#parental", "relevant", ""),
                  rv("ben", "leave@2026#parental", "relevant", ""),
                  rv("ana", "baseline/four-weeks", "unsupported", "the losing FAQ"),
                  rv("ben", "baseline/four-weeks", "unsupported", "")]),
    # ---------------------------------------------------------------- near-duplicates
    case("laptop-lost", ["near-duplicate"], "dev",
         "What should I do if my laptop is stolen?",
         ["it#laptop-loss", "onboarding#laptop-loss", "security-faq#laptop-loss"],
         {"report-4400": ["it#laptop-loss", "onboarding#laptop-loss",
                          "security-faq#laptop-loss"],
          "remote-wipe": ["it#laptop-loss", "onboarding#laptop-loss",
                          "security-faq#laptop-loss"]},
         {"report-4400": "Report it to the Service Desk on extension 4400 within one hour.",
          "remote-wipe": "The laptop will be wiped remotely."},
         {"baseline": ("onboarding#laptop-loss security-faq#laptop-loss it#laptop-loss it#mfa "
                       "facilities#badge", "report-4400=onboarding#laptop-loss; "
                       "remote-wipe=security-faq#laptop-loss"),
          "rerank": ("it#laptop-loss onboarding#laptop-loss security-faq#laptop-loss it#mfa "
                     "facilities#badge", "report-4400=it#laptop-loss; "
                     "remote-wipe=it#laptop-loss")}),
    case("lost-laptop-and-phone", ["near-duplicate", "multi-evidence"], "heldout",
         "My bag with my laptop and phone was stolen. Whom do I call, and how do I get Keyfob "
         "back?",
         ["it#laptop-loss", "onboarding#laptop-loss", "security-faq#laptop-loss", "it#mfa"],
         {"report-4400": ["it#laptop-loss", "onboarding#laptop-loss",
                          "security-faq#laptop-loss"],
          "keyfob-reset": ["it#mfa"]},
         {"report-4400": "Call the Service Desk on extension 4400 within one hour.",
          "keyfob-reset": "The Service Desk resets Keyfob after a video identity check."},
         {"baseline": ("onboarding#laptop-loss it#laptop-loss security-faq#laptop-loss it#mfa "
                       "facilities#badge", "report-4400=onboarding#laptop-loss"),
          "rerank": ("it#laptop-loss it#mfa onboarding#laptop-loss security-faq#laptop-loss "
                     "facilities#badge", "report-4400=it#laptop-loss; keyfob-reset=it#mfa")},
         reviews=[rv("ana", "it#laptop-loss", "relevant", ""),
                  rv("ben", "it#laptop-loss", "relevant", ""),
                  rv("ana", "onboarding#laptop-loss", "relevant", "identical copy"),
                  rv("ben", "onboarding#laptop-loss", "relevant", ""),
                  rv("ana", "security-faq#laptop-loss", "relevant", "same facts"),
                  rv("ben", "security-faq#laptop-loss", "not relevant",
                     "older FAQ; wording differs"),
                  rv("ana", "it#mfa", "relevant", ""),
                  rv("ben", "it#mfa", "relevant", "")]),
    case("visitor-registration", ["near-duplicate"], "dev",
         "By when must I register a visitor, and are visitors escorted?",
         ["facilities#visitors", "onboarding#visitors", "reception#visitors"],
         {"17-day-before": ["facilities#visitors", "onboarding#visitors", "reception#visitors"],
          "escorted": ["facilities#visitors", "onboarding#visitors", "reception#visitors"]},
         {"17-day-before": "Register visitors in Frontdesk before 17:00 on the working day "
                           "before.",
          "escorted": "Visitors are escorted at all times."},
         {"baseline": ("reception#visitors onboarding#visitors facilities#visitors "
                       "facilities#badge facilities#parking",
                       "17-day-before=reception#visitors; escorted=reception#visitors"),
          # the context builder dropped the identical onboarding copy and pulled in rank 4:
          # delivered differs from the top 3, and the onboarding citation was never delivered
          "rerank": ("facilities#visitors onboarding#visitors reception#visitors "
                     "onboarding#first-day facilities#badge",
                     "17-day-before=facilities#visitors; escorted=onboarding#visitors",
                     "facilities#visitors reception#visitors onboarding#first-day"),
          "rerank-guarded": ("facilities#visitors onboarding#visitors reception#visitors "
                             "onboarding#first-day facilities#badge",
                             "17-day-before=facilities#visitors; escorted=facilities#visitors")},
         reviews=[rv("ana", "facilities#visitors", "relevant", ""),
                  rv("ben", "facilities#visitors", "relevant", ""),
                  rv("ana", "reception#visitors", "relevant", ""),
                  rv("ben", "reception#visitors", "relevant", ""),
                  rv("ana", "onboarding#visitors", "relevant", ""),
                  rv("ben", "onboarding#visitors", "relevant", ""),
                  rv("ana", "rerank/escorted", "unsupported", "cited copy was not delivered"),
                  rv("ben", "rerank/escorted", "supported", "the copy is word for word")]),
    case("bike-shed", ["near-duplicate"], "heldout",
         "Where is the covered bike shed, and how do I open it?",
         ["facilities#bikes", "onboarding#bikes"],
         {"behind-b": ["facilities#bikes", "onboarding#bikes"],
          "badge-opens": ["facilities#bikes", "onboarding#bikes"]},
         {"behind-b": "The covered bike shed is behind building B.",
          "badge-opens": "It opens with your access badge."},
         {"baseline": ("facilities#parking onboarding#bikes facilities#badge facilities#bikes "
                       "facilities#visitors",
                       "behind-b=onboarding#bikes; badge-opens=onboarding#bikes"),
          "rerank": ("facilities#bikes onboarding#bikes facilities#parking facilities#badge "
                     "facilities#visitors",
                     "behind-b=facilities#bikes; badge-opens=facilities#bikes")}),
    case("visitor-escort", ["near-duplicate"], "heldout",
         "Do visitors need an escort inside the building?",
         ["facilities#visitors", "onboarding#visitors", "reception#visitors"],
         {"escorted": ["facilities#visitors", "onboarding#visitors", "reception#visitors"]},
         {"escorted": "Yes: visitors are escorted at all times."},
         {"baseline": ("onboarding#first-day facilities#visitors facilities#badge "
                       "reception#visitors onboarding#visitors", "escorted=facilities#visitors"),
          "rerank": ("reception#visitors facilities#visitors onboarding#visitors "
                     "onboarding#first-day facilities#badge", "escorted=reception#visitors")}),
    # ---------------------------------------------------------------- permissions
    case("salary-band", ["permission"], "dev",
         "What is the salary band for an L4 engineer?",
         ["pay-faq#bands"], {"ask-manager": ["pay-faq#bands"]},
         {"ask-manager": "Your manager shares the band for your own level; the full table is "
                         "kept by HR.",
          "l4-band": "The L4 band is 60,000 to 74,000 euros."},
         {"baseline": ("salary-bands#engineering pay-faq#bands pay-review#timeline "
                       "pay-faq#review expenses#deadline",
                       "l4-band=salary-bands#engineering"),
          "rerank": ("salary-bands#engineering pay-faq#bands pay-faq#review pay-review#timeline "
                     "card#apply",
                     "ask-manager=pay-faq#bands; l4-band=salary-bands#engineering"),
          "rerank-guarded": ("pay-faq#bands pay-faq#review card#apply expenses#deadline "
                             "leave@2026#annual", "ask-manager=pay-faq#bands")},
         reviews=[rv("ana", "pay-faq#bands", "relevant", ""),
                  rv("ben", "pay-faq#bands", "relevant", ""),
                  rv("ana", "salary-bands#engineering", "not relevant", "restricted to HR"),
                  rv("ben", "salary-bands#engineering", "not relevant",
                     "caller may not see it"),
                  rv("ana", "rerank/ask-manager", "supported", ""),
                  rv("ben", "rerank/ask-manager", "supported", ""),
                  rv("ana", "rerank/l4-band", "unsupported", "evidence the caller may not use"),
                  rv("ben", "rerank/l4-band", "supported", "the figure is in the cited table")]),
    case("pay-letters", ["permission"], "heldout",
         "When are pay review letters sent?",
         ["pay-faq#review"], {"december": ["pay-faq#review"]},
         {"december": "Pay review letters are sent in December."},
         # baseline: fully supported, and two HR-only chunks were delivered: disclosures
         {"baseline": ("pay-review#timeline pay-faq#review salary-bands#engineering "
                       "pay-faq#bands expenses#deadline", "december=pay-faq#review"),
          "rerank": ("pay-faq#review pay-review#timeline pay-faq#bands salary-bands#engineering "
                     "expenses#deadline", "december=pay-faq#review"),
          "rerank-guarded": ("pay-faq#review pay-faq#bands expenses#deadline card#apply "
                             "leave@2026#annual", "december=pay-faq#review")}),
    case("pay-proposals", ["permission"], "dev",
         "By when must managers submit pay review proposals?",
         ["pay-review#timeline"], {"15-october": ["pay-review#timeline"]},
         {"15-october": "Managers submit pay review proposals by 15 October.",
          "calibration": "HR calibrates them by 6 November.",
          "december": "Letters are sent in December."},
         {"baseline": ("pay-faq#review pay-review#timeline salary-bands#engineering "
                       "pay-faq#bands expenses#deadline", "15-october=pay-review#timeline"),
          "rerank": [("pay-review#timeline pay-faq#review salary-bands#engineering "
                      "pay-faq#bands expenses#deadline", "15-october=pay-review#timeline"),
                     ("pay-review#timeline pay-faq#review salary-bands#engineering "
                      "pay-faq#bands expenses#deadline",
                      "15-october=pay-review#timeline; calibration=pay-review#timeline"),
                     ("pay-review#timeline pay-faq#review salary-bands#engineering "
                      "pay-faq#bands expenses#deadline", "december=pay-faq#review")]},
         caller=["staff", "hr"]),
    case("card-limit-finance", ["permission"], "heldout",
         "What is the monthly limit on a standard corporate card?",
         ["card#limits"], {"2000-month": ["card#limits"]},
         {"2000-month": "A standard card has a limit of 2,000 euros a month."},
         {"baseline": ("card#apply expenses#deadline expenses#meals card#limits "
                       "expenses#mileage", ""),
          "rerank": ("card#limits card#apply expenses#deadline expenses#meals expenses#mileage",
                     "2000-month=card#limits")},
         caller=["staff", "finance"]),
    case("card-limit-staff", ["permission"], "dev",
         "What is the limit on my corporate card, and who sets it?",
         ["card#apply"], {"finance-sets": ["card#apply"]},
         {"finance-sets": "The finance team sets the limit when the card is requested.",
          "2000-month": "A standard card has a limit of 2,000 euros a month."},
         {"baseline": ("card#limits card#apply expenses#deadline expenses#meals "
                       "expenses#mileage", "2000-month=card#limits; finance-sets=card#apply"),
          "rerank": ("card#limits card#apply expenses#meals expenses#deadline expenses#mileage",
                     "2000-month=card#limits; finance-sets=card#apply"),
          "rerank-guarded": ("card#apply expenses#meals expenses#deadline expenses#mileage "
                             "expenses#travel-class", "finance-sets=card#apply")}),
    case("ledger-lock", ["permission"], "heldout",
         "On which working day does the ledger lock at month end?",
         ["close#calendar"], {"day-5": ["close#calendar"]},
         {"day-5": "The ledger locks on working day 5."},
         {"baseline": ("expenses#deadline close#calendar card#limits card#apply "
                       "expenses#meals", "day-5=close#calendar"),
          "rerank": ("close#calendar expenses#deadline card#limits card#apply expenses#meals",
                     "day-5=close#calendar")},
         caller=["finance"]),
    case("outage-cause", ["permission", "unanswerable"], "dev",
         "What caused the Ledgerly outage on 14 August?", [], {},
         {"expired-certificate": "An expired TLS certificate on the export gateway caused it."},
         {"baseline": ("incident-0814#ledgerly status#ledgerly expenses#deadline card#apply "
                       "it#vpn", "expired-certificate=incident-0814#ledgerly"),
          "rerank": ("incident-0814#ledgerly status#ledgerly card#apply expenses#deadline "
                     "it#software", "expired-certificate=incident-0814#ledgerly"),
          "rerank-guarded": ("status#ledgerly card#apply expenses#deadline it#software "
                             "it#vpn", "")}),
    case("headcount-2027", ["permission", "unanswerable"], "heldout",
         "How many new roles does the 2027 plan fund?", [], {},
         {"14-roles": "The 2027 plan funds 14 new roles."},
         {"baseline": ("budget-2027#headcount close#calendar ops@2026#oncall card#apply "
                       "expenses#deadline", "14-roles=budget-2027#headcount"),
          "rerank": ("budget-2027#headcount card#limits close#calendar card#apply "
                     "expenses#deadline", "14-roles=budget-2027#headcount"),
          "rerank-guarded": ("card#apply expenses#deadline ops@2026#oncall pay-faq#review "
                             "leave@2026#annual", "")}),
    # ---------------------------------------------------------------- unanswerable
    case("gym-discount", ["unanswerable"], "dev",
         "Does Fernhollow offer a gym discount?", [], {},
         {"gym-discount": "Staff get a gym discount through the volunteering scheme."},
         {"baseline": ("leave@2026#volunteering facilities#parking facilities#bikes "
                       "remote@2026#equipment leave@2026#parental",
                       "gym-discount=leave@2026#volunteering"),
          "rerank": ("leave@2026#volunteering facilities#bikes facilities#parking "
                     "remote@2026#equipment leave@2026#parental", "")}),
    case("bereavement-leave", ["unanswerable"], "heldout",
         "How many days of bereavement leave do I get?", [], {},
         {"three-days": "Bereavement leave is three days."},
         {"baseline": ("leave@2026#sick leave@2026#parental leave@2026#annual "
                       "leave@2025#annual leave@2026#volunteering", "three-days=leave@2026#sick"),
          "rerank": ("leave@2026#sick leave@2026#annual leave@2026#parental "
                     "leave@2026#volunteering leave@2025#annual", ""),
          "rerank-guarded": ("leave@2026#sick leave@2026#annual leave@2026#parental "
                             "leave@2026#volunteering leave@2026#carry-over", "")}),
    case("backup-region", ["unanswerable"], "dev",
         "Which region hosts the warehouse backups?", [], {},
         {},
         {"baseline": ("ops@2026#backups ops-wiki#backups ops@2026#restore "
                       "ops@2026#escalation ops@2026#oncall", ""),
          "rerank": ("ops@2026#backups ops@2026#restore ops-wiki#backups ops@2026#oncall "
                     "ops@2026#escalation", "")}),
    case("guest-wifi", ["unanswerable"], "heldout",
         "What is the guest Wi-Fi password?", [], {},
         {"ask-reception": "Ask reception for the guest Wi-Fi password."},
         {"baseline": ("facilities#visitors reception#visitors it#vpn security#passwords "
                       "it-wiki#passwords", ""),
          "rerank": ("reception#visitors security#passwords it#vpn facilities#visitors "
                     "it-wiki#passwords", "ask-reception=reception#visitors")}),
    case("taxi-airport", ["unanswerable"], "heldout",
         "Can I expense a taxi to the airport?", [], {},
         {"taxi-yes": "Yes, a taxi to the airport is reimbursed."},
         {"baseline": ("expenses#travel-class expenses#mileage expenses#meals "
                       "travel-faq#booking expenses#deadline", "taxi-yes=expenses#travel-class"),
          "rerank": ("expenses#travel-class travel-faq#booking expenses#mileage "
                     "expenses#deadline expenses#meals", "")}),
]

# --------------------------------------------------------------------------------------------
# Manifests and cost model (fictional figures, fixed so the output is reproducible)
# --------------------------------------------------------------------------------------------
MODEL = "fictional-writer-s-2026-09"
MANIFESTS = {
    "baseline": {
        "run_id": "practice-baseline-2026-11-20", "date": "2026-11-20",
        "code_revision": "pipeline@4e1a7c2",
        "retrieval": {"method": "bm25", "chunking": "one section per chunk", "top_k": 5},
        "context_cutoff": K, "prompt_revision": "answer-with-citations-v4", "model": MODEL,
        "generation": {"temperature": 0.0, "max_tokens": 300},
        "rubric_version": "strict-citations-1",
        "notes": "Fictional run. BM25 over section chunks; the top 3 are delivered."},
    "rerank": {
        "run_id": "practice-rerank-2026-11-21", "date": "2026-11-21",
        "code_revision": "pipeline@9b03d51",
        "retrieval": {"method": "bm25 then cross-encoder rerank", "candidates": 50,
                      "reranker": "fictional-rerank-mini-1", "top_k": 5,
                      "context_builder": "drops exact duplicate texts"},
        "context_cutoff": K, "prompt_revision": "answer-with-citations-v4", "model": MODEL,
        "generation": {"temperature": 0.7, "max_tokens": 300},
        "rubric_version": "strict-citations-1",
        "notes": "Fictional run. One controlled change from baseline: reranking. Four "
                 "questions were run three times (trials 1 to 3) at temperature 0.7."},
    "rerank-guarded": {
        "run_id": "practice-guarded-2026-11-22", "date": "2026-11-22",
        "code_revision": "pipeline@c77e0f8",
        "retrieval": {"method": "bm25 then cross-encoder rerank", "candidates": 50,
                      "reranker": "fictional-rerank-mini-1", "top_k": 5,
                      "filters": ["chunk groups must meet caller_groups",
                                  "superseded chunks removed"]},
        "context_cutoff": K, "prompt_revision": "answer-with-citations-v5-abstain",
        "model": MODEL, "generation": {"temperature": 0.0, "max_tokens": 300},
        "rubric_version": "strict-citations-1",
        "notes": "Fictional run. Rerank plus a permission and version filter before ranking, "
                 "and a prompt that abstains when the context does not answer."},
}
BASE_LATENCY = {"baseline": 840, "rerank": 1130, "rerank-guarded": 1175}
PRICE_PER_TOKEN = 0.000002
RERANK_FEE = {"baseline": 0.0, "rerank": 0.0004, "rerank-guarded": 0.0004}
ABSTAIN = {"baseline": "I could not find this in the handbook pages I was given.",
           "rerank": "The retrieved pages do not answer this.",
           "rerank-guarded": "I cannot answer this from the pages you are allowed to see."}


# --------------------------------------------------------------------------------------------
# Building the records
# --------------------------------------------------------------------------------------------
def parse_claims(text):
    claims = []
    for part in text.split(";"):
        part = part.strip()
        if part:
            claim, cites = part.split("=")
            claims.append({"claim": claim.strip(), "citations": cites.strip().split("+")})
    return claims


def corpus_records():
    for cid, source, version, text, groups, superseded in CORPUS:
        record = {"id": cid, "text": text, "source": source, "version": version}
        if groups:
            record["groups"] = list(groups)
        if superseded:
            record["superseded"] = True
        yield record


def case_records():
    for spec in CASES:
        record = {"id": spec["id"], "question": spec["question"],
                  "relevant": list(spec["relevant"]),
                  "support": {c: list(ids) for c, ids in spec["support"].items()},
                  "tags": list(spec["tags"]), "split": spec["split"],
                  "caller_groups": list(spec["caller"])}
        if spec["conflicting"]:
            record["conflicting"] = list(spec["conflicting"])
        if spec["reviews"]:
            record["reviews"] = list(spec["reviews"])
        yield record


def system_runs(spec):
    """``(system, trial or None, retrieved, delivered, claims)`` for every run of one case."""
    runs = dict(spec["runs"])
    if "rerank-guarded" not in runs:  # the rerank run (its first trial when it has trials)
        rerank = runs["rerank"]
        runs["rerank-guarded"] = rerank[0] if isinstance(rerank, list) else rerank[:2]
    for system in SYSTEMS:
        written = runs[system]
        trials = written if isinstance(written, list) else [written]
        for number, one in enumerate(trials, 1):
            retrieved = one[0].split()
            delivered = one[2].split() if len(one) > 2 else retrieved[:K]
            yield (system, number if len(trials) > 1 else None, retrieved, delivered,
                   parse_claims(one[1]))


def words(text):
    return len(text.split())


def run_records():
    texts = {cid: text for cid, _, _, text, _, _ in CORPUS}
    for position, spec in enumerate(CASES):
        for system, trial, retrieved, delivered, claims in system_runs(spec):
            answer = " ".join(spec["say"][c["claim"]] for c in claims) or ABSTAIN[system]
            context_words = sum(words(texts[d]) for d in delivered)
            tokens = 180 + round(1.3 * (words(spec["question"]) + context_words)) \
                + round(1.3 * words(answer))
            jitter = (position * 37 + (trial or 1) * 53) % 211
            record = {"case": spec["id"], "system": system}
            if trial is not None:
                record["trial"] = trial
            record.update({"retrieved": retrieved, "delivered": delivered, "claims": claims,
                           "answer": answer,
                           "latency_ms": BASE_LATENCY[system] + jitter + 4 * len(claims),
                           "tokens": tokens,
                           "cost": round(tokens * PRICE_PER_TOKEN + RERANK_FEE[system], 6)})
            yield record


def index():
    return {"format": "ragscore-dataset", "version": 3, "name": "practice",
            "description": f"Fernhollow, an invented instrument maker: {len(CORPUS)} chunks "
                           "of its HR, IT, finance, facilities and operations notes (with "
                           "superseded editions, restricted pages, copies and contradictions), "
                           f"{len(CASES)} questions tagged by slice, and three fictional "
                           "systems (baseline, rerank, rerank-guarded). Hand-authored for "
                           "issue 11; not a measurement of any real system.",
            "ids": "open", "min_relevance": 1, "rubric": "strict-citations-1",
            "manifests": MANIFESTS}


# --------------------------------------------------------------------------------------------
# Self-check
# --------------------------------------------------------------------------------------------
def allowed(chunk, caller, corpus):
    groups = corpus[chunk].get("groups", [])
    return not groups or bool(set(groups) & set(caller))


def check(corpus, cases, runs):
    problems = []

    def need(condition, message):
        if not condition:
            problems.append(message)

    ids = [c["id"] for c in corpus]
    known = {c["id"]: c for c in corpus}
    need(len(ids) == len(set(ids)), "corpus IDs repeat")
    case_ids = [c["id"] for c in cases]
    need(len(case_ids) == len(set(case_ids)), "case IDs repeat")
    need(40 <= len(cases) <= 50, f"{len(cases)} questions, expected 40 to 50")
    counts = {tag: 0 for tag in TAGS}
    for c in cases:
        for tag in c["tags"]:
            need(tag in counts, f"{c['id']}: unknown tag {tag}")
            counts[tag] = counts.get(tag, 0) + 1
        need(c["split"] in ("dev", "heldout"), f"{c['id']}: split {c['split']}")
        need(bool(c["caller_groups"]), f"{c['id']}: no caller_groups")
        for doc in c["relevant"] + c.get("conflicting", []):
            need(doc in known, f"{c['id']}: unknown document {doc}")
        for claim, docs in c["support"].items():
            for doc in docs:
                need(doc in c["relevant"], f"{c['id']}: support {claim} names {doc} "
                                            "outside relevant")
        need(("unanswerable" in c["tags"]) == (c["relevant"] == []),
             f"{c['id']}: unanswerable tag and empty relevant disagree")
        need((c["relevant"] == []) == (c["support"] == {}),
             f"{c['id']}: relevant and support not empty together")
        for r in c.get("reviews", []):
            item = r.get("doc") or r.get("claim")
            need(item is not None, f"{c['id']}: review without item")
            if "doc" in r:
                need(r["doc"] in known, f"{c['id']}: review of unknown doc {r['doc']}")
                need(r["decision"] in ("relevant", "not relevant"), f"{c['id']}: decision")
            else:
                need(r["decision"] in ("supported", "unsupported"), f"{c['id']}: decision")
                need(any(run["case"] == c["id"] and run["system"] == r["system"]
                         and any(x["claim"] == r["claim"] for x in run["claims"])
                         for run in runs), f"{c['id']}: review of a claim no run makes")
    for tag, n in counts.items():
        need(n >= 4, f"tag {tag} used {n} times, expected at least 4")
    dev = sum(c["split"] == "dev" for c in cases)
    need(0.3 <= dev / len(cases) <= 0.5, f"{dev} of {len(cases)} cases are dev")
    by_case = {c["id"]: c for c in cases}
    seen, trials, differs = set(), {}, 0
    for run in runs:
        c = by_case.get(run["case"])
        need(c is not None, f"run of unknown case {run['case']}")
        key = (run["case"], run["system"], run.get("trial"))
        need(key not in seen, f"repeated run {key}")
        seen.add(key)
        if "trial" in run:
            trials.setdefault(key[:2], []).append(run["trial"])
        need(len(run["retrieved"]) == 5 == len(set(run["retrieved"])),
             f"{key}: retrieved is not 5 unique IDs")
        for doc in run["retrieved"] + run["delivered"] + \
                [d for claim in run["claims"] for d in claim["citations"]]:
            need(doc in known, f"{key}: unknown chunk {doc}")
        if set(run["delivered"]) != set(run["retrieved"][:K]):
            differs += 1
        if run["system"] == "rerank-guarded":
            for doc in run["retrieved"]:
                need(allowed(doc, c["caller_groups"], known) and not known[doc].get("superseded"),
                     f"{key}: the guarded system retrieved filtered chunk {doc}")
        need(len({x["claim"] for x in run["claims"]}) == len(run["claims"]),
             f"{key}: claim IDs repeat")
        need(bool(run["answer"].strip()), f"{key}: empty answer")
    for c in cases:
        for system in SYSTEMS:
            need(any(k[:2] == (c["id"], system) for k in seen), f"no {system} run on {c['id']}")
    need(differs == 1, f"{differs} runs deliver something other than the top {K}, expected 1")
    need(len(trials) >= 3, "fewer than three questions with trials")
    for key, numbers in trials.items():
        need(sorted(numbers) == [1, 2, 3], f"{key}: trials {numbers}, expected 1, 2, 3")
        answers = {r["answer"] for r in runs if (r["case"], r["system"]) == key}
        need(len(answers) == 3, f"{key}: trial answers do not differ")
        need(all(k[:2] != key or k[2] is not None for k in seen),
             f"{key}: a run without trial beside trials")
    both = {}
    for c in cases:
        for r in c.get("reviews", []):
            item = (c["id"], r.get("doc") or (r["system"], r["claim"]))
            both.setdefault(item, {})[r["reviewer"]] = r["decision"]
    need(sum(set(v) == {"ana", "ben"} for v in both.values()) >= 20,
         "fewer than 20 items judged by both ana and ben")
    return problems, counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="self-check only, write nothing")
    parser.add_argument("--out", type=Path, default=OUT, help="the folder to write")
    args = parser.parse_args(argv)
    corpus, cases, runs = list(corpus_records()), list(case_records()), list(run_records())
    problems, counts = check(corpus, cases, runs)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    if not args.check:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "dataset.json").write_text(
            json.dumps(index(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        for name, records in (("corpus", corpus), ("cases", cases), ("runs", runs)):
            lines = [json.dumps(r, ensure_ascii=False) + "\n" for r in records]
            (args.out / f"{name}.jsonl").write_text("".join(lines), encoding="utf-8")
    print(f"{len(corpus)} chunks, {len(cases)} questions, {len(runs)} runs; tags "
          + ", ".join(f"{t} {n}" for t, n in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
