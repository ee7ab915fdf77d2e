"""`rope`: rotary position embedding of a 2-D pair, and why q·k depends only on the offset
(seed 002 §7.19).

A pair (x₀, x₁) at position m is rotated by the angle mθ:
R(mθ)x = (x₀cos mθ − x₁sin mθ, x₀sin mθ + x₁cos mθ). Given q, k (2-D), positions m, n and θ
(radians); parts `q_rot`, `k_rot`, `dot` = q_rot·k_rot, and `dot_shifted`, the same with
both positions moved by `shift` — equal to `dot`, since only n − m matters. Mistakes:
`rope_wrong_direction` (rotating by −mθ: the sin terms' signs swapped), `rope_shift_one_side`
(dot_shifted with only q, or only k, moved).
"""

from __future__ import annotations

from decimal import Decimal

import numpy as np

from quizapp.engine.explain import shown_results
from quizapp.engine.family import Family, Stage, need_finite, need_ndim
from quizapp.engine.generators.common import part
from quizapp.engine.ops import table_rows, tabled
from quizapp.engine.sampling import MAX_TRIES, int_blocks, pick
from quizapp.engine.text import MINUS, decimal, decimal_text, num, signed, table_num, vec, written
from quizapp.engine.types import Hint, InputError
from quizapp.i18n import Translator

# difficulty -> (theta choices, position range, vector range)
SETUPS = {1: ((0.5, 1.0), (0, 2), (0, 2)), 2: ((0.25, 0.5, 1.0), (1, 3), (-1, 2)), 3: ((0.2, 0.3, 0.5), (1, 5), (-2, 3))}


def rotate(calc, x, angle, which=""):
    """R(angle)·x; `which` ("q" or "k") names the vector, for the mistake of rotating only
    that one the wrong way (at m = 0 or n = 0 it is the only way the mistake shows)."""
    cos, sin = tabled(calc, "cos_table", np.cos, angle), tabled(calc, "sin_table", np.sin, angle)
    if calc.mistake in ("rope_wrong_direction", f"rope_wrong_direction@{which}"):
        sin = -sin
    return np.array([x[0] * cos - x[1] * sin, x[0] * sin + x[1] * cos], dtype=float)


def q_stage(calc, q, m, theta):
    return rotate(calc, q, m * theta, "q")


def k_stage(calc, k, n, theta):
    return rotate(calc, k, n * theta, "k")


def dot_stage(calc, q_rot, k_rot):
    return np.asarray(q_rot @ k_rot, dtype=float)


def shifted_stage(calc, q, k, m, n, shift, theta):
    q_shift = 0 if calc.mistake == "rope_shift_one_side@k" else shift
    k_shift = 0 if calc.mistake == "rope_shift_one_side@q" else shift
    return np.asarray(rotate(calc, q, (m + q_shift) * theta, "q") @ rotate(calc, k, (n + k_shift) * theta, "k"),
                      dtype=float)


def _table(value: float) -> str:
    """A sin/cos as its table row gives it (4 decimals), '≈' when that is rounded."""
    shown = round(float(value), 4) + 0.0
    return f"{'=' if shown == value else '≈'} {table_num(shown)}"


def _operand(text: str) -> str:
    """A printed number as an operand: negatives in parentheses, '(−0.602)'."""
    return f"({text})" if text.startswith(MINUS) else text


class RopeFamily(Family):
    id = "rope"
    title_zh = "RoPE 旋转位置编码"
    title_en = "RoPE: rotary position embedding"
    required = ("q", "k")
    required_params = ("m", "n", "theta")
    param_defaults = {"shift": 1}
    mistake_ids = ("rope_wrong_direction", "rope_wrong_direction@q", "rope_wrong_direction@k",
                   "rope_shift_one_side@q", "rope_shift_one_side@k")
    equal_parts = {"dot_shifted": "dot"}  # only n − m matters: the shifted dot is the dot

    def sample(self, rng, difficulty):
        thetas, (p_lo, p_hi), (v_lo, v_hi) = SETUPS[difficulty]
        for _ in range(MAX_TRIES):
            q, k, pos = int_blocks(rng, v_lo, v_hi, (2,), (2,), (3,))
            m, n = int(p_lo + pos[0] % (p_hi - p_lo + 1)), int(p_lo + pos[1] % (p_hi - p_lo + 1))
            if q.any() and k.any() and m != n and not np.array_equal(q, k):
                break
        return {"q": q, "k": k}, {"m": m, "n": n, "theta": pick(rng, thetas), "shift": 1 + int(pos[2] % 2)}

    def check(self, given, params):
        for name in ("q", "k"):
            if need_ndim(given, name, 1).shape != (2,):
                raise InputError("engine.input.rope_pair", name=name)
        need_finite(given, "q", "k")
        for name in ("m", "n", "shift"):
            value = params[name]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000:
                raise InputError("engine.input.rope_position", name=name, value=repr(value))
        if not 0 < float(params["theta"]) <= 10:
            raise InputError("engine.input.rope_theta", value=repr(params['theta']))

    def stages(self, given, params):
        return [Stage("q_rot", ("q", "m", "theta"), q_stage), Stage("k_rot", ("k", "n", "theta"), k_stage),
                Stage("dot", ("q_rot", "k_rot"), dot_stage),
                Stage("dot_shifted", ("q", "k", "m", "n", "shift", "theta"), shifted_stage)]

    def part_specs(self, given, params):
        return [part("q_rot", (2,), zh="旋转后的 q", en="rotated q"), part("k_rot", (2,), zh="旋转后的 k", en="rotated k"),
                part("dot", (), zh="q_rot · k_rot", en="q_rot · k_rot"),
                part("dot_shifted", (), zh="两个位置都加 shift 后的点积", en="the dot product with both positions shifted")]

    def hints(self, env):
        p = env
        angles = np.array([p["m"] * p["theta"], p["n"] * p["theta"], (p["m"] + p["shift"]) * p["theta"],
                           (p["n"] + p["shift"]) * p["theta"]], dtype=float)
        return [Hint("sin_table", table_rows(np.sin, angles)), Hint("cos_table", table_rows(np.cos, angles))]

    def prompt(self, problem, lang):
        t = Translator(lang)
        p = problem.params
        return t("engine.rope.prompt", theta=num(p["theta"]), m=p["m"], n=p["n"], shift=p["shift"],
                 rule=t("engine.answer_rule"))

    def steps(self, problem, lang):
        t = Translator(lang)
        p, s, g = problem.params, problem.solution, problem.given
        lines, shown = [], {}
        # Each result from the numbers printed on its line (review R14 #1, #6): the rotation
        # from the table's cos and sin, the dot product from the printed q_rot and k_rot.
        for name, vec_name, pos in (("q_rot", "q", p["m"]), ("k_rot", "k", p["n"])):
            angle = pos * p["theta"]
            cos, sin = (table_num(round(float(f(angle)), 4) + 0.0) for f in (np.cos, np.sin))
            x0, x1 = g[vec_name]
            c, s_ = _operand(cos), _operand(sin)
            terms = [f"{signed(x0)}×{c} {MINUS} {signed(x1)}×{s_}", f"{signed(x0)}×{s_} + {signed(x1)}×{c}"]
            exact = [decimal(num(x0)) * decimal(cos) - decimal(num(x1)) * decimal(sin),
                     decimal(num(x0)) * decimal(sin) + decimal(num(x1)) * decimal(cos)]
            # the ≈ rounds the 4-decimal products it follows (0.8415 ≈ 0.842, not the exact 0.841)
            shown[name], note = shown_results(t, [decimal(written(v)) for v in exact], s[name])
            products = [decimal_text(v) for v in exact]
            lines.append(f"{name} = R({pos}·{num(p['theta'])} = {num(angle)})·{vec(g[vec_name])}{t('engine.colon')}"
                         f"cos {_table(np.cos(angle))}, sin {_table(np.sin(angle))} → "
                         f"[{', '.join(terms)}] = [{', '.join(products)}]"
                         + ("" if products == shown[name] else f" ≈ [{', '.join(shown[name])}]") + note)
        if any(shown[name] != [num(v) for v in s[name]] for name in shown):  # the answers, as O = … after o₁, o₂
            lines.append(f"q_rot = {vec(s['q_rot'])}, k_rot = {vec(s['k_rot'])}")
        products = [f"{_operand(a)}×{_operand(b)}" for a, b in zip(shown["q_rot"], shown["k_rot"], strict=True)]
        dot, note = shown_results(t, [sum((decimal(a) * decimal(b) for a, b in zip(shown["q_rot"], shown["k_rot"])),
                                          Decimal(0))], [float(s["dot"])])
        lines.append(f"dot = q_rot·k_rot = {' + '.join(products)} = {dot[0]}{note}")
        lines.append(t("engine.rope.offset", dot=num(s["dot_shifted"]), offset=num(p["n"] - p["m"])))
        return lines
