"""Review R9 #1: every equation a worked solution prints holds at the precision it prints.

A softmax row (e^x ≈ table values, sum = Σ → weights), an output row (o_i = Σ weight·row
= result) and the online softmax's running sums and final o = acc/ℓ are recomputed here
from the numbers printed on the line itself, with exact decimal arithmetic: each printed
result must be that value to the digits it shows (within half a unit of its last digit,
at most 3 decimals). Where the printed result differs from the exact value at that
precision, the line says so with a note, "(exact: …)" / "（精确值 …）", listing the exact
value of each such cell in order; where it does not, there is no note. So a solver who
checks their paper against a line finds it true, and the exact values, the expected
answer, are still on the line.

Types: attention, cross_attention, causal_mask, softmax, padding_mask, online_softmax;
seeds 0–49 at each difficulty, both languages.
"""

from __future__ import annotations

import re
from decimal import Decimal

import numpy as np
import pytest

from quizapp.engine import generate
from quizapp.engine.family import problem_prompt, problem_steps
from quizapp.i18n.formatting import num

TYPES = ("attention", "cross_attention", "causal_mask", "softmax", "padding_mask", "online_softmax")
SEEDS = range(50)
DIFFICULTIES = (1, 2, 3)
LANGS = ("en", "zh")
HALF = Decimal("0.0005")

NUMBER = r"[−\d.]+"
NOTE = {"en": r"(?: \(exact: (?P<{name}>[^)]*)\))?", "zh": r"(?:（精确值 (?P<{name}>[^）]*)）)?"}
NOTE_SEP = {"en": ", ", "zh": "、"}
SOFTMAX_ROW = {
    "en": r"e\^\[[^\]]*\] [=≈] \[(?P<e>[^\]]*)\], sum = (?P<total>{n}) → \[(?P<out>[^\]]*)\]{note}$",
    "zh": r"e\^\[[^\]]*\] [=≈] \[(?P<e>[^\]]*)\]，和 = (?P<total>{n}) → \[(?P<out>[^\]]*)\]{note}$",
}
O_ROW = r"^\s*o(?P<i>[₀-₉]+) = (?P<terms>.*) = \[(?P<out>[^\]]*)\]{note}$"
TERM = re.compile(r"(?P<w>[−\d.]+)·\[(?P<row>[^\]]*)\]")
ONLINE_FIRST = {
    "en": r"e\^\(s − m\) ≈ \[(?P<e>[^\]]*)\], ℓ = (?P<l>{n}){nl}; acc = e\^\(s − m\)·v with v = \[(?P<v>[^\]]*)\]: "
          r"(?P<acc>{n}){na}$",
    "zh": r"e\^\(s − m\) ≈ \[(?P<e>[^\]]*)\]，ℓ = (?P<l>{n}){nl}；acc = e\^\(s − m\)·v，v = \[(?P<v>[^\]]*)\]："
          r"(?P<acc>{n}){na}$",
}
ONLINE_NEXT = {
    "en": r"ℓ = (?P<l_old>{n})·(?P<scale>{n}) \+ Σ\[(?P<e>[^\]]*)\] = (?P<l>{n}){nl}; "
          r"acc = (?P<acc_old>{n})·(?P=scale) \+ Σ e\^\(s − m\)·\[(?P<v>[^\]]*)\] = (?P<acc>{n}){na}$",
    "zh": r"ℓ = (?P<l_old>{n})·(?P<scale>{n}) \+ Σ\[(?P<e>[^\]]*)\] = (?P<l>{n}){nl}；"
          r"acc = (?P<acc_old>{n})·(?P=scale) \+ Σ e\^\(s − m\)·\[(?P<v>[^\]]*)\] = (?P<acc>{n}){na}$",
}
ONLINE_FINAL = r"^o = acc/ℓ = (?P<acc>{n})/(?P<l>{n}) = (?P<o>{n}){note}[.,;，；。]"


def _pattern(template: str, lang: str, **notes: str) -> re.Pattern[str]:
    fills = {key: NOTE[lang].format(name=name) for key, name in notes.items()}
    return re.compile(template.format(n=NUMBER, **fills))


def dec(text: str) -> Decimal:
    return Decimal(text.strip().replace("−", "-"))


def numbers(text: str) -> list[Decimal]:
    return [dec(x) for x in text.split(",")]


def printed(text: str) -> list[str]:
    return [x.strip() for x in text.split(",")]


def check(where: str, lang: str, shown: list[str], computed: list[Decimal], exact: list[float],
          note: str | None) -> None:
    """`shown` holds at its precision given `computed` (from the line's own numbers), and the
    note lists the exact value of each shown cell that differs from it, in order."""
    assert len(shown) == len(computed) == len(exact), where
    for text, value in zip(shown, computed):
        decimals = -dec(text).as_tuple().exponent
        assert decimals <= 3, f"{where}: {text} has more than 3 decimals"
        assert abs(dec(text) - value) <= HALF, f"{where}: printed {text}, but its inputs give {value}"
    # the same value to 3 decimals is no difference: 0.45 (exactly, from the printed inputs) and 0.450
    differing = [num(x) for text, x in zip(shown, exact) if dec(text) != dec(num(x))]
    if differing:
        assert note is not None, f"{where}: printed {shown}, exact {[num(x) for x in exact]}, and no note says so"
        assert note.split(NOTE_SEP[lang]) == differing, f"{where}: note {note!r}, differing {differing}"
    else:
        assert note is None, f"{where}: a note {note!r}, but every printed value is exact"


def _softmax_rows(lines: list[str], lang: str, a: np.ndarray, where: str) -> None:
    pattern = _pattern(SOFTMAX_ROW[lang], lang, note="note")
    found = [m for m in map(pattern.search, lines) if m]
    rows = np.atleast_2d(a)
    assert len(found) == rows.shape[0], f"{where}: {len(found)} softmax rows for {rows.shape[0]} rows of A"
    for i, (m, exact) in enumerate(zip(found, rows)):
        e = numbers(m["e"])
        assert dec(m["total"]) == sum(e), f"{where} row {i + 1}: the sum {m['total']} of {m['e']}"
        check(f"{where} row {i + 1}", lang, printed(m["out"]), [x / dec(m["total"]) for x in e],
              list(exact), m["note"])


def _output_rows(lines: list[str], lang: str, o: np.ndarray, where: str) -> None:
    pattern = _pattern(O_ROW, lang, note="note")
    found = [m for m in map(pattern.search, lines) if m]
    assert len(found) == o.shape[0], f"{where}: {len(found)} output rows for {o.shape[0]} rows of O"
    for i, (m, exact) in enumerate(zip(found, o)):
        terms = [(dec(t["w"]), numbers(t["row"])) for t in TERM.finditer(m["terms"])]
        assert terms, f"{where}: no terms in {m['terms']!r}"
        computed = [sum(w * row[j] for w, row in terms) for j in range(len(exact))]
        check(f"{where} o{i + 1}", lang, printed(m["out"]), computed, list(exact), m["note"])


def _online(lines: list[str], lang: str, solution: dict, where: str) -> None:
    first = _pattern(ONLINE_FIRST[lang], lang, nl="l_note", na="acc_note")
    later = _pattern(ONLINE_NEXT[lang], lang, nl="l_note", na="acc_note")
    final = _pattern(ONLINE_FINAL, lang, note="note")
    blocks = len(solution["l"])
    found = [m for m in map(first.search, lines) if m] + [m for m in map(later.search, lines) if m]
    assert len(found) == blocks, f"{where}: {len(found)} block lines for {blocks} blocks"
    for b, m in enumerate(found):
        e, v = numbers(m["e"]), numbers(m["v"])
        carried_l = carried_acc = Decimal(0)
        if b:
            carried_l, carried_acc = dec(m["l_old"]) * dec(m["scale"]), dec(m["acc_old"]) * dec(m["scale"])
        check(f"{where} block {b + 1} ℓ", lang, [m["l"]], [carried_l + sum(e)], [solution["l"][b]], m["l_note"])
        check(f"{where} block {b + 1} acc", lang, [m["acc"]], [carried_acc + sum(x * y for x, y in zip(e, v))],
              [solution["acc"][b]], m["acc_note"])
    ends = [m for m in map(final.search, lines) if m]
    assert len(ends) == 1, f"{where}: {len(ends)} final lines"
    m = ends[0]
    check(f"{where} o", lang, [m["o"]], [dec(m["acc"]) / dec(m["l"])], [float(solution["o"])], m["note"])


@pytest.mark.parametrize("type_id", TYPES)
def test_every_printed_softmax_row_and_output_row_holds_at_its_precision(type_id):
    for difficulty in DIFFICULTIES:
        for seed in SEEDS:
            problem = generate(type_id, seed, difficulty)
            for lang in LANGS:
                lines = problem_steps(problem, lang)
                where = f"{type_id} d{difficulty} seed {seed} {lang}"
                if type_id == "online_softmax":
                    _online(lines, lang, problem.solution, where)
                    continue
                _softmax_rows(lines, lang, problem.solution["A"], where)
                if "O" in problem.solution:
                    _output_rows(lines, lang, problem.solution["O"], where)


def test_the_reviewers_lines_now_hold_and_name_the_exact_value():
    en = problem_steps(generate("cross_attention", 3, 2), "en")
    assert "  o₂ = 0.233·[−1, −1] + 0.384·[0, 1] + 0.384·[−1, 1] = [−0.617, 0.535] (exact: −0.616)" in en
    assert "[1, 1.649, 0.6065], sum = 3.2555 → [0.307, 0.507, 0.186] (exact: 0.506)" in "\n".join(en)
    zh = problem_steps(generate("cross_attention", 3, 2), "zh")
    assert "  o₂ = 0.233·[−1, −1] + 0.384·[0, 1] + 0.384·[−1, 1] = [−0.617, 0.535]（精确值 −0.616）" in zh
    online = "\n".join(problem_steps(generate("online_softmax", 0, 2), "en"))
    assert "o = acc/ℓ = 1.692/1.621 = 1.044 (exact: 1.043)" in online


def test_the_reviews_smaller_wording_items():
    """R9 "Smaller things seen": the online-softmax, weighted_sum and softmax sentences,
    LayerNorm's mean with its negatives in parentheses, and RoPE's offset with U+2212."""
    online = problem_steps(generate("online_softmax", 0, 2), "en")[-1]
    assert "FlashAttention is exact; it just never stores the whole row of scores." in online
    for seed in range(3):
        assert "row i is the sum of V's rows weighted by row i of A" in problem_prompt(generate("weighted_sum", seed), "en")
    assert "over columns it would normalise each key's scores across the queries, a different quantity" in (
        problem_steps(generate("softmax", 0, 2), "en")[-1])
    # the closing lines say a value once: rope's dot_shifted is "dot" (whose line may print
    # 1.166 beside its exact 1.165), and layernorm's y = x̂ does not repeat x̂ and its note
    rope = problem_steps(generate("rope", 0, 3), "en")
    assert "= 1.166 (exact: 1.165)" in rope[-2]
    assert rope[-1].startswith("Shifted: dot_shifted = dot (exact: 1.165). Since R(mθ)ᵀR(nθ)")
    assert problem_steps(generate("rope", 0, 3), "zh")[-1].startswith("平移后：dot_shifted = dot（精确值 1.165）。")
    identity = problem_steps(generate("layernorm", 4, 1), "en")
    assert identity[-3].endswith("(exact: 0.816, 0.816)")
    assert identity[-2] == "γ = 1 and β = 0, so y = x̂ (the line above)."
    mean = problem_steps(generate("layernorm", 0, 3), "en")[0]
    assert mean.startswith("μ = (5 + 3 + 1 + (−2) + (−1))/5")
    for difficulty in DIFFICULTIES:
        for seed in SEEDS:
            problem = generate("layernorm", seed, difficulty)
            assert "+ −" not in problem_steps(problem, "en")[0] and "+ −" not in problem_steps(problem, "zh")[0]
            for lang in LANGS:
                offset = problem_steps(generate("rope", seed, difficulty), lang)[-1]
                assert re.search(r"n − m = −?\d+", offset) and "-" not in offset, offset
