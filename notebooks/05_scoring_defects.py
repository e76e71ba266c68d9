# %% [markdown]
# # Chapter 5 — A scoring defect can make a weak system look strong
#
# **Promise:** you will see tests catch three plausible scoring bugs, and know why an
# import error would prove nothing.
#
# You will learn:
# - how to run the contract tests from here;
# - what each of the workbook's three defects does to the numbers;
# - how an independent arithmetic cross-check widens the net.

# %%
import ragscore
from ragscore.workbook.exercises import check_yourself
from ragscore.workbook.selfcheck import CROSSCHECK_TESTS, MUTATIONS, contract_check, contract_checks

# %% [markdown]
# ## Step 1: the contract tests pass on the real scorer
# `contract_check()` copies the package and its tests to a scratch folder and runs them
# there (the slow million-document test is left out to keep this quick).

# %%
baseline = contract_check()
print("passed:", baseline["passed"], " failed:", baseline["failed"],
      " errors:", baseline["errors"])

# %% [markdown]
# ## Step 2: three defects, one at a time
# Each defect is written into a fresh scratch copy. A defect counts as caught only when a
# test *fails an assertion*; an import error would only show that the copy is broken.

# %%
for name, (path, original, replacement, catcher) in MUTATIONS.items():
    print(f"{name}: in {path}\n    {original}\n -> {replacement}")

# %%
for name, result in contract_checks(MUTATIONS).items():
    caught = sorted({test.split("[")[0] for test in result["failed_tests"]})
    print(f"{name}: {result['failed']} failed, {result['errors']} errors; caught by:")
    for test in caught:
        print("   ", test)

# %% [markdown]
# ## Step 3: what the first defect would have shown
# Dividing by the returned items instead of k turns `rollback` A's P@2 from 0.50 into 1.00:
# a short list looks perfect. Here is that arithmetic, outside the scorer:

# %%
hits, k, returned = 1, 2, 1
print(f"P@2 = {hits}/{k} = {hits / k:.2f}; with the defect {hits}/{returned} = {hits / returned:.2f}")

# %% [markdown]
# ## Step 4: the arithmetic cross-check
# `tests/core/test_crosscheck.py` builds 384 retrieval configurations (8 relevant sets × 16
# rankings × 3 cutoffs) and 10 answer patterns, and recomputes every expected number with
# plain loops and fractions — 3,840 evaluations. Run it here:

# %%
cross = contract_check(tests=CROSSCHECK_TESTS)
print("cross-check: passed", cross["passed"], "failed", cross["failed"])

# %% [markdown]
# ## Recap
# In this chapter we ran the contract tests, injected three defects that each make a
# weak system look stronger, watched named tests fail on assertions, and widened the net
# with an independent cross-check. Tests cannot fix a wrong labelling policy: that needs
# review of the labels themselves.
#
# ## Exercises
# 1. Under the "any citation suffices" defect, what support would `owner` A get if it
#    cited `owners` and `archive` for `aurora`? (k = 2)

# %%
answer = None
print(check_yourself(answer, 1.0))
