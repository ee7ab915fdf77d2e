"""`quizapp export` and `quizapp import`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from quizapp.cli.errors import UsageError

if TYPE_CHECKING:
    from quizapp.i18n import Translator


def cmd_export(args: argparse.Namespace) -> int:
    if args.schema:
        from quizapp.store.export_schema import json_schema

        print(json.dumps(json_schema(), ensure_ascii=False, indent=2))
        return 0
    if not args.format or not args.output:
        raise UsageError(key="cli.error.export_needs")
    from quizapp.atomic import STDOUT, resolve
    from quizapp.cli.db_cmds import db_path
    from quizapp.srs.bootstrap import open_for_reading
    from quizapp.store import transfer

    out = Path(args.output)
    to_stdout = args.output == STDOUT
    if not to_stdout:
        real = resolve(out)  # a symlink is followed: its target is what gets written
        if not real.parent.exists():
            raise UsageError(key="cli.error.folder_missing", folder=real.parent)
        if real.is_dir():
            raise UsageError(key="cli.error.out_is_folder", path=out)
        if real.exists() and not (real.is_file() or real.is_char_device() or real.is_fifo() or real.is_block_device()):
            raise UsageError(key="cli.error.not_file_or_device", path=out)
    source_db = db_path(args, writing=False)
    if not to_stdout and _same_file(out, source_db):
        raise UsageError(key="cli.error.export_to_db", path=out)
    db = open_for_reading(source_db)
    try:
        count = transfer.export_to(db, args.format, out)
    except OSError as exc:
        # Disk full, a file-size limit, no permission: the previous file is untouched.
        raise UsageError(key="cli.error.cannot_write", path=out, reason=exc.strerror or exc) from exc
    finally:
        db.close()
    # With `-o -` the export itself is standard output: the summary goes to stderr.
    summary = sys.stderr if to_stdout else sys.stdout
    if args.json:
        print(json.dumps({"file": str(out), "format": args.format, "items": count}), file=summary)
    else:
        print(_translator(args)("cli.transfer.exported", path=out, count=count, format=args.format), file=summary)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    source = Path(args.file)
    if not source.is_file():
        raise UsageError(key="cli.error.file_not_found", path=source)
    if source.suffix.lower() in (".yaml", ".yml"):
        return _import_deck(source, args.json, args.replace, _translator(args))
    from quizapp.cli.db_cmds import db_path
    from quizapp.cli.text_messages import localize_finding
    from quizapp.paths import is_server_url
    from quizapp.srs.bootstrap import prepare
    from quizapp.srs.settings import setting_problem
    from quizapp.store.import_progress import publishing
    from quizapp.store.transfer import ImportFormatError, check_export_file, check_settings, clock_skew, import_file

    path = db_path(args)  # an unusable database path first: it is one line, whatever the file
    if _same_file(source, path):
        raise UsageError(key="cli.error.import_from_db", path=source)
    # Checked record by record before the database is even opened (a bad file costs no
    # lock and changes nothing), then written in one transaction, read again record by
    # record: memory stays flat whatever the file's size (quizapp.store.import_stream).
    try:
        checked = check_export_file(source)
        check_settings(checked, setting_problem)
    except OSError as exc:
        raise UsageError(key="cli.error.cannot_read", path=source, reason=exc.strerror or exc) from exc
    except ImportFormatError as exc:
        t = _translator(args)
        for line in exc.errors[:-1]:
            print(t("cli.error_line", message=localize_finding(str(source), line, t.lang)), file=sys.stderr)
        last = localize_finding(str(source), exc.errors[-1], t.lang)
        raise UsageError(last if len(exc.errors) == 1 else t("cli.transfer.nothing_imported", message=last)) from None
    skew = clock_skew(checked)
    if skew is not None:
        t = _translator(args)
        print(t("cli.error_line", message=t("cli.transfer.clock_ahead", path=source, days=skew.days)), file=sys.stderr)
    prepared = prepare(path)
    try:
        # Other quizapps' writes wait for this one transaction; their busy notice says how
        # far it is (quizapp.store.import_progress).
        if is_server_url(str(path)):  # no folder beside the database: through the server
            from quizapp.store.pg import publishing_on_server

            announced = publishing_on_server(str(path))
        else:
            announced = publishing(path)
        with prepared.db.transaction(write=True) as tx, announced as progress:
            session = tx.session()
            result = import_file(session, checked, progress)
    except OSError as exc:  # the file changed or vanished between the check and the write
        raise UsageError(key="cli.error.cannot_read_nothing_imported", path=source, reason=exc.strerror or exc) from exc
    except ImportFormatError as exc:
        t = _translator(args)
        raise UsageError(t("cli.transfer.changed_while_importing",
                           message=localize_finding(str(source), exc.errors[-1], t.lang))) from None
    finally:
        prepared.db.close()
    if args.json:
        print(json.dumps({"file": str(source), "kind": "export", **result}))
    else:
        print(_translator(args)("cli.transfer.imported", path=source, reviews=result["reviews_added"],
                                cards=result["cards_updated"], unknown=result["items_unknown"]))
    return 0


def _translator(args: argparse.Namespace) -> Translator:
    """The language of the text output: `--lang`, else the stored one (cli/main.py sets it)."""
    from quizapp.i18n import Translator

    return Translator(getattr(args, "lang", None) or "en")


def _same_file(source: Path, db: Path | str) -> bool:
    """Whether `source` is the database or its -wal/-shm (compared by inode: reading it would
    drop this process's SQLite locks once the database is open, quizapp.store.preflight)."""
    import os

    if isinstance(db, str):  # a PostgreSQL database: no file of its own here
        return False
    try:
        st = os.stat(source)
    except OSError:
        return False
    for candidate in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        try:
            other = os.stat(candidate)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) == (other.st_dev, other.st_ino):
            return True
    return False


def _deck_collisions(result, target: Path) -> list[tuple[str, str]]:
    """Ids of the new deck already used by the built-in content or another user deck."""
    from quizapp.content.loader import content_files, load_builtin, load_file
    from quizapp.paths import user_decks_dir

    taken: dict[str, str] = {item.id: "the built-in content" for item in load_builtin().items}
    decks = user_decks_dir()
    if decks.is_dir():
        for other in content_files(decks):
            if other.resolve() == target.resolve():
                continue  # the deck being replaced
            for item in load_file(other).items:
                taken.setdefault(item.id, other.name)
    return [(item.id, taken[item.id]) for item in result.items if item.id in taken]


def _import_deck(source: Path, as_json: bool = False, replace: bool = False, t: Translator | None = None) -> int:
    """Validate a YAML deck and copy it into the user decks folder (loaded on every start).

    Refused: invalid items, ids that the built-in content or another deck already use,
    and — without --replace — a deck whose file name is already taken.
    """
    from quizapp.atomic import atomic_write
    from quizapp.cli.text_messages import finding_text
    from quizapp.content.files import printable_path, usable_name
    from quizapp.content.loader import ContentError, load_file, read_deck_bytes
    from quizapp.i18n import Translator
    from quizapp.paths import user_decks_dir

    t = t or Translator("en")

    if not usable_name(source.name):
        raise UsageError(key="cli.error.deck_bad_name", name=printable_path(source.name))
    decks = user_decks_dir()
    target = decks / source.name
    if target.exists() and not replace:
        raise UsageError(key="cli.error.deck_taken", name=source.name)
    # Read once: the bytes validated are the bytes installed, whatever happens to the file
    # meanwhile (a swap during validation must not install another deck).
    try:
        data = read_deck_bytes(source)
    except OSError as exc:
        raise UsageError(key="cli.error.cannot_read", path=printable_path(source), reason=exc.strerror or exc) from exc
    result = load_file(source, data=data)
    if not result.errors:
        result.errors.extend(ContentError(str(source), item_id, "id", f"already used by {owner}")
                             for item_id, owner in _deck_collisions(result, target))
    if result.errors:
        if as_json:
            print(json.dumps({"file": str(source), "kind": "deck", "ok": False,
                              "errors": [e.as_dict() for e in result.errors]}, ensure_ascii=False))
            return 1
        for error in result.errors:
            print(t("cli.content.error", finding=finding_text(error, t.lang)))
        print(t("cli.transfer.deck_not_imported", path=source, errors=len(result.errors)))
        return 1
    decks.mkdir(parents=True, exist_ok=True)
    with atomic_write(target, "wb") as fh:  # a copy appears whole or not at all
        fh.write(data)
    if as_json:
        print(json.dumps({"file": str(target), "kind": "deck", "ok": True, "qa": len(result.qa), "mcq": len(result.mcq)}))
    else:
        print(t("cli.transfer.deck_added", path=target, qa=len(result.qa), mcq=len(result.mcq)))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    export = sub.add_parser("export", help="export progress (json, csv) or an Anki deck (apkg)")
    export.add_argument("--format", choices=["json", "json.gz", "json.xz", "csv", "apkg"],
                        help="json (compressed when FILE ends in .gz or .xz), json.gz, json.xz, csv or apkg")
    export.add_argument("-o", "--output", metavar="FILE")
    export.add_argument("--schema", action="store_true", help="print the JSON export format as JSON Schema")
    export.add_argument("--json", action="store_true")
    export.set_defaults(handler=cmd_export)

    imp = sub.add_parser("import", help="import a JSON export, or a YAML deck into your decks folder")
    imp.add_argument("file", metavar="FILE")
    imp.add_argument("--json", action="store_true")
    imp.add_argument("--replace", action="store_true", help="replace an imported deck of the same file name")
    imp.set_defaults(handler=cmd_import)
