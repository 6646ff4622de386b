"""Split a Python source text into the units the indexer stores: lines, symbols, chunks.

Pure functions, no storage: `line_starts` gives byte offsets so a symbol or
chunk can point into its file's blob record; `extract_symbols` walks the
`ast` (SyntaxError propagates, the indexer reports it); `line_chunks` cuts
fixed-size overlapping line windows.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


@dataclass(frozen=True)
class SymbolUnit:
    """A def or class: qualified name (dotted), kind, first and last line (1-based, inclusive)."""

    qualname: str
    kind: str  # function | async_function | class | method
    start: int
    end: int


@dataclass(frozen=True)
class ChunkUnit:
    chunk_id: int
    start: int
    end: int


def line_starts(text: str) -> list[int]:
    """Byte offset (UTF-8) where each line starts, plus the total length at the end.

    Lines end at \\n, \\r\\n or \\r, as Python's tokenizer (and so `ast` line
    numbers) counts them. `starts[i]` is line i+1; `starts[-1]` is the text size.
    """
    starts = [0]
    pos = 0
    for m in _LINE.finditer(text):
        if not m.group(0):
            continue
        pos += len(m.group(0).encode("utf-8"))
        starts.append(pos)
    return starts


def extract_symbols(source: str) -> list[SymbolUnit]:
    """Every function, async function, class and method, nested ones included, in source order.

    A def directly or conditionally inside a class body is a "method" (async or
    not); elsewhere "function" / "async_function". Nested names are dotted
    ("Outer.Inner.method", "outer.helper"). A symbol starts at its first
    decorator, so its slice includes the decorators.
    """
    tree = ast.parse(source)
    out: list[SymbolUnit] = []

    def visit(node: ast.AST, prefix: str, in_class: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if isinstance(child, ast.ClassDef):
                    kind = "class"
                elif in_class:
                    kind = "method"
                else:
                    kind = "async_function" if isinstance(child, ast.AsyncFunctionDef) else "function"
                start = min([d.lineno for d in child.decorator_list] + [child.lineno])
                qual = prefix + child.name
                out.append(SymbolUnit(qual, kind, start, child.end_lineno or child.lineno))
                visit(child, qual + ".", kind == "class")
            elif not isinstance(child, (ast.expr, ast.Lambda)):
                visit(child, prefix, in_class)  # defs inside if/try/with blocks

    visit(tree, "", False)
    return out


def line_chunks(n_lines: int, size: int = 40, overlap: int = 10) -> list[ChunkUnit]:
    """Windows of `size` lines, each starting `size - overlap` lines after the previous one."""
    if size <= 0 or not 0 <= overlap < size:
        raise ValueError(f"chunk size {size} and overlap {overlap}: need size > 0 and 0 <= overlap < size")
    out: list[ChunkUnit] = []
    start = 1
    while start <= n_lines:
        end = min(start + size - 1, n_lines)
        out.append(ChunkUnit(len(out), start, end))
        if end == n_lines:
            break
        start += size - overlap
    return out
