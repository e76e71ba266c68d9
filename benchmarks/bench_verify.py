"""What the content check costs: ``ragscore report`` on a large folder with and without
``--no-verify``, each engine, each layout, as whole processes.

    python benchmarks/bench_verify.py                      # 100,000 questions x 2 systems
    taskset -c 0 python benchmarks/bench_verify.py         # on one CPU
    python benchmarks/bench_verify.py --questions 300 --repeat 1 --data /tmp/verify

Data (benchmarks/synthetic.py, seeded): a corpus of 100,000 documents, N questions, systems A
and B (100 retrieved, up to 5 claims), saved twice: as format version 5 (the runs in
Parquet) and as version 2 (every file JSON Lines). Generation is not timed; with ``--data
DIR`` the folders are kept and reused while the sizes match.

Timed, in ``--repeat`` interleaved rounds (so a slow spell of the machine falls on every
side), best and median seconds: ``ragscore report DIR --k 10 --format csv`` for each layout
and engine, checked and with ``--no-verify``, and, as the floor any check of these bytes
costs, ``sha256sum`` (GNU coreutils) over the folder's data files. The cost of the check is
the difference of the two report columns; the CSVs of a checked and an unchecked report must
be identical (the check changes nothing it does not refuse).

Then, in this process (no start-up to blur a difference of a fraction of a second): the
reading and counting of each folder by each engine (``ragscore.engine.count_folder``),
checked and within ``ragscore.io.content.unverified()``, interleaved, best and median; and
Python's own SHA-256 over the memory-mapped files (what the check computes). ``--in-process``
runs this part alone.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import make_synthetic  # noqa: E402

CORPUS_SIZE, RETRIEVED, MAX_CLAIMS, SEED, SYSTEMS = 100_000, 100, 5, 7, ("A", "B")
LAYOUTS = {"v5 (parquet runs)": 5, "v2 (json lines)": 2}
ENGINES = ("columnar", "reference")


def _meta(questions):
    return {"questions": questions, "corpus": CORPUS_SIZE, "retrieved": RETRIEVED,
            "seed": SEED, "layouts": sorted(LAYOUTS.values())}


def ensure_data(folder, questions):
    """The dataset folders of each layout in ``folder``, made unless already there."""
    import ragscore
    from ragscore.io.write import save_dataset as save_version

    folder = Path(folder)
    meta = folder / "meta.json"
    paths = {name: folder / f"v{version}" for name, version in LAYOUTS.items()}
    try:
        if json.loads(meta.read_text()) == _meta(questions):
            return paths, "reused"
    except (OSError, ValueError):
        pass
    folder.mkdir(parents=True, exist_ok=True)
    meta.unlink(missing_ok=True)
    start = time.perf_counter()
    corpus, cases, runs = make_synthetic(cases=questions, corpus_size=CORPUS_SIZE,
                                         retrieved=RETRIEVED, max_claims=MAX_CLAIMS,
                                         seed=SEED, systems=SYSTEMS)
    dataset = ragscore.Dataset(corpus=corpus, cases=cases, runs=runs, name="verify")
    for name, version in LAYOUTS.items():
        if version == 5:
            ragscore.save_dataset(dataset, paths[name], overwrite=True)
        else:
            save_version(dataset, paths[name], overwrite=True, version=version)
    meta.write_text(json.dumps(_meta(questions)) + "\n")
    return paths, f"generated in {time.perf_counter() - start:.1f} s"


def data_files(path):
    index = json.loads((Path(path) / "dataset.json").read_text())
    return [Path(path) / name for name in index["files"].values()]


def timed(argv, out):
    start = time.perf_counter()
    with open(out, "wb") as handle:
        result = subprocess.run(argv, stdout=handle, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if result.returncode:
        raise SystemExit(f"{' '.join(map(str, argv))} exited {result.returncode}: "
                         f"{result.stderr.decode()[-400:]}")
    return seconds


def commands(paths, scratch):
    python = sys.executable
    found = {}
    for layout, path in paths.items():
        for engine in ENGINES:
            base = [python, "-m", "ragscore", "report", str(path), "--k", "10", "--format",
                    "csv", "--engine", engine]
            found[(layout, engine, "checked")] = base
            found[(layout, engine, "--no-verify")] = base + ["--no-verify"]
        if shutil.which("sha256sum"):
            found[(layout, "sha256sum", "floor")] = ["sha256sum", *map(str, data_files(path))]
    return found


def run(paths, repeat, scratch):
    argvs = commands(paths, scratch)
    times = {key: [] for key in argvs}
    for _ in range(repeat):
        for key, argv in argvs.items():
            times[key].append(timed(argv, scratch / ("-".join(key).replace(" ", "_")
                                                     + ".csv")))
    for layout in paths:
        for engine in ENGINES:
            checked = (scratch / "-".join((layout, engine, "checked")).replace(" ", "_")
                       ).with_suffix(".csv")
            plain = (scratch / "-".join((layout, engine, "--no-verify")).replace(" ", "_")
                     ).with_suffix(".csv")
            if checked.read_bytes() != plain.read_bytes():
                raise SystemExit(f"{layout} {engine}: checked and unchecked reports differ")
    return times


def in_process(paths, repeat):
    """``{(layout, engine, mode): [seconds]}`` of count_folder, checked and unverified, and
    ``{layout: [seconds]}`` of hashing the folder's files from memory maps."""
    import hashlib
    import mmap

    from ragscore.engine import count_folder
    from ragscore.io.content import unverified

    times, hashing = {}, {layout: [] for layout in paths}
    for path in paths.values():  # imports and first reads, untimed
        for engine in ENGINES:
            count_folder(path, engine=engine)
    for round_ in range(repeat):
        for layout, path in paths.items():
            for engine in ENGINES:
                for mode in ("checked", "--no-verify")[::1 if round_ % 2 else -1]:
                    start = time.perf_counter()
                    if mode == "checked":
                        count_folder(path, engine=engine)
                    else:
                        with unverified():
                            count_folder(path, engine=engine)
                    times.setdefault((layout, engine, mode), []).append(
                        time.perf_counter() - start)
            start = time.perf_counter()
            for file in data_files(path):
                with open(file, "rb") as handle, mmap.mmap(handle.fileno(), 0,
                                                           access=mmap.ACCESS_READ) as data:
                    hashlib.sha256(data).hexdigest()
            hashing[layout].append(time.perf_counter() - start)
    return times, hashing


def print_in_process(paths, sizes, repeat):
    times, hashing = in_process(paths, repeat)
    print(f"in process, {repeat} rounds: count_folder checked and unverified, best/median s")
    print(f"{'layout':<20} {'engine':<10} {'checked':>15} {'unverified':>15} {'cost best':>10} "
          f"{'share':>6} {'sha256 (MB/s)':>18}")
    for layout in paths:
        rate = sizes[layout] / 1e6 / min(hashing[layout])
        for engine in ENGINES:
            checked = times[(layout, engine, "checked")]
            plain = times[(layout, engine, "--no-verify")]
            cost = min(checked) - min(plain)
            print(f"{layout:<20} {engine:<10} "
                  f"{min(checked):7.2f}/{statistics.median(checked):<7.2f} "
                  f"{min(plain):7.2f}/{statistics.median(plain):<7.2f} {cost:+9.2f}s "
                  f"{100 * cost / min(plain):+5.1f}% {min(hashing[layout]):6.2f}s ({rate:5.0f})")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--data", default=None, help="keep the generated folders here")
    parser.add_argument("--layouts", default=",".join(LAYOUTS),
                        help="which layouts, separated by commas (default: both)")
    parser.add_argument("--in-process", action="store_true",
                        help="only the in-process measurement (no whole processes)")
    args = parser.parse_args(argv)
    chosen = [name.strip() for name in args.layouts.split(",")]
    with tempfile.TemporaryDirectory() as temporary:
        data = Path(args.data or Path(temporary) / "data")
        paths, how = ensure_data(data, args.questions)
        paths = {name: paths[name] for name in chosen}
        scratch = Path(temporary) / "out"
        scratch.mkdir()
        sizes = {name: sum(file.stat().st_size for file in data_files(path))
                 for name, path in paths.items()}
        print(f"{args.questions:,} questions x {len(SYSTEMS)} systems, corpus of "
              f"{CORPUS_SIZE:,} docs, {RETRIEVED} retrieved, k=10; data {how}; CPUs "
              f"{sorted(os.sched_getaffinity(0))}; {args.repeat} rounds")
        if args.in_process:
            print_in_process(paths, sizes, args.repeat)
            return
        times = run(paths, args.repeat, scratch)
        print(f"{'layout':<20} {'engine':<10} {'MB':>7} {'checked best/median':>20} "
              f"{'--no-verify':>15} {'cost best':>10} {'sha256sum':>10}")
        for layout in paths:
            floor = times.get((layout, "sha256sum", "floor"))
            for engine in ENGINES:
                checked = times[(layout, engine, "checked")]
                plain = times[(layout, engine, "--no-verify")]
                cost = min(checked) - min(plain)
                print(f"{layout:<20} {engine:<10} {sizes[layout] / 1e6:7.1f} "
                      f"{min(checked):9.2f}/{statistics.median(checked):<9.2f} "
                      f"{min(plain):7.2f}/{statistics.median(plain):<7.2f} "
                      f"{cost:+9.2f}s "
                      f"{'' if floor is None else f'{min(floor):9.2f}s'}")
        print("checked and --no-verify reports: identical CSV for every layout and engine")
        print_in_process(paths, sizes, args.repeat)


if __name__ == "__main__":
    main()
