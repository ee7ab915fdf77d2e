"""`quizapp add` / `quizapp edit ID`: write one of your own cards in $VISUAL / $EDITOR.

The card goes into your deck file (`my-cards.yaml` in the decks folder) and is synced at
once; `edit` of a built-in card makes your own variant of it (quizapp.srs.card_editing).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from quizapp.cli.errors import UsageError
from quizapp.cli.text_messages import localize_text
from quizapp.i18n import Translator

if TYPE_CHECKING:
    from quizapp.content.models import QAItem


def _item(item_id: str, args: argparse.Namespace) -> QAItem:
    from quizapp.content.models import QAItem
    from quizapp.srs import user_cards
    from quizapp.srs.bootstrap import load_all_content

    try:
        own = user_cards.deck_item(item_id)
    except user_cards.DeckUnusable as exc:
        raise UsageError(localize_text(str(exc), args.lang or "en")) from None
    if own is not None:
        return own
    item = load_all_content([Path(d) for d in args.content]).by_id().get(item_id)
    if item is None:
        raise UsageError(key="cli.error.no_card", id=repr(item_id))
    if not isinstance(item, QAItem):
        raise UsageError(key="cli.error.card_is_mcq", id=repr(item_id))
    return item


def cmd_card(args: argparse.Namespace) -> int:
    from quizapp.cli.db_paths import db_path
    from quizapp.srs import card_editing, user_cards

    t = Translator(args.lang or "en")
    item = _item(args.item_id, args) if args.command == "edit" else None
    try:
        card_editing.editor_command()  # before any work: a clear line if there is no editor
        plan = card_editing.plan_for(item, lang=t.lang)
        if item is not None and plan.variant_of == item.id and plan.item_id != item.id:
            print(t("cli.card.variant", id=item.id, variant=plan.item_id), file=sys.stderr)
        card = card_editing.edit_in_editor(plan)
        if card is None:
            print(t("cli.card.cancelled"), file=sys.stderr)
            return 1
        path = card_editing.store_card(card, db_path(args), tuple(Path(d) for d in args.content))
    except (card_editing.NoEditor, user_cards.DeckUnusable) as exc:
        raise UsageError(localize_text(str(exc), t.lang)) from None
    print(t("cli.card.saved", id=card.id, path=path))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    add = sub.add_parser("add", help="write a new card of your own in $VISUAL/$EDITOR")
    add.set_defaults(handler=cmd_card)
    edit = sub.add_parser("edit", help="edit your card ID in $VISUAL/$EDITOR (a built-in one: your own variant)")
    edit.add_argument("item_id", metavar="ID")
    edit.set_defaults(handler=cmd_card)
