"""No import cycles among quizapp's modules (issue 21 item 4).

The graph is grimp's (the library under import-linter): every static import of one quizapp
module by another, at module level or inside a function, except those under
`if TYPE_CHECKING:` (annotations only; they never run). A function-level import that closes a
cycle is still a cycle in the design, only deferred, so it counts too. Imports through
`importlib` are invisible to grimp; nothing in quizapp resolves its own modules that way.
"""

from __future__ import annotations

from functools import cache

import grimp


@cache
def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("quizapp", include_external_packages=False, exclude_type_checking_imports=True)


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's, iterative)."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(edges[nxt])))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _describe(graph: grimp.ImportGraph, component: list[str]) -> str:
    """The cycle's modules and the import lines that bind them, for the failure message."""
    members = set(component)
    lines = [" ↔ ".join(component)]
    for importer in component:
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & members):
            for detail in graph.get_import_details(importer=importer, imported=imported):
                lines.append(f"    {importer}:{detail['line_number']}: {detail['line_contents']}")
    return "\n".join(lines)


def test_no_import_cycles_among_quizapp_modules() -> None:
    graph = _graph()
    cycles = _cycles(graph)
    assert not cycles, "import cycles among quizapp modules:\n" + "\n".join(_describe(graph, c) for c in cycles)


def test_widgets_never_import_screens() -> None:
    # A widget is a piece a screen is built from: shared pieces live in quizapp.tui or
    # quizapp.tui.widgets, so that a widget can be used (and tested) without any screen.
    graph = _graph()
    offending = sorted(
        f"{widget} -> {imported}"
        for widget in graph.find_descendants("quizapp.tui.widgets")
        for imported in graph.find_modules_directly_imported_by(widget)
        if imported == "quizapp.tui.screens" or imported.startswith("quizapp.tui.screens.")
    )
    assert not offending, "widgets importing screens:\n" + "\n".join(offending)


# What a screen may import from another module of quizapp.tui.screens: the bases screens are
# built on and the dialogs a screen awaits an answer from. A screen it opens is never imported:
# screens navigate through the app (QuizApp.open_mode and the open_* methods).
SHARED_SCREEN_MODULES = {
    "quizapp.tui.screens." + name
    for name in ("base", "session", "session_record", "mock_saver", "mock_quit", "confirm", "fit_dialog")
}
BUILT_ON = {  # a CramScreen is a StudyScreen, a CramQuizScreen a QuizScreen
    ("quizapp.tui.screens.cram", "quizapp.tui.screens.study"),
    ("quizapp.tui.screens.cram", "quizapp.tui.screens.quiz"),
}


def test_screens_never_import_each_other() -> None:
    graph = _graph()
    screens = graph.find_descendants("quizapp.tui.screens")
    offending = sorted(
        f"{screen} -> {imported}"
        for screen in screens
        for imported in graph.find_modules_directly_imported_by(screen) & screens
        if imported not in SHARED_SCREEN_MODULES and (screen, imported) not in BUILT_ON
    )
    assert not offending, "screens importing screens:\n" + "\n".join(offending)


def test_the_cycle_finder_reports_a_cycle() -> None:
    # The test above is only as good as the finder: a hand-made a → b → c → a is reported.
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d"):
        graph.add_module(module)
    graph.add_import(importer="pkg.a", imported="pkg.b", line_number=1, line_contents="import pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.c", line_number=1, line_contents="import pkg.c")
    graph.add_import(importer="pkg.c", imported="pkg.a", line_number=1, line_contents="import pkg.a")
    graph.add_import(importer="pkg.d", imported="pkg.a", line_number=1, line_contents="import pkg.a")
    assert _cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
    assert "pkg.c:1: import pkg.a" in _describe(graph, ["pkg.a", "pkg.b", "pkg.c"])
