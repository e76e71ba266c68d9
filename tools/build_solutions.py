"""Write the scrambled worked solutions into ``ragscore/workbook/solutions.py`` from the
instructor notes (``python tools/build_solutions.py``).

Each solution is the exercise's row of ``docs/instructor.md`` ("Answers"): the answer, then
the reasoning. ``tests/workbook/test_solutions.py`` fails when the package's copy differs.
"""
import re
import sys
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ragscore.workbook.exercises import EXERCISES, RATE  # noqa: E402
from ragscore.workbook.solutions import scramble  # noqa: E402

GUIDE = ROOT / "docs" / "instructor.md"
TARGET = ROOT / "ragscore" / "workbook" / "solutions.py"
ROW = re.compile(r"^\| (\d\d\.\d) \| `([^`]+)` \| (.+) \|$", re.M)
BLOCK = re.compile(r"(# --- scrambled solutions ---\n).*?(# --- end of scrambled solutions ---)",
                   re.DOTALL)


def solution_texts(guide=GUIDE):
    """``{exercise: worked solution}`` from the notes' answer rows."""
    texts = {}
    for name, answer, why in ROW.findall(guide.read_text(encoding="utf-8")):
        if EXERCISES[name].kind == RATE:
            answer = f"{answer} = {float(Fraction(answer)):.2f}"
        texts[name] = f"the answer is {answer}. {why.strip()}"
    return texts


def written(texts):
    """The text of ``solutions.py`` with ``texts`` scrambled into its block."""
    lines = ["SCRAMBLED = {"]
    for name in sorted(texts):
        stored = scramble(EXERCISES[name], texts[name])
        pieces = [stored[i:i + 80] for i in range(0, len(stored), 80)]
        lines.append(f'    "{name}": (' + "\n             ".join(f'"{piece}"' for piece in pieces)
                     + "),")
    lines.append("}")
    source = TARGET.read_text(encoding="utf-8")
    return BLOCK.sub(lambda match: match.group(1) + "\n".join(lines) + "\n" + match.group(2),
                     source)


def main():
    texts = solution_texts()
    missing = sorted(set(EXERCISES) - set(texts))
    if missing:
        raise SystemExit(f"{GUIDE}: no answer row for {', '.join(missing)}")
    TARGET.write_text(written(texts), encoding="utf-8")
    print(f"wrote {len(texts)} solutions into {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
