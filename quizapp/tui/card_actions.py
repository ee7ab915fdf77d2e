"""`n` / `e` in Study and Browse: write a card of your own, or edit the one shown.

In a terminal the app suspends (`App.suspend`) and $VISUAL/$EDITOR edits the YAML form, as
`quizapp add/edit` do (quizapp.srs.card_editing). In the browser there is no terminal to
hand over, and without an editor set there is nothing to run: the same form is then a
TextArea screen (quizapp.tui.screens.card_editor). A card that is not yours (built in, or
from another deck file) is copied as your variant, after asking. The card is written into
your deck file and synced off the UI thread; an edit keeps the card's id, so its progress.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from textual.app import SuspendNotSupported

if TYPE_CHECKING:
    from quizapp.content.models import QAItem
    from quizapp.tui.screens.base import BaseScreen


def start(screen: BaseScreen, payload: dict[str, Any] | None) -> None:
    """Add a card (`payload` None) or edit the item `payload` (a synced item's JSON)."""
    screen.run_worker(_write(screen, payload), group="own-card", exclusive=True, exit_on_error=False)


async def _write(screen: BaseScreen, payload: dict[str, Any] | None) -> None:
    from pydantic import ValidationError

    from quizapp.content.models import QAItem
    from quizapp.srs import card_editing, user_cards
    from quizapp.tui.screens.card_editor import CardEditorScreen
    from quizapp.tui.screens.confirm import ConfirmScreen

    app = screen.quiz_app
    if await app.wait_for_backend() is None:  # a first card shown before the service loaded
        return
    item: QAItem | None = None
    if payload is not None:
        if payload.get("kind") != "qa":
            app.notify(app.tr("cards.qa_only"), severity="warning", timeout=5)
            return
        try:
            item = QAItem.model_validate(payload)
        except ValidationError:
            app.notify(app.tr("cards.unreadable"), severity="error", timeout=6)
            return
    try:
        plan = card_editing.plan_for(item, lang=app.tr.lang)
    except user_cards.DeckUnusable as exc:
        app.notify(str(exc), severity="error", timeout=10)
        return
    if item is not None and plan.item_id != item.id and not await app.push_screen_wait(
            ConfirmScreen("cards.copy_builtin", "cards.copy_builtin.yes", "cards.copy_builtin.no")):
        return
    card: QAItem | None = None
    note: str | None = None
    in_editor = False
    if not app.is_web:
        try:
            card_editing.editor_command()
            with app.suspend():
                in_editor = True
                card = card_editing.edit_in_editor(plan)
        except card_editing.NoEditor:
            note = "cards.no_editor"
        except SuspendNotSupported:
            in_editor = False
    if not in_editor or note is not None:
        card = await app.push_screen_wait(CardEditorScreen(plan, note))
    if card is None:
        app.notify(app.tr("cards.cancelled"), timeout=3)
        return
    try:
        await asyncio.to_thread(card_editing.store_card, card, app.config.db_path, app.config.extra_content)
    except user_cards.DeckUnusable as exc:
        app.notify(str(exc), severity="error", timeout=10)
        return
    app.notify(app.tr("cards.saved", id=card.id, file=user_cards.DECK_NAME), timeout=4)
    await _show_saved(screen, card)


async def _show_saved(screen: BaseScreen, card: QAItem) -> None:
    """The screen shows what was saved (Study the edited card, Browse the card selected):
    each screen says how in `show_saved_card`, so this module imports none of them."""
    await screen.show_saved_card(card)
