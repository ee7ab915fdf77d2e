"""YAML for decks, which are data from anywhere: no aliases, bounded in every direction.

Built on libyaml's `CSafeLoader` when PyYAML has it (fast), else `SafeLoader`. The
document is composed into nodes first and checked before any Python object is built:

* no aliases (`*name`) — an 868-byte "billion laughs" deck expands to gigabytes once
  anything walks it; a deck never needs them;
* at most MAX_NODES nodes, MAX_DEPTH levels of nesting, MAX_STRING characters per string;
* no key twice in one mapping (PyYAML keeps the last one silently);
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
# C0/C1 controls but newline and tab, and the bidi embeddings, overrides and isolates
# (U+202A–U+202E, U+2066–U+2069): U+202E makes a terminal show text reversed.
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


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
            keys: set[str] = set()
            for key, value in node.value:
                name = _key_text(key)
                if isinstance(key, yaml.ScalarNode):
                    if name in keys:  # YAML forbids it; PyYAML would keep the last silently
                        problems.append(YamlProblem(f"{where}.{name}" if where else name,
                                                    f"duplicate key {name!r} ({_line(key)})"))
                    keys.add(name)
                stack.append((key, f"{where}.{name}" if where else name, depth + 1))
                stack.append((value, f"{where}.{name}" if where else name, depth + 1))
    return problems


class _DeckLoader(_Loader):
    """The loader with its implicit tags remembered per plain scalar.

    libyaml calls back into PyYAML's pure-Python `resolve` for every scalar (a third of
    composing a deck); a deck repeats the same short plain scalars (keys, tags, small
    numbers). Exact: with no path resolvers (none are registered), a plain scalar's tag
    depends on its text alone.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._plain_tags: dict[str, str] = {}

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode and implicit[0] and len(value) <= 40:
            tag = self._plain_tags.get(value)
            if tag is None:
                tag = self._plain_tags[value] = super().resolve(kind, value, implicit)
            return tag
        return super().resolve(kind, value, implicit)


_STR, _MAP, _SEQ = "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_PLAIN_SCALARS = frozenset({"tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
                            "tag:yaml.org,2002:float"})


class _Unusual(Exception):
    """Not the common case of `_build`: the node tree takes the general path instead."""


def _build(loader: Any, root: yaml.Node) -> Any:
    """The common case of `_check` and `construct_document` in one walk (a deck's parse is
    mostly these two, and this is twice as fast as both).

    Only plain mappings, sequences, strings and null/bool/int/float scalars, within every
    limit; anything else (a problem to report, an alias, a merge key, another tag) raises
    _Unusual, and the caller does the general checks and construction, which report it
    or build it exactly as before.
    """
    constructors = loader.yaml_constructors
    seen: set[int] = set()
    count = 0

    def walk(node: yaml.Node, depth: int) -> Any:
        nonlocal count
        count += 1
        if count > MAX_NODES or depth > MAX_DEPTH or id(node) in seen:
            raise _Unusual
        seen.add(id(node))
        kind, tag = type(node), node.tag
        if kind is yaml.ScalarNode:
            value = node.value
            if len(value) > MAX_STRING or CONTROL.search(value):
                raise _Unusual
            if tag == _STR:
                return value
            if tag in _PLAIN_SCALARS:
                return constructors[tag](loader, node)
            raise _Unusual
        if kind is yaml.MappingNode and tag == _MAP:
            mapping = {}
            for key_node, value_node in node.value:
                if type(key_node) is not yaml.ScalarNode:
                    raise _Unusual  # a key that may not be hashable (the constructor says so)
                key = walk(key_node, depth + 1)
                if key in mapping:
                    raise _Unusual  # a duplicate key: `_check` reports it
                mapping[key] = walk(value_node, depth + 1)
            return mapping
        if kind is yaml.SequenceNode and tag == _SEQ:
            return [walk(child, depth + 1) for child in node.value]
        raise _Unusual

    return walk(root, 0)


def safe_load(text: str) -> Any:
    """Parse one YAML document; UnsafeYaml (located) if it breaks a rule above,
    yaml.YAMLError if it is not YAML."""
    loader = _DeckLoader(text)
    try:
        try:
            node = loader.get_single_node()
        except RecursionError:
            raise UnsafeYaml([YamlProblem(None, f"nested more than {MAX_DEPTH} levels deep")]) from None
        if node is None:
            return None
        try:
            return _build(loader, node)
        except _Unusual:
            pass
        problems = _check(node)
        if problems:
            raise UnsafeYaml(problems)
        return loader.construct_document(node)
    finally:
        loader.dispose()
