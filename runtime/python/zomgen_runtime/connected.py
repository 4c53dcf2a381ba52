"""`x-zomgen-connected`: what the rules link forms one graph, and the graph must be connected.

`x-zomgen-connected: [[edge path, end, end, ...], ...]`: for every value an edge path reaches
(a transformation), the ends, evaluated with the edge's `*`s bound, reach the nodes that edge
links together. An end is a path, or `{"node": kind, "path": path}`, or `{"node": kind, "join":
[path, ...], "with": separator}`: a node is the value an end reaches together with its kind, so
a group's path and a coordinate system's name never meet. Every rule of the keyword adds to one
graph, but only the first rule's edges must be joined: the later rules add links (an image's
own links to its labels), and a group of their edges alone is not judged (an image the scene
does not name). Each group holding an edge of the first rule, but the first such group, is a
problem at its first edge (OME-Zarr 0.6's scene: "The graph MUST be connected").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .paths import Location, Path, canonical, evaluate, parse_path, short
from .relations import EQUAL, Join, bind_operand, parse_operand, reach
from .values import is_array, is_object
from .violations import Check, Violation, malformed

CONNECTED = "x-zomgen-connected"
_SHAPE = '[[edge path, path or {"node": kind, "path" or "join": ...}, ...], ...]'
_SHOWN = 3  # nodes named in a message, of each group


@dataclass(frozen=True)
class End:
    """Where an edge's nodes are, and their kind ("" for a plain path)."""

    kind: str
    operand: Path | Join


def _end(value: Any) -> End | None:
    if isinstance(value, str):
        path = parse_path(value)
        return None if path is None else End("", path)
    kind = value.get("node") if is_object(value) else None
    if not isinstance(kind, str):
        return None
    rest = {k: v for k, v in value.items() if k != "node"}
    if set(rest) == {"path"}:
        operand = parse_operand(rest["path"], EQUAL)
    else:
        operand = parse_operand(rest, EQUAL) if "join" in rest else None
    if not isinstance(operand, Path | Join):
        return None
    return End(kind, operand)


def _rules(value: Any) -> list[tuple[Path, list[End]]] | None:
    if not is_array(value):
        return None
    rules: list[tuple[Path, list[End]]] = []
    for rule in value:
        if not is_array(rule) or len(rule) < 2 or not isinstance(rule[0], str):
            return None
        edge = parse_path(rule[0])
        ends = [_end(e) for e in rule[1:]]
        if edge is None or any(e is None for e in ends):
            return None
        bound: list[End] = []
        for end in ends:
            assert end is not None
            operand = bind_operand(edge, end.operand)
            assert isinstance(operand, Path | Join)  # a path or a join stays one, bound
            bound.append(End(end.kind, operand))
        rules.append((edge, bound))
    return rules


Node = tuple[str, str]  # (kind, the value's canonical text)


class _Graph:
    """Nodes joined by edges (union-find), each group remembering the first edge reaching it."""

    def __init__(self) -> None:
        self.parent: dict[Node, Node] = {}
        self.names: dict[Node, str] = {}
        self.edges: list[tuple[Location, int, list[Node]]] = []

    def root(self, node: Node) -> Node:
        while self.parent[node] != node:
            self.parent[node] = self.parent[self.parent[node]]
            node = self.parent[node]
        return node

    def link(self, where: Location, rule: int, nodes: list[Node]) -> None:
        for node in nodes:
            self.parent.setdefault(node, node)
        for node in nodes[1:]:
            self.parent[self.root(node)] = self.root(nodes[0])
        self.edges.append((where, rule, nodes))

    def groups(self) -> list[tuple[Location, int, list[Node]]]:
        """Each group: its first edge's place and rule, and its nodes, in document order."""
        found: dict[Node, tuple[Location, int, list[Node]]] = {}
        for where, rule, nodes in self.edges:
            for node in nodes:
                group = found.setdefault(self.root(node), (where, rule, []))
                if node not in group[2]:
                    group[2].append(node)
        return list(found.values())

    def described(self, nodes: list[Node]) -> str:
        names = [self.names[n] for n in nodes[:_SHOWN]]
        more = len(nodes) - _SHOWN
        return ", ".join(names) + (f" and {more} more" if more > 0 else "")


def connected(value: Any) -> Check:
    rules = _rules(value)

    def check(instance: Any) -> list[Violation]:
        if not is_object(instance):
            return []
        if rules is None:
            return [malformed(CONNECTED, f"expected {_SHAPE}")]
        graph = _Graph()
        for index, (edge, ends) in enumerate(rules):
            for e in evaluate(instance, edge, {}):
                nodes: list[Node] = []
                for end in ends:
                    for reached in reach(instance, end.operand, e.choices):
                        node = (end.kind, canonical(reached.value))
                        graph.names.setdefault(node, f"{end.kind} {short(reached.value)}".lstrip())
                        nodes.append(node)
                if nodes:
                    graph.link(e.location, index, nodes)
        groups = [g for g in graph.groups() if g[1] == 0]  # their first edge is the first rule's
        if len(groups) < 2:
            return []
        first = graph.described(groups[0][2])
        return [
            Violation(
                where,
                f"links {graph.described(nodes)}, which no chain of links joins to {first}",
                rule,
            )
            for where, rule, nodes in groups[1:]
        ]

    return check
