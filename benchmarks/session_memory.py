"""What a long drill session leaves in memory: widgets that outlive their removal.

Each drill problem mounts a fresh answer sheet (a few dozen widgets: cells, marks, texts).
Textual 8.2.8 kept removed widgets alive in two ways (quizapp/tui/textual_leaks.py: a
line cache keyed by the widget, and signal subscriptions that hold it), and restyled the
whole sheet whenever its scroll gained or lost focus (quizapp/tui/focus_styles.py). This
plays the same session twice, each in a fresh process, headless at 80×24: `textual` with
Textual's own code put back, `fixed` as quizapp runs. Each round leaves the cells (Esc), gives up on the
problem (`w`: the worked solution is drawn) and asks for a new one (`n`). After each block of rounds it collects
garbage and reports the `StylesCache` objects alive, the objects the collector tracks, the
process's resident memory, and the CPU a round took over the block.

    python benchmarks/session_memory.py [--rounds 120] [--every 30] [--type attention]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def _session(variant: str, rounds: int, every: int, drill_type: str, folder: Path) -> list[dict[str, float]]:
    from textual._styles_cache import StylesCache
    from textual.widget import Widget
    from textual.worker import WorkerState

    # Textual's own code, before quizapp's fixes are applied on import.
    textuals = StylesCache.get_inner_outer, Widget._on_unmount, Widget.watch_has_focus
    from quizapp.tui.app import make_app

    if variant == "textual":
        StylesCache.get_inner_outer, Widget._on_unmount, Widget.watch_has_focus = textuals  # type: ignore[method-assign]

    app = make_app(db_path=folder / "quizapp.db", lang="en")

    async def settle(pilot) -> None:
        for _ in range(1000):
            await pilot.pause()
            if not any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in app.workers):
                return
            await app.workers.wait_for_complete()
        raise RuntimeError("the app did not settle")

    clock = {"cpu": time.process_time(), "round": 0}

    def figures(round_: int) -> dict[str, float]:
        # CPU a round over the block (before this collection, which is not the app's).
        cpu = time.process_time()
        per_round = (cpu - clock["cpu"]) / max(1, round_ - clock["round"]) * 1000
        gc.collect()
        objects = gc.get_objects()
        row = {"round": round_, "styles_caches": sum(1 for o in objects if type(o) is StylesCache),
               "gc_objects": len(objects), "rss_mb": round(_rss_mb(), 1), "cpu_ms_per_round": round(per_round)}
        clock.update(cpu=time.process_time(), round=round_)
        return row

    rows = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_mode("drill", type=drill_type)
        await settle(pilot)
        rows.append(figures(0))
        for round_ in range(1, rounds + 1):
            await pilot.press("escape", "w")  # out of the cells (the keys would be typed), give up
            await settle(pilot)
            await pilot.press("n")
            await settle(pilot)
            if round_ % every == 0 or round_ == rounds:
                rows.append(figures(round_))
    return rows


def _child(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="quizapp-session-memory-") as folder:
        rows = asyncio.run(_session(args.variant, args.rounds, args.every, args.type, Path(folder)))
    print(json.dumps(rows))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=120)
    parser.add_argument("--every", type=int, default=30)
    parser.add_argument("--type", default="attention", help="the drill type played (default: attention)")
    parser.add_argument("--variant", choices=("textual", "fixed"), help=argparse.SUPPRESS)  # one child's run
    args = parser.parse_args()
    if args.variant:
        return _child(args)
    results = {}
    for variant in ("textual", "fixed"):
        with tempfile.TemporaryDirectory(prefix="quizapp-session-memory-home-") as home:
            out = subprocess.run([sys.executable, __file__, "--variant", variant, "--rounds", str(args.rounds),
                                  "--every", str(args.every), "--type", args.type],
                                 capture_output=True, text=True, cwd=REPO,
                                 env={**os.environ, "QUIZAPP_DATA_DIR": home})
        if out.returncode != 0:
            print(out.stderr, file=sys.stderr)
            return 1
        results[variant] = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"{args.type} drills, 80x24, headless: after each block of rounds (give up, new problem)")
    print(f"{'round':>5} | {'StylesCache alive':>19} | {'objects tracked':>17} | {'RSS MB':>15} | {'CPU ms a round':>15}")
    print(f"{'':>5} | {'textual':>9} {'fixed':>9} | {'textual':>8} {'fixed':>8} | {'textual':>7} {'fixed':>7} | "
          f"{'textual':>7} {'fixed':>7}")
    for old, new in zip(results["textual"], results["fixed"], strict=True):
        print(f"{old['round']:>5} | {old['styles_caches']:>9} {new['styles_caches']:>9} | "
              f"{old['gc_objects']:>8} {new['gc_objects']:>8} | {old['rss_mb']:>7} {new['rss_mb']:>7} | "
              f"{old['cpu_ms_per_round'] if old['round'] else '':>7} {new['cpu_ms_per_round'] if new['round'] else '':>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
