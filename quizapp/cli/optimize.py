"""`quizapp optimize`: fit FSRS parameters to this collection's reviews, save on --yes."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.cells import cell_len


def cmd_optimize(args: argparse.Namespace) -> int:
    from quizapp.cli.db_cmds import db_path
    from quizapp.i18n import Translator
    from quizapp.srs.bootstrap import open_for_reading, prepare
    from quizapp.srs.clock import Clock
    from quizapp.srs.optimize import FitFailed, NotEnoughReviews, fit_collection, reset_parameters, save_fit

    t = Translator(args.lang or "en")
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
                print(t("cli.optimize.reset" if changed else "cli.optimize.reset_already"))
            return 0
        try:
            fit = fit_collection(db, Clock())
        except NotEnoughReviews as exc:
            if args.json:
                print(json.dumps({"ok": False, "reason": "not_enough_reviews", "usable_reviews": exc.usable,
                                  "reviews": exc.reviews, "minimum": exc.usable + exc.needed, "needed": exc.needed}))
            else:
                print(t("cli.error_line", message=t("cli.optimize.not_enough", usable=exc.usable, reviews=exc.reviews,
                                                    minimum=exc.usable + exc.needed, needed=exc.needed)),
                      file=sys.stderr)
            return 1
        except FitFailed as exc:
            if args.json:
                print(json.dumps({"ok": False, "reason": "fit_failed", "message": str(exc)}))
            else:
                print(t("cli.error_line", message=t("optimize.failed", message=exc.message(t.lang))), file=sys.stderr)
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
    print(t("cli.optimize.summary", usable=fit.usable_reviews, reviews=fit.reviews, cards=fit.cards,
            seconds=f"{fit.seconds:.2f}"))
    rows = [(t("optimize.row.defaults"), fit.defaults)]
    if fit.in_force is not None:
        rows.append((t("optimize.row.in_force"), fit.in_force))
    rows.append((t("optimize.row.fitted"), fit.fitted))
    width = max(16, *(cell_len(name) + 2 for name, _ in rows))
    log_loss, rmse = t("optimize.col.log_loss"), t("optimize.col.rmse")
    print(" " * (width + max(1, 10 - cell_len(log_loss))) + log_loss + " " * max(1, 13 - cell_len(rmse)) + rmse)
    for name, figures in rows:
        print(name + " " * (width - cell_len(name)) + f"{figures.log_loss:>10.4f}{figures.rmse_bins:>13.2%}")
    print(t("cli.optimize.parameters", parameters=", ".join(f"{value:g}" for value in fit.parameters)))
    if not worth_saving:
        print(t("cli.optimize.not_saved_worse"))
    elif saved:
        print(t("cli.optimize.saved", date=fit.day.isoformat()))
    else:
        print(t("cli.optimize.not_saved"))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    optimize = sub.add_parser("optimize", help="fit FSRS parameters to your reviews")
    optimize.add_argument("--yes", action="store_true", help="save the fitted parameters (when they predict better)")
    optimize.add_argument("--reset", action="store_true", help="go back to FSRS's default parameters")
    optimize.add_argument("--json", action="store_true")
    optimize.set_defaults(handler=cmd_optimize)
