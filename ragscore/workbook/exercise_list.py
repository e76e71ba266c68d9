"""Every exercise of the workbook, by ID: its kind, the salted digest of its answer, the
hints for its likely mistakes (:mod:`ragscore.workbook.exercises` checks answers against
them). The answers are written only in ``docs/instructor.md``.
"""
from collections import namedtuple

RATE, COUNT, YES_NO, CHOICE = "rate", "count", "yes/no", "choice"


class Exercise(namedtuple("Exercise", "id kind salt digest mistakes hint options cut")):
    """One exercise: ``mistakes`` maps a likely wrong answer (canonical form) to its hint;
    ``hint`` is for any other wrong answer; ``options`` lists the choices of a ``choice``;
    ``cut`` is the salted digest of a rate's answer with its digits cut off at two decimals
    (2/3 cut is 0.66), where that differs from the answer rounded, else None: that reply
    alone gets the rounding hint."""

    __slots__ = ()


def _exercise(exercise_id, kind, salt, answer_digest, hint, mistakes=None, options=(),
              cut=None):
    return Exercise(exercise_id, kind, salt, answer_digest, dict(mistakes or {}), hint,
                    tuple(options), cut)


CHANGES = ("cite", "sentence", "order")
HASHES = ("corpus_sha256", "questions_sha256", "both", "neither")
#: What validation and the scorer might do with a citation to a note that does not exist.
OUTCOMES = ("refused", "dropped", "unsupported", "supported")

#: Every exercise of the workbook, by ID. The answers are in docs/instructor.md. No hint
#: states its exercise's answer (tests/workbook/test_exercises.py reads them all).
EXERCISES = {exercise.id: exercise for exercise in (
    _exercise("01.1", COUNT, "881b56",
              "feecb1bb5b5df4ecdcedec6b95911daab9ee532424e9ebee4982cfefe62ec9a0",
              "Read the 'expected claims' column of step 3 row by row and add up the claim "
              "IDs; a question that expects nothing adds nothing.",
              {"5": "5 is how many claims system B made over the four questions; the "
                    "question asks what the reviewer expects (step 3), not what a system said.",
               "3": "Count claim IDs, not questions: write down every ID each row of step 3's "
                    "'expected claims' column lists, then count them."}),
    _exercise("01.2", COUNT, "12febe",
              "848b931e76ac065acb94d79a2ad09d72defd539fe5d9e7bdfe1fe224cebffbc5",
              "Take each run of step 4 claim by claim, and look up in step 3 which notes are "
              "labelled as support for that claim ID on that question. A claim the reviewer "
              "never expected has no supporting note at all.",
              {"2": "Go through all eight runs, every claim of each, including claims the "
                    "reviewer never expected: a claim nobody expected has no note labelled "
                    "for it.",
               "1": "Go through all eight runs, every claim of each: for each claim, find in "
                    "step 3 the notes labelled for that claim on that question.",
               "4": "Take the runs one at a time and check every note each claim cites "
                    "against step 3's labels for that claim ID on that question."}),
    _exercise("01.3", CHOICE, "5d2e71",
              "bfe787d4a529125f785b331208604d3beb8b789a582aabfc81534a9dde14c1e7",
              "Try it: run attempt(course.corpus, course.cases['owner'], {'retrieved': "
              "('owners',), 'claims': (('aurora', ('no-such-note',)),)}) in a new cell, then "
              "ragscore.evaluate with the same arguments and k=2, and read the support.",
              {"refused": "Step 6 tried an unknown note in the retrieved list, not in a "
                          "citation: check this case rather than guess. Run "
                          "attempt(course.corpus, course.cases['owner'], {'retrieved': "
                          "('owners',), 'claims': (('aurora', ('no-such-note',)),)}) in a "
                          "new cell and read what it says.",
               "dropped": "Check it rather than guess: score that run with "
                          "ragscore.evaluate (k=2) and look at its support.",
               "supported": "Check it rather than guess: score that run with "
                            "ragscore.evaluate (k=2), then look up in step 3 which notes "
                            "support aurora."},
              options=OUTCOMES),
    _exercise("02.1", RATE, "b80045",
              "062b9060a2c817d16e03b1b1c19775569697f212dc51299920ee22248f0b070d",
              "P@3 has three slots: count the relevant notes in the top 3 and divide by 3.",
              {"1.00": "1.00 divides the hits by the notes returned; P@k keeps k slots even "
                       "when the list is shorter.",
               "0.33": "Count the hits again: look up each of rollback B's two notes among "
                       "the question's relevant notes (chapter 1, step 3).",
               "0.50": "0.50 would be one hit in two slots; P@3 has three slots."},
              cut="4f05a32f81cf040ede50185c65a455bea9dfad803dca6a6fd1b480d43cc30461"),
    _exercise("02.2", RATE, "c34cf4",
              "2b6947252dcef6c97b11eec5f4d546e04f3da8378bbb7ca65e39645a59282517",
              "RR@k is 1 divided by the rank of the first relevant note within the top k "
              "(0 when none is there). Work it out for each list, then take the mean of the "
              "two values.",
              {"1.00": "1.00 is the mean R@3 here: each relevant note is found. RR asks at "
                       "which rank the first relevant note sits.",
               "0.83": "That adds the two RR@3 values; a mean divides their sum by the "
                       "number of questions.",
               "0.33": "Work out RR@3 for each list on its own, then average the two.",
               "0.50": "Work out RR@3 for each list on its own, then average the two.",
               "0.25": "At k = 3 all three notes of a list are in view: find the rank of the "
                       "first relevant one in each list."},
              cut="49b639538d3d84f68d12917bad0b01d4a919b52b3d0ece4d155afcbead131c64"),
    _exercise("02.3", RATE, "02db82",
              "0617885d0acb7490e7d15eb9af220113549ad685ef97972730b27b7861ad5a2a",
              "Read A's P@1 in the table under step 5 and average it over the questions "
              "where it is defined.",
              {"0.50": "0.50 counts region as a 0. region's P@1 is n/a: it has nothing "
                       "relevant, so it is not one of the answerable questions (step 4).",
               "1.00": "Is every answerable question's first note relevant? Read each P@1 in "
                       "the table.",
               "0.33": "Look again at each answerable question: whose first note is relevant?"},
              cut="d7c863eb09a14834310ebc0ff651a476fa66dc8a0e8197d32588358c04e62bcd"),
    _exercise("03.1", RATE, "400635",
              "0090e2be5813dc364fb049b1f28a831872149eebca79088bb03edac44ac27099",
              "Support = supported claims / claims made. Count the claims the new answer "
              "makes, then check each against launch's labels (step 1's rule).",
              {"0.67": "switch is an expected claim of the rollback question; on launch "
                       "nobody labelled any note as its support.",
               "0.50": "0.50 is launch B's support as recorded; the extra claim changes the "
                       "number of claims made.",
               "1.00": "1.00 is launch B's coverage; support divides by the claims made."}),
    _exercise("03.2", COUNT, "ac6a5a",
              "d819ac3bab44000f4e36e2683a31a486f70b138e17eb00f5034335d4bf66f913",
              "Go through B's four answers; a claim counts when every note it cites is "
              "labelled for it and ranked first (k = 1).",
              {"4": "At k = 1 only each run's first note is in view: check where every cited "
                    "note is ranked.",
               "5": "launch B's bonus is unsupported at any cutoff: nothing is labelled for it."}),
    _exercise("03.3", COUNT, "a41c0f",
              "943ec15b5aa92d9ce0042c4fc70fdbdd1f02ab3aebebcf2b3e2df4f89a860800",
              "Apply step 1's rule to each of B's claims with its new citation list: every "
              "cited note must be labelled for the claim and be in the top 2.",
              {"4": "4 is how many of B's claims are supported as recorded, before anything "
                    "was added; apply step 1's rule to each claim's new citation list.",
               "3": "Take the claims one at a time and check each note of its new citation "
                    "list against step 1's rule.",
               "5": "bonus had no support before anything was added: nobody labelled a "
                    "note for it on launch."}),
    _exercise("04.1", RATE, "626563",
              "b320ab513debe59eaa0062e3822a5ba7d1cac17ca553b66e7eb398a6b7c6f8eb",
              "Pooled recall sums the hits over the answerable questions and divides by the "
              "sum of their relevant notes.",
              {"0.83": "0.83 is the macro mean (each question weighs the same); pooled "
                       "divides total hits by total relevant notes.",
               "0.50": "rollback has two relevant notes; count every relevant note of the "
                       "answerable questions."}),
    _exercise("04.2", COUNT, "012f02",
              "02212dc742dc82b83ee6ef949453bd45a69ebca4466332f7e561493558faa0dc",
              "Run compare(question_table(course, k=1), baseline='A', candidate='B') in a new "
              "cell and count the rows whose verdict is regressed.",
              {"1": "That is the count at the chapter's cutoff. At k = 1 look at the rank of "
                    "every note each of B's answers cites.",
               "3": "Count the rows whose verdict reads regressed, and read each verdict "
                    "as compare writes it at k = 1.",
               "0": "Redo step 2's comparison on question_table(course, k=1) and read its "
                    "verdict column row by row: a row counts when its verdict is regressed."}),
    _exercise("04.3", RATE, "825eb0",
              "538ec26daa6d267063ee0e11ee4c061490e92bc14c766e2b5b055c65167ccf89",
              "Pooled support sums B's supported claims and divides by the sum of the claims "
              "B made; at k = 1 every note a claim cites must be labelled for it and first.",
              {"0.80": "0.80 is B's pooled support at the chapter's cutoff (step 3); at k = 1 "
                       "check the rank of every cited note again.",
               "0.67": "That is a macro mean: pooled adds up the claims of all three answers "
                       "before dividing, so a longer answer weighs more.",
               "0.75": "Count every claim B made, the unsupported ones too."}),
    _exercise("04.4", RATE, "ead02f",
              "611cd19ab01aba3032e77f0caec93ddf8c652f3c9acf1200423a734b24cd61e4",
              "Average A's coverage over the answerable questions (the numbers under the "
              "heatmap list it per question).",
              {"0.38": "region's coverage is n/a (nothing is expected) and region is not in "
                       "the answerable slice: do not count it as a 0.",
               "0.67": "0.67 is A's mean support; the question asks about coverage."}),
    _exercise("05.1", RATE, "63d210",
              "751d0e179e36569dad25d5beb35cbd561294d14a94584a953dadf6d19676ebb5",
              "Under that defect a claim needs only one cited note that is labelled for it "
              "on this question and ranked within k; go through the three claims one by one.",
              {"0.00": "0.00 is what the correct scorer gives; apply the defect's rule to "
                       "each claim instead.",
               "0.67": "Check each claim twice: is one cited note labelled for that claim on "
                       "rollback, and is that note in view at k = 1?",
               "1.00": "monday is an expected claim of the launch question; on rollback "
                       "nobody labelled a note for it.",
               "0.50": "Support divides by the claims the answer made."}),
    _exercise("05.2", RATE, "8e5d56",
              "9dfce98ecbceb35d2cbf71f1f64be7d038d39c325e38eea7af6478ca1b410565",
              "Cut each of the six lists to its first note, then compute P@2 with the defect "
              "(hits divided by the notes returned when fewer than k came back) and average.",
              {"0.42": "That is the correct scorer's mean for the cut lists; the defect "
                       "divides by the notes returned.",
               "0.67": "Cut every list to its first note before counting, and take A's and "
                       "B's answers together.",
               "1.00": "Is every first note relevant to its question? Look at owner A's."}),
    _exercise("05.3", RATE, "68b577",
              "21cc35546275d1f2743b7d5c97421f386eba52ffc7dda97c429184284d518df0",
              "Coverage = supported expected claims / expected claims, per answer; this defect "
              "ignores a cited note's rank, not its label. Average the six answers.",
              {"0.67": "0.67 is the correct scorer's mean at k = 1; apply the defect's "
                       "rule to each answer instead.",
               "1.00": "owner A's aurora cites archive: is archive labelled for aurora?",
               "0.83": "Take A's and B's answers together: six answers."}),
    _exercise("06.1", CHOICE, "83738f",
              "7f7a84bbfd47debce205790ec4e5f58055f0991b76134e3c3786de00762303eb",
              "Step 1 says what each hash is computed over; find the one that includes the "
              "notes' text.",
              {"questions_sha256": "The question set's hash covers the questions, their "
                                   "labels, tags and split: did any of those change? Step "
                                   "1 lists what each hash covers.",
               "both": "Step 1 lists what each hash is computed over; a hash changes only "
                       "when something on its own list changes.",
               "neither": "The hashes are over the content, so a changed character changes "
                          "the hash of whatever holds it."},
              options=HASHES),
    _exercise("06.2", COUNT, "19a8c3",
              "8dbb614e82597e517bf1c6baa7250ec097303d42e3e7d6dfe8e79d284e08d359",
              "For each record, compare the set of delivered notes with the set of its first "
              "retrieved note (recorded.runs[case][system] holds both).",
              {"1": "That is the count at k = 2; at k = 1 the top-k list is one note, so "
                    "compare each delivered list with the first retrieved note only.",
               "5": "region B retrieved nothing and was given nothing: two empty sets are "
                    "the same set."}),
    _exercise("06.3", COUNT, "09ea1e",
              "ed21985277f1292d3e6873a4a37e5140ad76ed4dba20e2983e39468f081f3de1",
              "Read B's gate output in step 4 rule by rule: each line says what B did, which "
              "does not change with a threshold; compare it with each rule as changed.",
              {"1": "Read each of the five rule lines of B's output and check it against its "
                    "limit as changed.",
               "0": "The last rule's line says how many unsupported claims B made in all; "
                    "compare that with the new limit.",
               "5": "That is how many rules A fails in step 4; the question asks about B."}),
    _exercise("07.1", RATE, "4ea15a",
              "8c852bd106fea764de8330ab3ee373925ec8e0122703df9608dc2ba1cf3177e4",
              "nDCG@1 compares the gain of dense's first note on q2 with the largest gain "
              "any judged note of q2 could have had at rank 1; step 4 shows, for nDCG@3, "
              "how a grade becomes a gain.",
              {"0.63": "At rank 1 the discount is log2(1 + 1) = 1: no note is discounted "
                       "there.",
               "0.33": "The ideal DCG@1 holds one note only, the best one that could be at "
                       "rank 1, not the sum of every grade.",
               "1.00": "glacier is relevant, but graded 1; nDCG compares that with the best "
                       "grade that could have been at rank 1.",
               "0.38": "0.38 is nDCG@3; at k = 1 only the first note counts, in the DCG and "
                       "in the ideal DCG."}),
    _exercise("07.2", RATE, "c6242b",
              "7b6c3af5723aca84ecda7e4877c5a513f3ed83b624f201b2f73690602071c2da",
              "trec_eval's recip_rank is reciprocal rank with no cutoff, averaged over "
              "every question it was given: find that column in step 6 and decide which "
              "questions count.",
              {"0.33": "0.33 is the mean of RR@1, cut at k = 1; trec_eval's recip_rank is "
                       "not cut.",
               "0.75": "trec_eval keeps q3 in its mean as a 0 (its -c convention); it does "
                       "not leave it out."}),
    _exercise("08.1", COUNT, "c1654d",
              "d778243c4687dbdb1bc9603334c4921bb73143934d511592f63f307d6a7c0c7f",
              "Add up the disclosures column of step 2's table for rerank.",
              {"9": "9 is baseline's total; the question asks about rerank.",
               "6": "6 counts the questions with a disclosure; add up the disclosures column "
                    "itself.",
               "0": "rerank-guarded has none; the question asks about rerank."}),
    _exercise("08.2", COUNT, "a9fd68",
              "456cb54345a42ca1ec20fd2500bb1d44af1a0f0eee6b592f223cc018e792ec02",
              "Step 5 shows two comparisons of recall: find which questions each one is "
              "taken over. Every question is in exactly one split, dev or held-out.",
              {"8": "Read which questions each count of step 5 is taken over; the question "
                    "asks about the dev questions only.",
               "12": "Read which questions each count of step 5 is taken over; the question "
                     "asks about the dev questions only.",
               "18": "18 is how many dev questions there are, improved or not."}),
    _exercise("08.3", RATE, "4a55ae",
              "6b36d2c70f9dd26e06a4283b1b2ed4e5da0628187b97520287e9987dfb0026b4",
              "Use step 4's formula, kappa = (po - pe) / (1 - pe): po is the share of the "
              "shared claims the two agree on, pe the chance agreement the question gives.",
              {"0.88": "0.88 is the percent agreement, 7/8; kappa takes away the agreement "
                       "expected by chance.",
               "0.25": "0.25 is the claims' kappa with the real 5 agreements; recompute po "
                       "for 7.",
               "0.73": "0.73 is the documents' kappa; the question is about the claims."}),
    _exercise("09.1", COUNT, "5e0b91",
              "52c51da5c1224099596470947605477ff77676bb3e844fdb3ea18125177c564d",
              "Start from step 4's count of claim entries. For each new sentence, find the "
              "entry it replaces (step 2 lists every sentence), then look for an entry of the "
              "same question with the same words (markers aside) and the same cited passages.",
              {"14": "Two answers to one question that write the same sentence, markers "
                     "aside, and cite the same passages share one entry.",
               "12": "Take the new sentences one at a time and compare each with the "
                    "sentences of its question in step 2's list.",
               "15": "That counts every claim; the queue lists a shared sentence once."}),
    _exercise("09.2", RATE, "b37c24",
              "08191bd013e29feb313549f9078dba435db64977452a01865ca11d6efed59b94",
              "Pooled: over the three answerable questions, add up the claims of draft "
              "that the strict rule accepts, and divide by all the claims draft made there.",
              {"0.33": "0.33 is the mean of the three per-question values (macro), or counts "
                       "the region claim too; pooled sums claims over the answerable "
                       "questions."}),
    _exercise("09.3", RATE, "badbf1",
              "d4d3dbdbb2ac7c3c7945650ddad647f0563950b7c8f595fbab2273f1b0e41b4c",
              "Pooled coverage adds up the expected claims covered on launch, rollback and "
              "owner and divides by all the claims expected there. Judge each rollback "
              "sentence on its own; take launch and owner from step 5's table.",
              {"0.67": "That is the mean of the three questions' coverage (macro); pooled "
                       "adds up the expected claims before dividing.",
               "0.33": "That is a mean of coverage values; pooled adds up the expected claims "
                       "of the three questions before dividing, and rollback's answer is "
                       "the two-sentence one.",
               "0.25": "Judge each of the two sentences on its own: the passage it cites, "
                       "that passage's rank, and the sources labelled for the claim it states.",
               "1.00": "Pooled coverage is over launch, rollback and owner together: count "
                       "the expected claims of each of the three, and those covered."}),
    _exercise("10.1", COUNT, "a41c07",
              "bcf9f31d4c16c04b3662f6e2ff9a8d2bb78dda72aa063f12c6d8b5298c0361bf",
              "Take each claim's evidence span from step 1, list every chunk of this "
              "chunking that shares a character with it, and ask of each such chunk whether "
              "it contains the span from its first character to its last.",
              {"2": "The question counts (claim, chunk) pairs, not claims: a claim whose "
                    "evidence is cut gives a pair for every chunk it is cut into.",
               "3": "Write the pairs down claim by claim, each claim with every chunk that "
                    "shares a character with its evidence span, and count the list.",
               "5": "List the pairs you counted, and check each chunk against the claim's "
                    "evidence span: where does the span start and end, where does the chunk?",
               "0": "Chunks that meet end to end still cut a span that runs across the "
                    "place where they meet."}),
    _exercise("10.2", COUNT, "5be2d9",
              "1932e332c74d884bf46db169cf8703319aa6d66ae336e47ddfcc94f93cebaadd",
              "Take the five lists one at a time against step 4's rule: every cited chunk "
              "shares a character with the claim's evidence, every cited chunk is within "
              "the ranking's top 3, and the cited chunks together contain one evidence "
              "span from end to end.",
              {"3": "Work every list through the rule's three parts in order and note which "
                    "part decides it; step 4 states the three parts.",
               "1": "Read what step 4's rule says about several chunks cited together: two "
                    "chunks that meet end to end can contain a span that neither contains "
                    "alone.",
               "0": "Read what step 4's rule says about several chunks cited together: two "
                    "chunks that meet end to end can contain a span that neither contains "
                    "alone.",
               "5": "A chunk that contains only part of a claim's evidence is partial: "
                    "cited alone, it does not support the claim."}),
    _exercise("10.3", COUNT, "e07f31",
              "2ecc55842d8d8099edeeb217ab04a34333c2fd8e2f0c054d66c121ee8d90dcc0",
              "Look for each label's text (step 1's table) in the edited notes: a label is "
              "kept where its text is found at the same characters, moved where it is "
              "found once at other characters, orphaned where it is not found.",
              {"0": "An edit that makes a sentence longer or shorter shifts every character "
                    "after it, in the same document.",
               "4": "A label whose text is no longer in the notes cannot be found anywhere, "
                    "so it is orphaned, not moved.",
               "1": "Look for each label on its own, relevant sentences and evidence spans "
                    "alike."}),
    _exercise("11.1", RATE, "59dd18",
              "a9a660a34e8dd2e6f80e981111f0446f7aa263502a894e339a3d16f9b702bacf",
              "A counts every nugget alike: add 1 per support and 0.5 per partial support "
              "over rollback's three nuggets, and divide by three.",
              {"0.67": "0.67 is draft's A as the reviewer judged it, order supported; a "
                       "partial assignment counts 0.5, not 1.",
               "0.33": "0.33 is A strict, where a partial assignment counts nothing."}),
    _exercise("11.2", CHOICE, "73bc19",
              "bdab58cc7257ad965720961c7ff8c52e86a0f80de88b7682021d576babb41bb8",
              "Work out W after each change: which nugget does each one turn to support, and "
              "is that nugget vital (weight 1) or okay (weight 0.5)?",
              {"sentence": "Work out W after this change and after each of the others: "
                           "which nugget's assignment does each change raise, from what to "
                           "what, and is that nugget vital or okay?",
               "order": "Work out W after this change and after each of the others: "
                        "which nugget's assignment does each change raise, from what to "
                        "what, and is that nugget vital or okay?"},
              options=CHANGES),
    _exercise("11.3", RATE, "d420e6",
              "16b0d9fb4a24eb35bf0c850fb15aa28229df9a1d87eae80e92d4f405997b17c4",
              "A vital smoke weighs 1 in the denominator too: vital nuggets switch and "
              "smoke, one okay nugget, order.",
              {"0.75": "0.75 is W with smoke okay, as in step 4; a vital nugget weighs 1 in "
                       "the numerator and the denominator.",
               "0.50": "0.50 is V, which leaves the okay order out; W weighs it half."}),
)}
