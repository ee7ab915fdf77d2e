"""Add or edit one of your cards in $VISUAL / $EDITOR, as `git commit` edits its message.

The form goes to a temporary `.yaml` file and the editor runs on it. On save the card is
validated; with problems, the editor opens again on what was written, the problems at its
top as comments. An empty form, or one left as it was, cancels. Used by `quizapp add/edit`
and, through `App.suspend`, by the TUI.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from quizapp.content.models import QAItem
from quizapp.srs import user_cards


class NoEditor(Exception):
    """Neither $VISUAL nor $EDITOR is set (or the command cannot be run)."""


NO_EDITOR = "no editor: set $VISUAL or $EDITOR (e.g. export EDITOR=nano)"


def editor_command() -> list[str]:
    """$VISUAL, else $EDITOR, split as a shell would (`code --wait` is two words)."""
    for name in ("VISUAL", "EDITOR"):
        value = os.environ.get(name, "").strip()
        if value:
            try:
                words = shlex.split(value)
            except ValueError:
                raise NoEditor(f"${name} cannot be read as a command: {value!r}") from None
            if words:
                return words
    raise NoEditor(NO_EDITOR)


def run_editor(path: Path) -> None:
    """Run the editor on `path` and wait for it; NoEditor if it cannot be started."""
    command = editor_command()
    try:
        subprocess.run([*command, str(path)], check=False)  # the user's own editor, on our temporary file
    except OSError as exc:
        raise NoEditor(f"the editor {command[0]!r} cannot be run: {exc.strerror or exc}") from None


@dataclass(frozen=True)
class Plan:
    """What is being edited: the form's first text, the card id it saves to, its link."""

    form: str
    item_id: str
    variant_of: str | None = None
    is_new: bool = True


def plan_for(item: QAItem | None, folder: Path | None = None, lang: str = "en") -> Plan:
    """A new card (None); your own card `item` (edited in place, same id: progress kept);
    or anyone else's, built-in or another deck's, copied as your variant. The form's
    comments are in `lang`."""
    if item is None:
        return Plan(user_cards.card_form(lang=lang), user_cards.new_id())
    if user_cards.in_deck(item.id, folder):
        return Plan(user_cards.card_form(item, lang), item.id, item.variant_of, is_new=False)
    variant = user_cards.variant_of_item(item)
    return Plan(user_cards.card_form(variant, lang), variant.id, item.id)


def edit_in_editor(plan: Plan, edit: Callable[[Path], None] = run_editor, max_rounds: int = 20) -> QAItem | None:
    """Edit `plan`'s form until it is a valid card (returned) or cancelled (None)."""
    with tempfile.TemporaryDirectory(prefix="quizapp-card-") as folder:
        path = Path(folder) / "card.yaml"
        text = plan.form
        for _ in range(max_rounds):
            path.write_text(text, encoding="utf-8")
            edit(path)
            try:
                written = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return None  # the editor removed the file (or wrote no text): nothing to keep
            result = user_cards.read_form(written, plan.item_id, plan.variant_of, template=plan.form)
            # Empty, still the first form, or saved as it was opened (even with its errors): cancel.
            if result.cancelled or user_cards.strip_comments(written) == user_cards.strip_comments(text):
                return None
            if result.item is not None:
                return result.item
            text = user_cards.with_problems(written, result.problems)
    return None


def store_card(item: QAItem, db_path: Path | str | None, extra_content: tuple[Path, ...] = ()) -> Path:
    """Write `item` into your deck file and sync it into the database at once (the same id
    keeps its progress). The deck file's path is returned."""
    from quizapp.srs.bootstrap import prepare

    path = user_cards.save_card(item)
    prepare(db_path, extra_content).db.close()
    return path
