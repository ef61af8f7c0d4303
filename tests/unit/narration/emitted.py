"""Every event type the code can emit, found by reading the code (not from a hand list).

The AST of ``services/``, ``shared/`` and ``gateway/`` is searched for the places that make an
event: ``<out>.emit(type, ...)``, ``Event(type, ...)``, ``note(..., event=type)`` (services/states)
and ``Envelope(type=...)``. Each type argument is resolved to its strings: a literal, a
module-level constant (``COMBAT_STARTED``), a dict of them indexed (``EXPIRY_EVENTS[kind]``),
or a conditional of those. A type that is a parameter of the enclosing function is a helper
passing its caller's type on (with the parameter's default, if any): such a helper must be one
of :data:`EMITTERS`, so that its callers are read too; any other expression is reported as
unresolved, so that a new way of emitting cannot hide an event type from the test.

A site in ``services/<svc>/domain/<ruleset>/`` or ``shared/rulesets/<ruleset>/`` belongs to that
ruleset; any other to the platform (``None``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FOLDERS = ("services", "shared", "gateway")
RULESETS = ("umh", "cypher", "l5r")


@dataclass(frozen=True)
class Site:
    path: str
    line: int
    ruleset: str | None
    expression: str


@dataclass(frozen=True)
class Emitted:
    pairs: frozenset[tuple[str | None, str]]  # (ruleset or None, event type)
    unresolved: tuple[Site, ...]
    passers: frozenset[str]  # functions that pass a type they were given on to an emitter


def ruleset_of(path: Path) -> str | None:
    parts = path.relative_to(ROOT).parts
    for anchor in ("domain", "rulesets"):
        if anchor in parts:
            index = parts.index(anchor) + 1
            if index < len(parts) and parts[index] in RULESETS:
                return parts[index]
    return None


def _files() -> Iterator[Path]:
    for folder in FOLDERS:
        yield from sorted((ROOT / folder).rglob("*.py"))


def _constants(trees: dict[Path, ast.Module]) -> dict[str, list[ast.expr]]:
    found: dict[str, list[ast.expr]] = {}
    for tree in trees.values():
        for node in tree.body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                if node.value is not None:
                    found.setdefault(node.target.id, []).append(node.value)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, []).append(node.value)
    return found


class _Resolver:
    def __init__(self, constants: dict[str, list[ast.expr]]) -> None:
        self.constants = constants

    def strings(self, node: ast.expr, depth: int = 0) -> set[str] | None:
        if depth > 5:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.Name) and node.id in self.constants:
            return self.named(self.constants[node.id], depth)
        if isinstance(node, ast.Dict):
            return self._union([v for v in node.values if v is not None], depth)
        if isinstance(node, ast.Subscript):
            return self.strings(node.value, depth + 1)
        if isinstance(node, ast.IfExp):
            return self._union([node.body, node.orelse], depth)
        return None

    def _union(self, nodes: list[ast.expr], depth: int) -> set[str] | None:
        out: set[str] = set()
        for node in nodes:
            found = self.strings(node, depth + 1)
            if found is None:
                return None
            out |= found
        return out

    def named(self, definitions: list[ast.expr], depth: int) -> set[str] | None:
        """A name several modules define: the definitions that are strings (a constant of
        the same name that is not one, such as a phrase, is another module's business)."""
        found = [self.strings(d, depth + 1) for d in definitions]
        strings = [f for f in found if f is not None]
        return set().union(*strings) if strings else None


EMITTERS: dict[str, tuple[int | None, str | None]] = {
    "emit": (0, "event_type"),  # an Outcome's emit(type, payload)
    "Event": (0, "type"),  # shared.messages.Event(type, payload)
    "envelope": (0, "type_"),  # shared.messages.envelope(type_, payload, ...)
    "Envelope": (None, "type"),
    "follow_up": (1, "type_"),  # the runtime's follow_up(cause, type_, payload, tag)
    "note": (None, "event"),  # services/states: note(record, out, ..., event=type)
}
"""The calls that make a message, and where their type is: (position, keyword)."""


def _name(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def _type_arguments(call: ast.Call) -> list[ast.expr]:
    position, keyword = EMITTERS.get(_name(call) or "", (None, None))
    found: list[ast.expr] = []
    if position is not None and len(call.args) > position:
        found.append(call.args[position])
    found += [k.value for k in call.keywords if keyword is not None and k.arg == keyword]
    return found


def _root_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.expr | None]:
    args = function.args
    positional = args.posonlyargs + args.args
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    named = dict(zip((a.arg for a in positional), [*defaults, *args.defaults], strict=True))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        named[arg.arg] = default
    return named


class _Finder(ast.NodeVisitor):
    """Visits each call once, knowing the parameters of the function it is in."""

    def __init__(self, resolver: _Resolver, path: Path) -> None:
        self.resolver = resolver
        self.path = path
        self.ruleset = ruleset_of(path)
        self.scopes: list[tuple[str, dict[str, ast.expr | None]]] = [("", {})]
        self.passers: set[str] = set()
        self.pairs: set[tuple[str | None, str]] = set()
        self.unresolved: list[Site] = []

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scopes.append((node.name, _parameters(node)))
        self.generic_visit(node)
        self.scopes.pop()

    def visit_Call(self, node: ast.Call) -> None:
        function, params = self.scopes[-1]
        for argument in _type_arguments(node):
            found = self.resolver.strings(argument)
            root = _root_name(argument)
            if found is None and root in params:
                self.passers.add(function)
                default = params[root]
                found = self.resolver.strings(default) if default is not None else set()
            if found is None:
                where = str(self.path.relative_to(ROOT))
                self.unresolved.append(
                    Site(where, node.lineno, self.ruleset, ast.unparse(argument))
                )
                continue
            self.pairs |= {(self.ruleset, event_type) for event_type in found}
        self.generic_visit(node)


@cache
def emitted() -> Emitted:
    """Every (ruleset, event type) the code emits, and the sites it could not resolve."""
    trees = {path: ast.parse(path.read_text(), str(path)) for path in _files()}
    resolver = _Resolver(_constants(trees))
    pairs: set[tuple[str | None, str]] = set()
    unresolved: list[Site] = []
    passers: set[str] = set()
    for path, tree in trees.items():
        finder = _Finder(resolver, path)
        finder.visit(tree)
        pairs |= finder.pairs
        unresolved += finder.unresolved
        passers |= finder.passers
    return Emitted(frozenset(pairs), tuple(unresolved), frozenset(passers))
