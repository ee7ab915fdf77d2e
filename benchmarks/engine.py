"""Engine throughput: problems generated *and* graded per second, per type, on one core.

    python benchmarks/engine.py [--seconds 0.5] [--types attention,softmax]

Each problem is generated from its seed and graded against the answer a careful student
types: the solution rounded to 3 decimals, as text (formatting that text is not timed).
A second column grades a classic mistake instead (the type's first, when it has one):
mistake diagnosis, the interval follow-through of the later parts and, where a wrong cell
lands near the truth, the rule's hand paths (`quizapp/engine/rule.py`). A third grades a
slip: one cell of the first part off by 1 and every later part computed from it, so that
each later part is carried by follow-through. All 27 types are listed. The aim (issue 28):
at least 5,000 `attention` problems per second at every difficulty with correct answers,
and 1,000 with wrong ones, on a quiet machine. Note the machine's load (`uptime`) with the
figures: the runs measure CPU time, but a loaded shared machine still lowers them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np

from quizapp.engine import Problem, format_answer, generate, grade, list_types, mistake_variants
from quizapp.engine.family import run_stages

SEEDS = 500


def slipped(problem: Problem) -> dict[str, np.ndarray]:
    """One cell of the first part off by 1, and every later part computed from it: a slip
    the rest of the answer follows through (graded wrong, then carried, part after part)."""
    first = problem.parts[0].name
    env = dict(problem.value)
    env[first] = problem.solution[first] + np.eye(1, problem.solution[first].size).reshape(problem.solution[first].shape)
    run_stages([stage for stage in problem._stages if stage.name != first], env)
    return {spec.name: env[spec.name] for spec in problem.parts}


def prepared(type_id: str, difficulty: int, wrong: str) -> list[tuple[int, dict[str, str]]]:
    cases = []
    for seed in range(SEEDS):
        problem = generate(type_id, seed, difficulty)
        values = dict(problem.solution)
        if wrong == "mistake":
            if not mistake_variants(problem):
                continue
            values.update(next(iter(mistake_variants(problem).values())))
        elif wrong == "slip":
            values.update(slipped(problem))
        cases.append((seed, {name: format_answer(value) for name, value in values.items()}))
    return cases


def throughput(type_id: str, difficulty: int, wrong: str, seconds: float, repeats: int = 3) -> float | None:
    """Best of `repeats` runs of at least `seconds` of CPU time each.

    CPU time (not wall time) of this process is what "one core" means, and it is far less
    disturbed by other work on a shared machine; the best run is the least disturbed one.
    """
    cases = prepared(type_id, difficulty, wrong)
    if not cases:
        return None
    best = 0.0
    for _ in range(repeats):
        done, start = 0, time.process_time()
        while True:
            for seed, answers in cases:
                grade(generate(type_id, seed, difficulty), answers)
            done += len(cases)
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                break
        best = max(best, done / elapsed)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.3, help="CPU time per run (default 0.3; best of 3)")
    parser.add_argument("--types", default="", help="comma-separated type ids (default: all)")
    args = parser.parse_args()
    wanted = [t for t in args.types.split(",") if t] or [t.id for t in list_types()]

    print(f"{'type':16} {'diff':>4} {'correct/s':>10} {'mistake/s':>10} {'slip/s':>10}")
    for type_id in wanted:
        for difficulty in (1, 2, 3):
            figures = [throughput(type_id, difficulty, kind, args.seconds) for kind in ("", "mistake", "slip")]
            texts = " ".join(f"{f:10,.0f}" if f is not None else f"{'-':>10}" for f in figures)
            print(f"{type_id:16} {difficulty:>4} {texts}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
