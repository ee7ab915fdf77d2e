"""Review R14 #1, #2, #3 and #6: layernorm's, ffn's and rope's worked steps and ffn's diagnoses.

- #1 layernorm: x̂ is computed from the printed σ, y from the printed x̂, each to the precision
  it prints, with "(exact: …)" where that differs from the answer; a user who copies the
  printed x̂ and computes y from it is graded all right.
- #2 ffn: the products before the bias are labelled xW₁ and rW₂, never h or y.
- #3 ffn: a y that follows from the user's own h and r names no mistake beyond those named
  upstream; a real mistake on y is still named.
- #6 rope: the rotation shows its arithmetic from the table's cos and sin, and dot is the
  product of the printed q_rot and k_rot, at the precision it prints.
"""

from __future__ import annotations

import re
from decimal import Decimal

import numpy as np

from quizapp.engine import generate, grade, problem_steps
from quizapp.i18n.formatting import num

SEEDS = range(60)
DIFFICULTIES = (1, 2, 3)
LANGS = ("en", "zh")
HALF = Decimal("0.0005")
NOTE = {"en": r"(?: \(exact: (?P<note>[^)]*)\))?$", "zh": r"(?:（精确值 (?P<note>[^）]*)）)?$"}
NOTE_SEP = {"en": ", ", "zh": "、"}


def dec(text: str) -> Decimal:
    return Decimal(text.strip().replace("−", "-").strip("()"))


def cells(text: str) -> list[str]:
    return [x.strip() for x in text.split(",")]


def check(where: str, lang: str, shown: list[str], computed: list[Decimal], exact, note: str | None) -> None:
    """Each printed cell is its computed value to the digits it shows; the note lists, in
    order, the exact value of every printed cell that differs from it (no such cell, no note)."""
    exact = np.ravel(np.asarray(exact, dtype=float)).tolist()
    assert len(shown) == len(computed) == len(exact), where
    for text, value in zip(shown, computed):
        assert abs(dec(text) - value) <= HALF, f"{where}: printed {text}, but its inputs give {value}"
    differing = [num(x) for text, x in zip(shown, exact) if dec(text) != dec(num(x))]
    if differing:
        assert note is not None and note.split(NOTE_SEP[lang]) == differing, f"{where}: note {note!r}, {differing}"
    else:
        assert note is None, f"{where}: note {note!r}, but every printed value is exact"


def _layernorm_lines(problem, lang: str, where: str) -> list[str]:
    lines = problem_steps(problem, lang)
    (line,) = [x for x in lines if x.startswith("x̂ =")]
    m = re.search(r"= \[(?P<dev>[^\]]*)\]/(?P<sigma>[\d.]+) [≈=] \[(?P<out>[^\]]*)\]" + NOTE[lang], line)
    assert m, f"{where}: {line}"
    sigma = m["sigma"]
    assert [row for hint in problem.hints for row in hint.rows if row[0] == round(float(problem.value["var"]), 6)
            ] in ([], [(round(float(problem.value["var"]), 6), float(sigma))]), f"{where}: σ is not the table's"
    x_hat = cells(m["out"])
    check(f"{where} x̂", lang, x_hat, [dec(d) / dec(sigma) for d in cells(m["dev"])], problem.solution["x_hat"],
          m["note"])
    y_line = lines[lines.index(line) + 1]
    if "gamma" in problem.given:
        m = re.search(r"= \[(?P<g>[^\]]*)\]⊙x̂ \+ \[(?P<b>[^\]]*)\] = \[(?P<y>[^\]]*)\]" + NOTE[lang], y_line)
        assert m, f"{where}: {y_line}"
        computed = [dec(g) * dec(x) + dec(b) for g, x, b in zip(cells(m["g"]), x_hat, cells(m["b"]))]
        check(f"{where} y", lang, cells(m["y"]), computed, problem.solution["y"], m["note"])
    else:  # γ = 1, β = 0: y is x̂, said once, on the line above (not repeated with its note)
        assert y_line in ("γ = 1 and β = 0, so y = x̂ (the line above).", "γ = 1、β = 0，所以 y = x̂（即上一行）。"), y_line
        assert np.array_equal(problem.solution["y"], problem.solution["x_hat"]), where
    return x_hat


def test_r14_1_layernorm_lines_hold_and_the_shown_x_hat_is_graded_right():
    en = problem_steps(generate("layernorm", 15, 1), "en")
    assert ("x̂ = (x − μ)/σ = [1.25, −0.75, −0.75, 0.25]/0.8292 ≈ [1.507, −0.904, −0.904, 0.301] "
            "(exact: 1.508, −0.905, −0.905, 0.302)") in en
    zh = problem_steps(generate("layernorm", 15, 1), "zh")
    assert "/0.8292 ≈ [1.507, −0.904, −0.904, 0.301]（精确值 1.508、−0.905、−0.905、0.302）" in "\n".join(zh)
    for difficulty in DIFFICULTIES:
        for seed in (*SEEDS, 59, 128, 138, 195):
            problem = generate("layernorm", seed, difficulty)
            for lang in LANGS:
                x_hat = _layernorm_lines(problem, lang, f"layernorm d{difficulty} seed {seed} {lang}")
            # a user copies μ, σ² and x̂ as the solution writes them and computes y exactly from that x̂
            v = problem.value
            y = [float(Decimal(repr(float(g))) * dec(x) + Decimal(repr(float(b))))
                 for g, x, b in zip(v["gamma"], x_hat, v["beta"])]
            answer = {"mu": repr(float(v["mu"])), "var": repr(float(v["var"])),
                      "x_hat": " ".join(x.replace("−", "-") for x in x_hat), "y": " ".join(map(repr, y))}
            verdict = grade(problem, answer)
            assert verdict.correct, f"layernorm d{difficulty} seed {seed}: {answer} is not all right"


def test_r14_2_ffn_names_the_products_before_the_bias_xw1_and_rw2():
    en = problem_steps(generate("ffn", 0, 2), "en")
    assert "xW₁: component j = x·(column j of W₁)" in en
    assert "  (xW₁)[1] = (−1)×0 + 2×2 = 4" in en
    assert "rW₂: component j = r·(column j of W₂)" in en
    assert "  (rW₂)[2] = 2×0 + 0×(−1) + 0×0 + 4×(−2) = −8" in en
    zh = problem_steps(generate("ffn", 0, 2), "zh")
    assert "xW₁：第 j 个分量 = x·(W₁ 的第 j 列)" in zh and "rW₂：第 j 个分量 = r·(W₂ 的第 j 列)" in zh
    for difficulty in DIFFICULTIES:
        for seed in SEEDS:
            for lang in LANGS:
                steps = "\n".join(problem_steps(generate("ffn", seed, difficulty), lang))
                # h and y are only ever the biased sums
                assert not re.search(r"\b[hy]\[\d\]|h = xW₁[:：]|y = rW₂[:：]", steps), steps
                assert "h = xW₁ + b₁ = " in steps and "y = rW₂ + b₂ = " in steps


def _chain(problem, mistake: str) -> dict[str, str]:
    """A user who makes `mistake` upstream and carries it correctly to y."""
    v = problem.value
    h = v["x"] @ v["W1"] + (0 if mistake in ("forgot_bias", "forgot_bias@b1") else v["b1"])
    r = h if mistake == "forgot_relu" else np.maximum(h, 0)
    y = r @ v["W2"] + (0 if mistake == "forgot_bias" else v["b2"])
    return {name: " ".join(num(x).replace("−", "-") for x in value) for name, value in (("h", h), ("r", r), ("y", y))}


def test_r14_3_a_carried_ffn_output_names_no_mistake_of_its_own():
    v = grade(generate("ffn", 6, 1), {"h": "0 0 1 2", "r": "0 0 1 2", "y": "1 0"})
    assert [(d.part, d.mistake) for d in v.diagnosis] == [("h", "forgot_bias"), ("r", "forgot_bias"),
                                                           ("y", "forgot_bias")]
    v = grade(generate("ffn", 10, 1), {"h": "-1 -1 1 2", "r": "-1 -1 1 2", "y": "-2 1"})
    assert [(d.part, d.mistake) for d in v.diagnosis] == [("r", "forgot_relu"), ("y", "forgot_relu")]
    for difficulty in DIFFICULTIES:
        for seed in range(200):
            problem = generate("ffn", seed, difficulty)
            for mistake in ("forgot_bias", "forgot_bias@b1", "forgot_relu"):
                verdict = grade(problem, _chain(problem, mistake))
                upstream = {d.mistake for d in verdict.diagnosis if d.part != "y"}
                on_y = {d.mistake for d in verdict.diagnosis if d.part == "y"}
                assert on_y <= upstream, f"ffn d{difficulty} seed {seed} {mistake}: {on_y} on y, {upstream} upstream"
            # a real mistake on y itself is still named: right h and r, ReLU on the output
            s = problem.solution
            answer = {name: " ".join(repr(float(x)) for x in value)
                      for name, value in (("h", s["h"]), ("r", s["r"]), ("y", np.maximum(s["y"], 0)))}
            if not (s["y"] < 0).any():
                continue  # ReLU changes nothing: no mistake to see
            assert ("y", "relu_on_output") in [(d.part, d.mistake) for d in grade(problem, answer).diagnosis]


ROTATION = (r"^(?P<name>[qk]_rot) = R\([^)]*\)·\[(?P<x0>[−\d.]+), (?P<x1>[−\d.]+)\][:：] ?"
            r"cos [=≈] (?P<cos>[−\d.]+), sin [=≈] (?P<sin>[−\d.]+) → "
            r"\[(?P<first>[^,\]]*), (?P<second>[^\]]*)\] = \[(?P<products>[^\]]*)\](?: ≈ \[(?P<out>[^\]]*)\])?")


def _op(text: str) -> str:
    return f"({text})" if text.startswith("−") else text


DOT = r"^dot = q_rot·k_rot = (?P<terms>.*) = (?P<dot>[−\d.]+)"


def test_r14_6_rope_shows_the_rotation_and_its_dot_holds_at_the_printed_precision():
    en = problem_steps(generate("rope", 0, 1), "en")
    assert ("q_rot = R(1·1 = 1)·[2, 2]: cos ≈ 0.5403, sin ≈ 0.8415 → [2×0.5403 − 2×0.8415, 2×0.8415 + 2×0.5403] "
            "= [−0.6024, 2.7636] ≈ [−0.602, 2.764]") in en
    assert "dot = q_rot·k_rot = (−0.602)×(−1.325) + 2.764×0.493 = 2.160 (exact: 2.161)" in en
    zh = problem_steps(generate("rope", 0, 1), "zh")
    assert "dot = q_rot·k_rot = (−0.602)×(−1.325) + 2.764×0.493 = 2.160（精确值 2.161）" in zh
    for difficulty in DIFFICULTIES:
        for seed in range(150):
            problem = generate("rope", seed, difficulty)
            tables = {hint.kind: dict(hint.rows) for hint in problem.hints}
            for lang in LANGS:
                where = f"rope d{difficulty} seed {seed} {lang}"
                lines = problem_steps(problem, lang)
                shown = {}
                for line in lines[:2]:
                    m = re.search(ROTATION + NOTE[lang], line)
                    assert m, f"{where}: {line}"
                    x0, x1, cos, sin = (dec(m[k]) for k in ("x0", "x1", "cos", "sin"))
                    c, s_, a, b = (_op(m[k]) for k in ("cos", "sin", "x0", "x1"))
                    assert (m["first"], m["second"]) == (f"{a}×{c} − {b}×{s_}", f"{a}×{s_} + {b}×{c}"), where
                    assert float(cos) in tables["cos_table"].values() and float(sin) in tables["sin_table"].values()
                    products = [dec(p) for p in cells(m["products"])]
                    assert products == [x0 * cos - x1 * sin, x0 * sin + x1 * cos], f"{where}: {line}"
                    out = cells(m["out"]) if m["out"] else cells(m["products"])
                    # the ≈ rounds the products it follows
                    check(f"{where} {m['name']}", lang, out, products, problem.solution[m["name"]], m["note"])
                    assert all(abs(dec(o) - p) <= HALF for o, p in zip(out, products)), where
                    shown[m["name"]] = out
                dot_line = lines[3] if lines[2].startswith("q_rot = [") else lines[2]
                m = re.search(DOT + NOTE[lang], dot_line)
                assert m, f"{where}: {dot_line}"
                terms = [t.split("×") for t in m["terms"].split(" + ")]
                assert [[dec(a), dec(b)] for a, b in terms] == [[dec(a), dec(b)] for a, b in
                                                                zip(shown["q_rot"], shown["k_rot"])], where
                check(f"{where} dot", lang, [m["dot"]], [sum(dec(a) * dec(b) for a, b in terms)],
                      [problem.solution["dot"]], m["note"])
