"""Drill: one hand-calculation problem on an `AnswerSheet`, graded and stored, then the next.

The picker (`drill_picker.py`) opens this screen on a type, or on "study the due drill
skills". The data goes one way: a worker asks `DrillService.start` for each problem (and
whether grading it reviews its skill card); the sheet checks the typed cells itself; a
submitted answer goes to `DrillService.submit` in a worker, which grades it with the engine
and stores the attempt (rating the skill card for a due review, in the same transaction),
and the verdict comes back to the sheet to be marked. A format error is not an attempt: it
is shown at the cell it concerns.

A skill that is due counts as its review the first time it is graded or given up, whether
it came from the due queue or was picked as a type (`DrillService.start` asks before the
first problem is shown), and is labelled "due review". Any other problem — a type whose skill card is new or not yet due, a retry, the
next problem after the review — is practice (labelled so) and leaves the schedule alone, as
Anki's custom study does. Studying the due skills goes through them one after another
("3 of 16"); `n` skips to the next one.
"""

from __future__ import annotations

import asyncio
from enum import StrEnum
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Header, Static
from textual.worker import Worker, WorkerState

from quizapp.drill_types import DRILL_TYPES
from quizapp.tui.drill_seeds import DIFFICULTIES, new_seed
from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.widgets.answer_sheet import AnswerSheet
from quizapp.tui.widgets.keys_footer import KeysFooter
from quizapp.tui.widgets.removal import being_removed

if TYPE_CHECKING:
    from quizapp import engine
    from quizapp.srs.drills import DrillStart, Submission
    from quizapp.srs.views import StudyCard


class DrillPhase(StrEnum):
    LOADING = "loading"  # fetching the next due skill
    SOLVING = "solving"
    SAVING = "saving"  # submitted: grading and storing in a worker
    GRADED = "graded"


class DrillScreen(BaseScreen):
    CSS_PATH = "drill.tcss"

    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", id="drill.submit"),
        Binding("escape", "leave_cells", "Done typing", id="drill.leave"),
        Binding("escape", "back", "Back", id="drill.back"),
        Binding("n", "new_problem", "New problem", id="drill.new"),
        Binding("r", "retry", "Retry", id="drill.retry"),
    ]

    phase: reactive[DrillPhase] = reactive(DrillPhase.LOADING, bindings=True, init=False)

    class Started(Message):
        """The next problem from `DrillService.start` (None: no due skill is left)."""

        def __init__(self, start: DrillStart | None) -> None:
            super().__init__()
            self.start = start

    class Stored(Message):
        """A submitted answer, graded (and stored unless it had a format error)."""

        def __init__(self, sheet: AnswerSheet, submission: Submission, gave_up: bool = False) -> None:
            super().__init__()
            self.sheet = sheet
            self.submission = submission
            self.gave_up = gave_up

    def __init__(
        self,
        type: str | None = None,
        seed: int | None = None,
        difficulty: int | None = None,
        due: bool = False,
    ) -> None:
        super().__init__(id="drill")
        self.start_type = type
        self.start_seed = seed
        self.difficulty = difficulty if difficulty in DIFFICULTIES else 1
        self.due_mode = due
        self.due_card: StudyCard | None = None  # the due skill on screen, while studying them
        self.due_total = 0  # due skills when the session started
        self.due_shown = 0  # of which this is the n-th
        self.skipped_cards: list[int] = []
        self.rated = False  # the problem on screen has already been stored as a review
        self.type_due = False  # the picked type's skill card is due: its next grade reviews it
        self.problem: engine.Problem | None = None
        self.shown_at = 0.0
        self._swapping = asyncio.Lock()  # one sheet replaces another at a time (ids are reused)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="drill-loading", markup=False)
        yield Container(id="drill-sheet-holder")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.call_later(self._start)

    async def _start(self) -> None:
        if self.due_mode:
            self._fetch_due(list(self.skipped_cards))
        elif self.start_type in DRILL_TYPES:
            seed = self.start_seed if self.start_seed is not None else new_seed()
            self._fetch_type_due(self.start_type, seed)  # the problem is shown once this is known
        else:
            self.notify(self.t("drill.unknown_type", type=self.start_type), severity="error")
            self.quiz_app.open_drill_picker(self.difficulty, replace=True)

    @property
    def sheet(self) -> AnswerSheet | None:
        sheets = self.query(AnswerSheet)
        return sheets.first() if sheets else None

    # -- workers ------------------------------------------------------------------------
    @work(thread=True, exclusive=True, exit_on_error=False, group="drill-due")
    def _fetch_due(self, exclude: list[int]) -> None:
        self.post_message(self.Started(self.drills.start(
            seed=new_seed(), difficulty=self.difficulty, exclude=exclude, due_total=self.due_total or None)))

    @work(thread=True, exclusive=True, exit_on_error=False, group="drill-due")
    def _fetch_type_due(self, type_id: str, seed: int) -> None:
        self.post_message(self.Started(self.drills.start(type_id, seed=seed, difficulty=self.difficulty)))

    def _practice(self, type_id: str, seed: int, difficulty: int) -> engine.Problem:
        """A problem that reviews nothing (a retry, the next one, or no database to ask)."""
        start = self.drills.start(type_id, seed=seed, difficulty=difficulty, practice=True)
        assert start is not None
        return start.problem

    # Not exclusive: every graded attempt must be written, even if the user moves on
    # before the previous write has finished.
    @work(thread=True, exit_on_error=False, group="drill-store")
    def _submit(
        self, sheet: AnswerSheet, answers: dict[str, str], duration_ms: int, review_card: bool, gave_up: bool
    ) -> None:
        # A busy database is waited out (with a notice): nothing answered is lost.
        drills, problem = self.drills, sheet.problem
        submission = self.db_write(
            lambda: drills.submit(problem, answers, duration_ms, review_card=review_card, gave_up=gave_up))
        self.post_message(self.Stored(sheet, submission, gave_up))

    @on(Worker.StateChanged)
    async def _due_check_failed(self, event: Worker.StateChanged) -> None:
        # BaseScreen's handler (Textual calls it too) shows the notice or the error dialog.
        if event.state != WorkerState.ERROR or event.worker.group != "drill-due" or self.problem is not None:
            return
        # The database could not say what is due: never leave the screen on "loading".
        if self.due_mode:
            self.dismiss()  # nothing to show without the due queue
        elif self.start_type is not None:
            # The picked type is still worth solving; it counts as practice (its skill card
            # is left as it is, so nothing is lost).
            self.type_due = False
            seed = self.start_seed if self.start_seed is not None else new_seed()
            await self.show_problem(self._practice(self.start_type, seed, self.difficulty))

    async def on_drill_screen_started(self, message: Started) -> None:
        start = message.start
        if start is None:
            self.notify(self.t("drill.no_due"), timeout=4)
            self.dismiss()
            return
        if self.due_mode:
            self.due_total = start.due_total
            self.due_shown += 1
            self.due_card = start.card
        else:
            self.type_due = start.review
        await self.show_problem(start.problem)

    # -- the problem --------------------------------------------------------------------
    def _labels(self) -> tuple[str, ...]:
        if not self.due_mode:
            return (self.t("drill.due_review" if self.type_due else "drill.practice"),)
        total = max(self.due_total, self.due_shown)
        return (self.t("drill.due_review"), self.t("drill.due_progress", n=self.due_shown, total=total))

    async def show_problem(self, problem: engine.Problem, *, rated: bool = False) -> None:
        """Show a fresh problem (or the same one again, on retry) on a new sheet."""
        async with self._swapping:
            self.problem = problem
            self.rated = rated
            holder = self.query_one("#drill-sheet-holder")
            await holder.remove_children()
            sheet = AnswerSheet(problem, labels=self._labels())
            sheet.next_keys = self.t("drill.result.next_keys")
            sheet.can_give_up = True
            await holder.mount(sheet)
            if being_removed(sheet):
                return  # the screen is closing (a quit): the sheet was never filled in
            self.phase = DrillPhase.SOLVING
            sheet.focus_first()
            self.shown_at = self.quiz_app.clock.monotonic()

    def watch_phase(self, phase: DrillPhase) -> None:
        loading = self.query_one("#drill-loading", Static)
        loading.display = phase == DrillPhase.LOADING
        self.query_one("#drill-sheet-holder").display = phase != DrillPhase.LOADING

    # -- submitting -----------------------------------------------------------------------
    def action_submit(self) -> None:
        sheet = self.sheet
        if sheet is not None and self.phase == DrillPhase.SOLVING:
            sheet.submit()

    @on(AnswerSheet.Submitted)
    def _submitted(self, event: AnswerSheet.Submitted) -> None:
        if self.phase != DrillPhase.SOLVING:
            return
        duration_ms = max(0, int((self.quiz_app.clock.monotonic() - self.shown_at) * 1000))
        review_card = (self.due_mode or self.type_due) and not self.rated
        self.phase = DrillPhase.SAVING
        event.sheet.show_checking(True)
        self._submit(event.sheet, event.answers, duration_ms, review_card, isinstance(event, AnswerSheet.GaveUp))

    def on_drill_screen_stored(self, message: Stored) -> None:
        sheet, submission = message.sheet, message.submission
        if sheet is not self.sheet:
            return  # an earlier problem's attempt: stored, but no longer on screen
        if submission.attempt is None:
            self.phase = DrillPhase.SOLVING
            sheet.show_format_errors(submission.verdict)
            return
        attempt = submission.attempt
        self.rated = self.rated or attempt.rating is not None
        if attempt.rating is not None:
            self.type_due = False  # reviewed: the type's further problems are practice
        status = self.t("drill.result.saved", id=attempt.attempt_id)
        if message.gave_up:
            status = self.t("drill.result.gave_up") + "  " + status
        if attempt.rating is not None:
            status += "  " + self.t("drill.result.rated", rating=self.t(f"rating.{attempt.rating}"))
        self.phase = DrillPhase.GRADED
        sheet.show_verdict(submission.verdict, status)
        if message.gave_up:
            sheet.show_solution()

    # -- keys ---------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Asked for every binding at each refresh of the footer: the sheet (a query of the
        # whole screen) only where it decides.
        if action == "submit":
            return self.phase == DrillPhase.SOLVING
        if action == "leave_cells":
            sheet = self.sheet
            return self.phase == DrillPhase.SOLVING and sheet is not None and sheet.focus_in_answers()
        if action == "retry":
            return self.phase == DrillPhase.GRADED
        if action == "new_problem":
            return self.phase in (DrillPhase.SOLVING, DrillPhase.GRADED)
        return True

    def action_leave_cells(self) -> None:
        sheet = self.sheet
        if sheet is not None:
            sheet.work.focus()

    def action_back(self) -> None:
        below = self.app.screen_stack[-2] if len(self.app.screen_stack) > 1 else None
        if below is not None and below.id != "home":
            self.dismiss()  # back where it was opened: the picker, or Stats (a frequent mistake)
        else:  # opened straight on a problem (`--start drill --type …`): back to the picker
            self.quiz_app.open_drill_picker(self.difficulty, replace=True)

    async def action_new_problem(self) -> None:
        problem = self.problem
        if problem is None:
            return
        if self.due_mode:
            if self.due_card is not None and not self.rated:
                self.skipped_cards.append(self.due_card.card.card_id)  # skipped: not again this session
            self.phase = DrillPhase.LOADING
            self._fetch_due(list(self.skipped_cards))
            return
        await self.show_problem(self._practice(problem.type, new_seed(), problem.difficulty))

    async def action_retry(self) -> None:
        if self.phase == DrillPhase.GRADED and self.problem is not None:
            await self.show_problem(self.problem, rated=self.rated)  # a due card is rated once

    # -- texts ----------------------------------------------------------------------------
    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("drill.title")
        # A picked type is being prepared, not looked for among the due skills.
        loading = "drill.loading" if self.due_mode else "drill.loading_type"
        self.query_one("#drill-loading", Static).update(self.t(loading, type=self.start_type or ""))
        sheet = self.sheet
        if sheet is not None:
            sheet.labels = self._labels()
            sheet.next_keys = self.t("drill.result.next_keys")
            sheet.render_texts()
