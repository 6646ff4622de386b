"""The figures table a scale benchmark module prints and writes at its end, and the percentile it uses."""
from __future__ import annotations

from pathlib import Path


def pct(xs: list[float], p: float) -> float:
    """The `p` quantile of `xs` (nearest rank; p in 0..1)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))]


class Figures:
    """Everything a module measured, written out as one Markdown table at the end."""

    def __init__(self, title: str, path: Path) -> None:
        self.title, self.path = title, path
        self.rows: list[tuple[str, str]] = []

    def add(self, name: str, value: str) -> None:
        self.rows.append((name, value))

    def write(self) -> str:
        """Write the table to `path` and return its text."""
        text = f"# {self.title}\n\n| measure | value |\n|---|---|\n"
        text += "".join(f"| {a} | {b} |\n" for a, b in self.rows)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(text)
        return text
