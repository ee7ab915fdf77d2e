"""`quizapp optimize`: fit FSRS parameters to this collection's reviews, save on --yes."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def cmd_optimize(args: argparse.Namespace) -> int:
    from quizapp.cli.db_cmds import db_path
    from quizapp.srs.bootstrap import open_for_reading, prepare
    from quizapp.srs.clock import Clock
    from quizapp.srs.optimize import FitFailed, NotEnoughReviews, fit_collection, reset_parameters, save_fit

    # Without --yes or --reset nothing is written: a read-only database can be fitted too.
    writing = bool(args.yes or args.reset)
    extra = [Path(d) for d in args.content or []]
    path = db_path(args, writing=writing)
    db = prepare(path, extra).db if writing else open_for_reading(path, extra)
    try:
        if args.reset:
            changed = reset_parameters(db)
            if args.json:
                print(json.dumps({"reset": True, "changed": changed}))
            else:
                print("FSRS's default parameters are in force" + ("" if changed else " (they already were)"))
            return 0
        try:
            fit = fit_collection(db, Clock())
        except NotEnoughReviews as exc:
            if args.json:
                print(json.dumps({"ok": False, "reason": "not_enough_reviews", "usable_reviews": exc.usable,
                                  "reviews": exc.reviews, "minimum": exc.usable + exc.needed, "needed": exc.needed}))
            else:
                print(f"quizapp: not fitted: {exc}", file=sys.stderr)
            return 1
        except FitFailed as exc:
            if args.json:
                print(json.dumps({"ok": False, "reason": "fit_failed", "message": str(exc)}))
            else:
                print(f"quizapp: {exc}", file=sys.stderr)
            return 1
        worth_saving = fit.worth_saving
        saved = False
        if args.yes and worth_saving:
            save_fit(db, fit)
            saved = True
    finally:
        db.close()
    if args.json:
        print(json.dumps({"ok": True, **fit.to_json(), "saved": saved}, indent=2))
        return 0
    print(f"{fit.usable_reviews} usable reviews ({fit.reviews} answers, {fit.cards} cards), fitted in {fit.seconds:.2f} s")
    print(f"{'':16}{'log loss':>10}{'RMSE (bins)':>13}")
    rows = [("defaults", fit.defaults)]
    if fit.in_force is not None:
        rows.append(("in force", fit.in_force))
    rows.append(("fitted", fit.fitted))
    for name, figures in rows:
        print(f"{name:16}{figures.log_loss:>10.4f}{figures.rmse_bins:>13.2%}")
    print("fitted parameters: " + ", ".join(f"{value:g}" for value in fit.parameters))
    if not worth_saving:
        print("not saved: the parameters in force predict these reviews at least as well")
    elif saved:
        print(f"saved: the schedule now uses these parameters (fitted {fit.day.isoformat()})")
    else:
        print("not saved: run `quizapp optimize --yes` to use them")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    optimize = sub.add_parser("optimize", help="fit FSRS parameters to your reviews")
    optimize.add_argument("--yes", action="store_true", help="save the fitted parameters (when they predict better)")
    optimize.add_argument("--reset", action="store_true", help="go back to FSRS's default parameters")
    optimize.add_argument("--json", action="store_true")
    optimize.set_defaults(handler=cmd_optimize)
