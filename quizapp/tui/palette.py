"""The command palette, with Enter that waits for the search of what was typed.

Textual's palette says "No matches found" in English whatever the UI language; here it says
it in the app's (`no_matches`).

Textual's palette searches in a worker while the user types, and Enter picks the highlighted
hit of whatever list is on screen. Typed fast ("export", Enter), the list on screen is still
the previous query's (or the opening list of modes, the first highlighted), so Enter ran a
command the user never asked for. Here an Enter that arrives while the search for the typed
text is still running is held and acted on when that search has listed its hits.
"""

from __future__ import annotations

from typing import Any

from rich.align import Align
from rich.text import Text
from textual import on
from textual.command import CommandList, CommandPalette
from textual.widgets import Input
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

_WORKING = (WorkerState.PENDING, WorkerState.RUNNING)


class QuizPalette(CommandPalette):
    """`CommandPalette` whose Enter acts on the hits of the text typed, not on a stale list."""

    _enter_held = False

    def __init__(self, *args: Any, no_matches: str = "No matches found", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._no_matches_text = no_matches

    def _start_no_matches_countdown(self, search_value: str) -> None:
        # Textual's (8.2.8, pinned exactly), with the text in the app's language.
        self._stop_no_matches_countdown()

        def _show_no_matches() -> None:
            if search_value:
                self.query_one(CommandList).add_option(
                    Option(Align.center(Text(self._no_matches_text, style="not bold")), disabled=True,
                           id=self._NO_MATCHES)
                )
                self._list_visible = True
            else:
                self._list_visible = False  # discovery: nothing to say

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, _show_no_matches)

    def _searching(self) -> bool:
        """Whether the search for the current text is still gathering hits (a search replaced
        by a later keystroke is cancelled, though it may not have stopped yet)."""
        return any(
            worker.node is self and worker.group == self._GATHER_COMMANDS_GROUP
            and worker.state in _WORKING and not worker.is_cancelled
            for worker in self.workers
        )

    @on(Input.Submitted)
    def _hold_enter_until_searched(self, event: Input.Submitted) -> None:
        # Runs before CommandPalette's own Input.Submitted handler (subclass first in the MRO);
        # prevent_default stops that handler for this event.
        if self._searching():
            event.stop()
            event.prevent_default()
            self._enter_held = True

    @on(Input.Changed)
    def _typing_drops_a_held_enter(self, event: Input.Changed) -> None:
        # Typing after Enter means the user is not done: the held Enter was for the text
        # before it. (CommandPalette's own handler still runs and starts the new search.)
        self._enter_held = False

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != self._GATHER_COMMANDS_GROUP or not self._enter_held:
            return
        if event.state in _WORKING or self._searching():
            return
        self._enter_held = False
        if event.state is WorkerState.SUCCESS and not event.worker.is_cancelled:
            self._select_or_command()
