"""Math in content reaches the screen as Unicode, never as raw LaTeX."""

from __future__ import annotations

import re

import pytest

from quizapp.content.bilingual import texts_of
from quizapp.content.loader import load_builtin
from quizapp.content.render import latex_to_unicode, render_matrix, to_unicode


@pytest.mark.parametrize(
    "latex, expected",
    [
        (r"\sqrt{d_k}", "√dₖ"),
        (r"QK^\top", "QKᵀ"),
        (r"QK^T", "QKᵀ"),
        (r"\frac{QK^\top}{\sqrt{d_k}}", "QKᵀ/√dₖ"),
        (r"-\infty", "-∞"),
        (r"\sigma^2", "σ²"),
        (r"O(S^2 d)", "O(S² d)"),
        (r"\sum_{j=1}^{n}", "Σⱼ₌₁ⁿ"),
        (r"\mathrm{softmax}(x)", "softmax(x)"),
        (r"\hat x", "x̂"),
        (r"\sqrt{d_{model}}", "√d_model"),
        (r"\mu = 2.5, \quad \sigma^2 = 1.25", "μ = 2.5, σ² = 1.25"),
        (r"W_Q \in \mathbb{R}^{d \times d_k}", "W_Q ∈ ℝ^(d × dₖ)"),
    ],
)
def test_formulas(latex, expected):
    assert latex_to_unicode(latex) == expected


def test_matrix_rows_are_aligned():
    text = to_unicode(r"$$A = \begin{pmatrix}1&0.5\\0.25&1\end{pmatrix}$$")
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 2
    assert lines[0].index("⎡") == lines[1].index("⎣")
    assert render_matrix([["1", "0"]], multiline=False) == "[1 0]"


def test_inline_matrix_stays_on_one_line():
    assert to_unicode(r"所以 $A = \begin{pmatrix}1&0\\0&1\end{pmatrix}$。") == "所以 A = [1 0; 0 1]。"


def test_malformed_math_does_not_raise():
    for text in ["$\\frac{a}{$", "$$\\begin{pmatrix}1&$$", "$x^$", "$\\unknownmacro{x}$", "$$", "$ $"]:
        assert isinstance(to_unicode(text), str)


def _texts(item):
    """(field, text) for every text of an item, in every language it is given in."""
    data = item.model_dump()
    fields = [(key, data[key]) for key in ("question", "long_answer", "explanation") if data.get(key)]
    if item.kind == "qa":
        fields.append(("answer", data["answer"]))
    fields += [(f"option {n}", option) for n, option in enumerate(data.get("options") or [])]
    fields += [(f"key_point {n}", point["text"]) for n, point in enumerate(data.get("key_points") or [])]
    for key, value in fields:
        for lang, text in texts_of(value).items():
            yield f"{key} ({lang})", text


RAW_LATEX = re.compile(r"\\(frac|sqrt|top|infty|sum|mathrm|begin|end|cdot|text|times|hat)\b|\^\\top|\^\{|_\{|\$")


def test_no_raw_latex_reaches_the_screen():
    content = load_builtin()
    leaks = []
    for item in content.items:
        for field, text in _texts(item):
            rendered = to_unicode(text)
            if RAW_LATEX.search(rendered):
                leaks.append((item.id, field, RAW_LATEX.search(rendered).group(0)))
    assert leaks == []


# Rendered output that reads as something else than the LaTeX meant.
AMBIGUOUS = {
    "fraction touching a letter (8/3d reads as 8/(3d))": re.compile(r"/\d+(?:\.\d+)?[^\W\d_]"),
    "script running into an operator name": re.compile(r"[₀-₉ₐ-ₜᵢⱼ⁰-⁹ᵀⁿⁱʲᵏᵗ)](log|exp|ln|max|min)\b"),
    "operator name running into Σ": re.compile(r"(log|exp|ln)[ΣΠ]"),
    "unbracketed subscript with a comma (q_i,t)": re.compile(r"_[\w]+,\w"),
    "subscript running into the next symbol (W_QW)": re.compile(r"_[A-Z][A-Z]|_[a-z0-9]+[A-Z]"),
    "space before a script (ℝ ^d)": re.compile(r"\S [\^](?=[\w(])"),
}


def test_rendering_is_never_ambiguous():
    problems = []
    for item in load_builtin().items:
        for field, text in _texts(item):
            for span in re.findall(r"\$\$.+?\$\$|\$.+?\$", text, flags=re.S):
                rendered = to_unicode(span)
                for label, pattern in AMBIGUOUS.items():
                    if (match := pattern.search(rendered)):
                        problems.append(f"{item.id} {field}: {label}: {match.group(0)!r} in {rendered!r}")
    assert problems == []


@pytest.mark.parametrize(
    "latex, expected",
    [
        (r"\frac{8}{3}d", "(8/3)d"),
        (r"-\frac{1}{S}\sum_{t=1}^{S}\log P", "-(1/S)Σₜ₌₁^S log P"),
        (r"q_{i,t}k_{j,t}", "q_(i,t)k_(j,t)"),
        (r"Q_iK_i^\top", "QᵢKᵢᵀ"),
        (r"W_QW_K^\top", "W_Q W_Kᵀ"),
        (r"\mathbb R^{d\times d_{ff}}", "ℝ^(d × d_ff)"),
        (r"\log\sum_k e^{z_k}", "log Σₖ e^(zₖ)"),
        (r"\max(0,x)", "max(0,x)"),
        (r"\text{softmax}(z - \max(z))", "softmax(z - max(z))"),
    ],
)
def test_audit_rendering_fixes(latex, expected):
    assert latex_to_unicode(latex) == expected
    for label, pattern in AMBIGUOUS.items():
        assert not pattern.search(expected), label


@pytest.mark.parametrize("bad", ["8/3d", "Σₜ₌₁ᵀlog p", "q_i,tk_j,t", "W_QW_K", "ℝ ^(d× d_ff)"])
def test_the_ambiguity_check_catches_the_old_output(bad):
    assert any(pattern.search(bad) for pattern in AMBIGUOUS.values())


def test_a_display_formula_of_several_parts_gives_each_its_own_line():
    # A display block does not wrap: Browse at 120 columns cropped Q24's derivation after
    # `Var(q · k) = dₖ,    std` (issue 27 item 14).
    from quizapp.content.render import to_unicode

    text = to_unicode(r"$$q \cdot k = \sum_i q_i k_i,\quad \mathrm{Var}(q \cdot k)=d_k,\quad \mathrm{std}=\sqrt{d_k}$$")
    lines = [line.strip() for line in text.strip("\n").splitlines()]
    assert lines == ["q · k = Σᵢ qᵢ kᵢ,", "Var(q · k)=dₖ,", "std=√dₖ"]
