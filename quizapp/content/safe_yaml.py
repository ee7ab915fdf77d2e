"""YAML for decks, which are data from anywhere: no aliases, bounded in every direction.

Built on libyaml's `CSafeLoader` when PyYAML has it (fast), else `SafeLoader`. The
document is composed into nodes first and checked before any Python object is built:

* no aliases (`*name`) — an 868-byte "billion laughs" deck expands to gigabytes once
  anything walks it; a deck never needs them;
* at most MAX_NODES nodes, MAX_DEPTH levels of nesting, MAX_STRING characters per string;
* no control characters (C0/C1 other than newline and tab: terminal escapes, bells, NUL)
  in any string — YAML escapes such as "\\e" could otherwise smuggle them in.

Every problem names where it is (`qa[3].answer`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

MAX_NODES = 200_000
MAX_DEPTH = 40
MAX_STRING = 20_000

_Loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class YamlProblem:
    where: str | None  # `qa[3].answer`, or None for the whole file
    message: str


class UnsafeYaml(ValueError):
    def __init__(self, problems: list[YamlProblem]) -> None:
        super().__init__(problems[0].message if problems else "unsafe YAML")
        self.problems = problems


def _line(node: yaml.Node) -> str:
    mark = node.start_mark
    return f"line {mark.line + 1}" if mark is not None else "?"


def _key_text(node: yaml.Node) -> str:
    return str(node.value) if isinstance(node, yaml.ScalarNode) else "?"


def _check(root: yaml.Node) -> list[YamlProblem]:
    problems: list[YamlProblem] = []
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, str, int]] = [(root, "", 0)]
    count = 0
    while stack:
        node, where, depth = stack.pop()
        if id(node) in seen:
            # The composer hands back the anchored node itself for an alias.
            return [YamlProblem(where or None, f"YAML anchors/aliases are not allowed ({_line(node)})")]
        seen.add(id(node))
        count += 1
        if count > MAX_NODES:
            return [YamlProblem(None, f"more than {MAX_NODES} YAML values")]
        if depth > MAX_DEPTH:
            return [YamlProblem(where or None, f"nested more than {MAX_DEPTH} levels deep")]
        if isinstance(node, yaml.ScalarNode):
            text = str(node.value)
            if len(text) > MAX_STRING:
                problems.append(YamlProblem(where or None, f"text longer than {MAX_STRING} characters"))
            bad = CONTROL.search(text)
            if bad:
                problems.append(
                    YamlProblem(where or None, f"contains the control character U+{ord(bad.group()):04X}")
                )
        elif isinstance(node, yaml.SequenceNode):
            for index, child in enumerate(node.value):
                stack.append((child, f"{where}[{index}]", depth + 1))
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = _key_text(key)
                stack.append((key, f"{where}.{name}" if where else name, depth + 1))
                stack.append((value, f"{where}.{name}" if where else name, depth + 1))
    return problems


def safe_load(text: str) -> Any:
    """Parse one YAML document; UnsafeYaml (located) if it breaks a rule above,
    yaml.YAMLError if it is not YAML."""
    loader = _Loader(text)
    try:
        try:
            node = loader.get_single_node()
        except RecursionError:
            raise UnsafeYaml([YamlProblem(None, f"nested more than {MAX_DEPTH} levels deep")]) from None
        if node is None:
            return None
        problems = _check(node)
        if problems:
            raise UnsafeYaml(problems)
        return loader.construct_document(node)
    finally:
        loader.dispose()
