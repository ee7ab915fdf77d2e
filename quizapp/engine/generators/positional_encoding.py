"""`positional_encoding`: sinusoidal positional encoding of one position (seed 002 §7.19).

PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d)). Params pos
and d (4 or 8, so that 10000^(2i/d) is a power of ten); parts `theta` (the d/2 angles, in
radians) and `PE` (d). A sin/cos table of every angle is offered, with decoy rows (the
angles of the exponent-i/d mistake and of the next pair, pos/10000^(2(i+1)/d)) so that its
keys do not answer `theta`. Mistakes: `pe_swapped_sin_cos` (cos in the even dimensions, sin in
the odd ones), `pe_exponent_i` (10000^(i/d)), `pe_concat_layout` (every sin, then every cos:
tensor2tensor's layout, not the paper's).
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.family import Family, Stage, need_positive_int
from quizapp.engine.generators.common import part
from quizapp.engine.ops import table_rows, tabled
from quizapp.engine.sampling import pick
from quizapp.engine.text import num, table_num, vec
from quizapp.engine.types import Hint, InputError
from quizapp.i18n import Translator

# difficulty -> (positions, d)
CHOICES = {1: ((1, 2, 3), (4,)), 2: ((1, 2, 3, 4, 5, 6), (4, 8)), 3: ((5, 7, 10, 12, 20, 30), (8,))}
MAX_D = 64


def theta_stage(calc, pos, d):
    i = np.arange(int(d) // 2)
    return pos / 10000.0 ** ((i if calc.mistake == "pe_exponent_i" else 2 * i) / d)


def table_angles(pos, d) -> np.ndarray:
    """The angles the sin/cos table lists: the true θ_i, the exponent-i/d mistake's and the
    next pair's pos/10000^(2(i+1)/d), so the rows do not give θ away."""
    i = np.arange(int(d) // 2)
    return np.concatenate([pos / 10000.0 ** (2 * i / d), pos / 10000.0 ** (i / d), pos / 10000.0 ** (2 * (i + 1) / d)])


def pe_stage(calc, theta):
    sin, cos = tabled(calc, "sin_table", np.sin, theta), tabled(calc, "cos_table", np.cos, theta)
    if calc.mistake == "pe_swapped_sin_cos":
        sin, cos = cos, sin
    if calc.mistake == "pe_concat_layout":
        return np.concatenate([sin, cos])
    out = np.empty(2 * theta.shape[0])
    out[0::2], out[1::2] = sin, cos
    return out


def _table(value: float) -> str:
    """sin/cos as the table row gives it (4 decimals)."""
    shown = round(float(value), 4) + 0.0
    return f"{'=' if shown == value else '≈'} {table_num(shown)}"


class PositionalEncodingFamily(Family):
    id = "positional_encoding"
    title_zh = "正弦位置编码"
    title_en = "Sinusoidal positional encoding"
    required_params = ("pos", "d")
    mistake_ids = ("pe_swapped_sin_cos", "pe_exponent_i", "pe_concat_layout")

    def sample(self, rng, difficulty):
        positions, dims = CHOICES[difficulty]
        return {}, {"pos": pick(rng, positions), "d": pick(rng, dims)}

    def check(self, given, params):
        need_positive_int(params, "d")
        if params["d"] % 2 or params["d"] > MAX_D:
            raise InputError("engine.input.pe_d", limit=MAX_D, value=repr(params['d']))
        if isinstance(params["pos"], bool) or not isinstance(params["pos"], int) or not 0 <= params["pos"] <= 10_000:
            raise InputError("engine.input.pe_pos", value=repr(params['pos']))

    def stages(self, given, params):
        return [Stage("theta", ("pos", "d"), theta_stage), Stage("PE", ("theta",), pe_stage)]

    def part_specs(self, given, params):
        d = int(params["d"])
        return [part("theta", (d // 2,), zh="各频率的角度 θ_i = pos/10000^(2i/d)", en="angles θ_i = pos/10000^(2i/d)"),
                part("PE", (d,), zh="位置编码 PE(pos)", en="positional encoding PE(pos)")]

    def hints(self, env):
        angles = table_angles(env["pos"], env["d"])
        return [Hint("sin_table", table_rows(np.sin, angles)), Hint("cos_table", table_rows(np.cos, angles))]

    def prompt(self, problem, lang):
        t = Translator(lang)
        return t("engine.positional_encoding.prompt", pos=problem.params["pos"], d=problem.params["d"],
                 rule=t("engine.answer_rule"))

    def steps(self, problem, lang):
        t = Translator(lang)
        pos, d = problem.params["pos"], int(problem.params["d"])
        theta, pe = problem.solution["theta"], problem.solution["PE"]
        values = t("engine.list_sep").join(num(10000.0 ** (2 * i / d)) for i in range(d // 2))
        lines = [t("engine.positional_encoding.denominators", last=d // 2 - 1, values=values),
                 f"θ_i = pos/10000^(2i/d) = {pos}/{vec([10000.0 ** (2 * i / d) for i in range(d // 2)])} = {vec(theta)}"]
        for i, angle in enumerate(theta):
            lines.append(t("engine.positional_encoding.dim", even=2 * i, odd=2 * i + 1, angle=num(angle),
                           sin=_table(pe[2 * i]), cos=_table(pe[2 * i + 1])))
        lines.append(t("engine.positional_encoding.summary", pe=vec(pe)))
        return lines
