"""Answers on synthetic half-solved pages of known truth: how many go out as `solved`,
how many of those are wrong, and whether `wrong_entries` names the person's mistakes.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/page_answers.py [--count 12] [--seed 7000000]

Pages come from gridsight/synth/half_solved.py in the kinds bench/written_on.py draws
(pen, an app, few entries, light pencil, with shadows, tinted light, creases, stripes),
each as drawn and photographed; every fourth page holds one or two wrong entries. Each
page is read once and solved twice in the same run: by the solver as it is, and by the
baseline, where the puzzle settles a doubt only when the other readings leave no
solution at all, never because the answer stays the same.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
from written_on import WRITTEN_KINDS, WRITTEN_PHOTO_KINDS  # noqa: E402

from gridsight.synth.half_solved import half_solved_page  # noqa: E402
from gridsight.synth.photo import photograph  # noqa: E402
from services.recognizer import RecognitionError, recognize  # noqa: E402
from services.recognizer.shipped_models import load_shipped_models  # noqa: E402
from services.solver import review, settled, solve_page  # noqa: E402


def only_clashes_settle(geo, chosen, solution, doubtful) -> bool:
    """The baseline: every other reading of the doubtful cells has no solution."""
    if not doubtful or len(doubtful) > 3 or any(0 in values for values in doubtful.values()):
        return False  # (at most three doubtful cells were tried)
    return settled.runner_ups_settled(geo, chosen, None, doubtful)


def pictures(count: int, seed0: int):
    """(group, page, picture bytes) for every page."""
    kinds = {name: (options, None) for name, options in WRITTEN_KINDS.items()} | \
        WRITTEN_PHOTO_KINDS
    for i, (name, (options, photo_options)) in enumerate(kinds.items()):
        for k in range(count):
            seed = seed0 + 1000 * i + k
            page = half_solved_page(seed, wrong=(k % 4 == 3) * (1 + k % 2), **options)
            if photo_options is None:
                buffer = io.BytesIO()
                page.image.save(buffer, "PNG")
                yield f"drawn: {name}", page, buffer.getvalue()
            photo, _ = photograph(page.image, rng=np.random.default_rng(seed), fill=(0.6, 0.95),
                                  rotation=8, out_size=(1600, 1200), **(photo_options or {}))
            buffer = io.BytesIO()
            photo.convert("RGB").save(buffer, "JPEG", quality=90)
            yield f"photo: {name}", page, buffer.getvalue()


def outcome(reading, page) -> dict:
    result = solve_page(reading)
    right = result.solution == page.solution
    listed = sorted((w.row, w.col, w.written, w.correct) for w in result.wrong_entries)
    return {"answered": result.status == "solved", "right": right,
            "wrong_as_solved": result.status == "solved" and
            (not right or listed != sorted(page.wrong)),
            "mistakes_named": bool(page.wrong) and listed == sorted(page.wrong)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=12, help="pages per kind")
    parser.add_argument("--seed", type=int, default=7_000_000, help="each kind adds 1000")
    args = parser.parse_args()
    load_shipped_models()
    shipped = review.runner_ups_settled
    totals: dict[str, dict[str, Counter]] = {}
    for group, page, data in pictures(args.count, args.seed):
        counts = totals.setdefault(group, {"baseline": Counter(), "now": Counter()})
        try:
            reading = recognize(data, "sudoku")
        except RecognitionError:
            continue
        for version, rule in (("baseline", only_clashes_settle), ("now", shipped)):
            review.runner_ups_settled = rule
            counts[version].update(outcome(reading, page))
            counts[version]["pages"] += 1
            counts[version]["with mistakes"] += bool(page.wrong)
        review.runner_ups_settled = shipped
    print(f"{args.count} pages a kind, seeds {args.seed}+; per version: answered `solved` / "
          "solved wrongly / solution right (any status) / mistakes named on pages with some")
    print("| group | pages read | baseline | now | solved, now / baseline |")
    print("|---|---|---|---|---|")
    overall = {"baseline": Counter(), "now": Counter()}

    def cell(c: Counter) -> str:
        return (f"{c['answered']} / {c['wrong_as_solved']} / {c['right']} / "
                f"{c['mistakes_named']} of {c['with mistakes']}")

    for group, counts in totals.items():
        for version in overall:
            overall[version].update(counts[version])
        ratio = counts["now"]["answered"] / max(counts["baseline"]["answered"], 1)
        print(f"| {group} | {counts['now']['pages']} | {cell(counts['baseline'])} | "
              f"{cell(counts['now'])} | {ratio:.2f}x |")
    ratio = overall["now"]["answered"] / max(overall["baseline"]["answered"], 1)
    print(f"| all | {overall['now']['pages']} | {cell(overall['baseline'])} | "
          f"{cell(overall['now'])} | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
