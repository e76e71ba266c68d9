# Set-up and everyday jobs. Only python3 (3.11+), make and git are needed to start.
PYTHON ?= $(shell for p in python3.12 python3; do $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && { echo $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHAPTER ?= 02
# Present mode runs the chapter in a waiting kernel as soon as the server starts (Voila's
# preheated kernels): tools/present.py starts that kernel before the server listens and
# prints the chapter's address once it has run every cell, so the page opened there is live
# at once. The kernel that replaces it in the pool starts 1 s after a page took one (Voila's
# default fill_delay), ready for a reload or a second screen: with 30 s, a reload in that
# time waited 22-31 s on a blank page. The cells of a chapter's "Going further" part, which
# present mode does not show and no core cell uses, are not run (nbclient's skip tag): a page
# requested early went live in 2.0-2.5 s instead of 2.7-3.2 s for chapters 6 and 9. The
# browser test and benchmarks/bench_present.py start the chapter the same way, with the
# same options.
PRESENT_OPTIONS := --preheat_kernel=True --pool_size=1 --VoilaExecutor.skip_cells_with_tag=going-further
# `make lab` opens chapter 1, not the Launcher: the address it prints (and opens, where a
# browser can be started) is the notebook's own; the browser test starts Lab with the same.
LAB_OPTIONS := --LabApp.default_url=/lab/tree/notebooks/01_test_set.ipynb
# Test processes: two, one per core of the machines CI runs on; each test file runs whole in one
# process, so a notebook's cells keep their order and kernel (make test JOBS=0 runs them in one process).
JOBS ?= 2
PYTEST := env -u MPLBACKEND $(BIN)/python -m pytest --nbval --nbval-current-env \
  -n $(JOBS) --dist loadfile

.PHONY: demo test test-all lab present bench mutation notebooks clean

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed (python3.12 or python3)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[notebooks,test,bench]'
	touch $(STAMP)

demo: $(STAMP)  ## print the course table at k=2
	$(BIN)/python -m ragscore demo

test: $(STAMP)  ## the suite: unit tests, doctests, notebooks (nbval), browser tests (about 3 min)
	$(PYTEST) -m "not exhaustive" tests ragscore notebooks

test-all: $(STAMP)  ## the suite plus the exhaustive tests (a fresh install, trec_eval byte for byte, a 10,000-question shared page)
	$(PYTEST) tests ragscore notebooks

lab: $(STAMP)  ## open JupyterLab at the repository root on chapter 1, notebooks/01_test_set.ipynb
	$(BIN)/jupyter lab --ServerApp.root_dir=$(CURDIR) $(LAB_OPTIONS) \
	  --LabApp.app_settings_dir=$(CURDIR)/share/jupyter/lab/settings \
	  $(if $(filter 0,$(shell id -u)),--allow-root)

present: $(STAMP)  ## serve one chapter for a class (Voila, no exercises, no code), e.g. make present CHAPTER=02; the address comes when the chapter has run
	cd notebooks && env -u MPLBACKEND JUPYTER_PATH=$(CURDIR)/share/jupyter \
	  $(CURDIR)/$(BIN)/python $(CURDIR)/tools/present.py $(CHAPTER)_*.ipynb --template=present \
	  --Voila.ip=127.0.0.1 $(PRESENT_OPTIONS)

notebooks: $(STAMP)  ## re-execute every chapter after editing its .py (keeps the pair in step)
	for py in notebooks/[0-9][0-9]_*.py; do $(BIN)/jupytext --quiet --to ipynb --update "$$py"; done
	$(BIN)/python tools/sync_cell_tags.py notebooks/[0-9][0-9]_*.py
	$(BIN)/python -c 'import glob, nbformat; [nbformat.write(nb, path) for path in sorted(glob.glob("notebooks/[0-9][0-9]_*.ipynb")) for nb in [nbformat.read(path, as_version=4)] if not nb.metadata.__setitem__("kernelspec", {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"})]'
	unset MPLBACKEND; for nb in notebooks/[0-9][0-9]_*.ipynb; do start=$$(date +%s%N); \
	  $(BIN)/jupyter nbconvert --to notebook --execute --inplace --log-level=WARN \
	  --ExecutePreprocessor.record_timing=False --ExecutePreprocessor.kernel_name=python3 \
	  "$$nb" || exit 1; echo "$$nb executed in $$(( ($$(date +%s%N) - start) / 1000000 )) ms"; done

bench: $(STAMP)  ## throughput and memory against pytrec_eval (in memory, then end to end)
	$(BIN)/python benchmarks/bench_score_runs.py
	$(BIN)/python benchmarks/bench_end_to_end.py
	$(BIN)/python benchmarks/bench_share_report.py

mutation: $(STAMP)  ## mutation score of the scoring core (several minutes)
	$(BIN)/python tools/mutate.py

clean:
	rm -rf $(VENV) build *.egg-info
