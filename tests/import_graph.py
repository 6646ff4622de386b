"""The import graph of our packages, read from their source (AST), and the rules it must keep.

    graph = ImportGraph.read(ROOT, ("reference", "bench"))
    graph.circles()                                  # [["reference.a", "reference.b"], ...]
    graph.crossings("reference", ("bench",))         # edges from reference/ into bench/
    graph.layer_violations(LAYERS)                   # lower layer -> ... -> higher layer paths

What counts as an import of module A by module B (an edge B -> A), all of them read from the AST, so
nothing is executed:
- `import A`, `from A import x`, `from . import A` and relative forms, at module level *or inside a
  function*: a deferred import is still a dependency, it only moves the moment it is paid;
- imports under `if TYPE_CHECKING:` count as well. An annotation that names a class from A means B cannot
  be read without A, and a circle of type-only imports is still two modules that need each other; hiding an
  import behind TYPE_CHECKING is not a way out of a circle (each edge records `type_only`, so a report can say
  which ones they were);
- a lazy package export, `lazy_getattr("pkg", {"Name": "pkg.module[:attr]", ...}, globals())`
  (`reference/lazy_exports.py`): the package imports those modules on first use, so each is an edge.
`from pkg import name` is an edge to `pkg.name` when that is a module, else to `pkg` (its `__init__`).
Only edges between the packages read are kept (the standard library and third parties are not ours to
order). Importing `pkg.sub` also runs `pkg/__init__.py`; that implicit edge is not counted (it would put
every package's `__init__` on a circle with its own modules and say nothing about the code).
"""
from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Edge:
    """Module `source` imports module `target` at `line` (`type_only`: under `if TYPE_CHECKING:`)."""

    source: str
    target: str
    line: int
    type_only: bool = False

    def __str__(self) -> str:
        return f"{self.source}:{self.line} -> {self.target}" + (" (TYPE_CHECKING)" if self.type_only else "")


@dataclass
class ImportGraph:
    """Modules (dotted name -> file) and the import edges between them."""

    modules: dict[str, Path]
    edges: list[Edge] = field(default_factory=list)

    def __repr__(self) -> str:   # a failing test prints its fixture: a count, not 2,000 edges
        return f"ImportGraph({len(self.modules)} modules, {len(self.edges)} edges)"

    @classmethod
    def read(cls, root: Path, packages: Iterable[str]) -> ImportGraph:
        """Read every `*.py` under `root/<package>` for each package; raise SyntaxError naming a bad file."""
        modules: dict[str, Path] = {}
        for package in packages:
            for path in sorted((root / package).rglob("*.py")):
                parts = path.relative_to(root).with_suffix("").parts
                modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
        graph = cls(modules)
        for name, path in modules.items():
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            except SyntaxError as exc:
                raise SyntaxError(f"{path}: cannot read its imports: {exc}") from exc
            graph.edges += _Imports(name, path.name == "__init__.py", modules).edges(tree)
        return graph

    def successors(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {m: set() for m in self.modules}
        for e in self.edges:
            out[e.source].add(e.target)
        return out

    def circles(self) -> list[list[str]]:
        """Every import circle: each strongly connected component of more than one module, sorted."""
        succ, index, low, stack, on_stack, found = self.successors(), {}, {}, [], set(), []
        for start in sorted(succ):   # iterative Tarjan: a long chain must not hit the recursion limit
            if start in index:
                continue
            work = [(start, iter(sorted(succ[start])))]
            index[start] = low[start] = len(index)
            stack.append(start), on_stack.add(start)
            while work:
                node, children = work[-1]
                child = next(children, None)
                if child is None:
                    work.pop()
                    if work:
                        low[work[-1][0]] = min(low[work[-1][0]], low[node])
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
                elif child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child), on_stack.add(child)
                    work.append((child, iter(sorted(succ[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
        return sorted(found)

    def edges_within(self, modules: Iterable[str]) -> list[Edge]:
        """The edges that join two of `modules` (what to read to break a circle), one per import line."""
        inside = set(modules)
        return sorted({e for e in self.edges if e.source in inside and e.target in inside},
                      key=lambda e: (e.source, e.line, e.target))

    def circle_report(self, package: str | None = None) -> list[str]:
        """One entry per circle (of modules under `package`, or all): its modules, then each import on it."""
        return [" <-> ".join(c) + "".join(f"\n    {e}" for e in self.edges_within(c))
                for c in self.circles() if package is None or under(c[0], (package,))]

    def crossings(self, package: str, forbidden: Iterable[str]) -> list[Edge]:
        """Edges from a module under `package` straight to one under any of `forbidden`."""
        forbidden = tuple(forbidden)
        return [e for e in self.edges if under(e.source, (package,)) and under(e.target, forbidden)]

    def layer_violations(self, layers: Iterable[tuple[Iterable[str], Iterable[str]]]) -> list[str]:
        """For each (lower, higher) rule: every lower module that reaches a higher one, directly or through others.

        Reported as the import path, shortest first found (breadth-first), e.g. `a -> b -> c`."""
        succ, out = self.successors(), []
        for lower, higher in layers:
            lower, higher = tuple(lower), tuple(higher)
            for start in sorted(m for m in self.modules if under(m, lower)):
                path = _path_to(succ, start, lambda m: under(m, higher))
                if path:
                    out.append(" -> ".join(path))
        return out


def under(module: str, packages: tuple[str, ...]) -> bool:
    """`module` is one of `packages` or inside one of them (`a.b` is under `a`, `a_b` is not)."""
    return any(module == p or module.startswith(p + ".") for p in packages)


def _path_to(succ: dict[str, set[str]], start: str, goal) -> list[str] | None:
    parent, frontier = {start: None}, [start]
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(succ[node]):
                if child in parent:
                    continue
                parent[child] = node
                if goal(child):
                    path = [child]
                    while parent[path[-1]] is not None:
                        path.append(parent[path[-1]])
                    return path[::-1]
                nxt.append(child)
        frontier = nxt
    return None


class _Imports(ast.NodeVisitor):
    """The edges of one module's AST."""

    def __init__(self, name: str, is_package: bool, modules: dict[str, Path]) -> None:
        self.name, self.modules, self.found, self.type_only = name, modules, [], False
        self.dicts: dict[str, ast.Dict] = {}   # module-level dict literals by name, for lazy exports
        self.package = name if is_package else name.rpartition(".")[0]

    def edges(self, tree: ast.AST) -> list[Edge]:
        self.visit(tree)
        return self.found

    def add(self, target: str | None, line: int) -> None:
        while target and target not in self.modules:   # `import a.b.c` of a name inside a.b: edge to a.b
            target = target.rpartition(".")[0]
        if target and target != self.name:
            self.found.append(Edge(self.name, target, line, self.type_only))

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
            before, self.type_only = self.type_only, True
            for child in node.body:
                self.visit(child)
            self.type_only = before
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            parts = self.package.split(".") if self.package else []
            parts = parts[:len(parts) - (node.level - 1)] if node.level > 1 else parts
            base = ".".join(parts + ([node.module] if node.module else []))
        for alias in node.names:
            full = f"{base}.{alias.name}" if base else alias.name
            self.add(full if full in self.modules else base, node.lineno)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name == "lazy_getattr":
            for arg in node.args:
                for value in _string_values(arg, self):
                    self.add(value.partition(":")[0], node.lineno)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        # `_EXPORTS = {...}` then `lazy_getattr(pkg, _EXPORTS, globals())`: remember the dict by its name
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Dict):
            self.dicts[node.targets[0].id] = node.value
        self.generic_visit(node)


def _string_values(arg: ast.AST, visitor: _Imports) -> list[str]:
    if isinstance(arg, ast.Name):
        arg = visitor.dicts.get(arg.id)
    if not isinstance(arg, ast.Dict):
        return []
    return [v.value for v in arg.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
