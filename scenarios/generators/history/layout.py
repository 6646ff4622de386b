"""What a path is (code, tests, docs, devops) and which files are hubs, by rules over the data alone.

- tests: a path with a folder `tests`, `test`, `testing`, `__tests__`, `spec` or `*_tests`, or a file named
  `test_*`, `conftest.py`, `*_test.<ext>` (Python's and Go's convention), `*.test.<ext>` or `*.spec.<ext>`
  (JavaScript's);
- devops: a path whose first component starts with a dot (`.github/`, `.travis.yml`, ...);
- docs: a path under `docs/` or `doc/`, or a `.md`, `.rst` or `.txt` file;
- package roots: the outermost folders holding an `__init__.py` among every path
  the history ever names (a folder whose parent also holds one is inside a
  package), test folders excepted;
- code: a path under a package root; in a history with no package root (not a Python
  project), a source file (`OTHER_SOURCE`: Go, Rust, JavaScript, C, ...) that is not tests,
  docs or devops. Python marks its packages with `__init__.py`, and its files outside them are
  scripts, build files and assets (`setup.py`, a docs site's vendored `.min.js`); the other
  languages have no such marker, and their build files are not source files (`Cargo.toml`,
  `package.json`, `go.mod`), so there every source file is code. A Python project's code in
  another language (a C or Rust extension outside the packages) is not code by these rules.
- hubs: files (followed through renames) that more than HUB_SHARE of the
  default branch's non-merge commits touch.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import PurePosixPath

HUB_SHARE = 0.05
_TEST_DIRS = {"tests", "test", "testing", "__tests__", "spec"}
_DOC_DIRS = {"docs", "doc"}
# source files of languages without a package marker: code in a history with no Python package
OTHER_SOURCE = frozenset({".c", ".h", ".cc", ".cpp", ".hpp", ".rs", ".go", ".java", ".kt", ".js", ".mjs", ".cjs",
                          ".jsx", ".ts", ".tsx", ".rb", ".php", ".cs", ".swift", ".scala", ".lua", ".pl", ".jl",
                          ".m", ".mm"})


def is_test(path: str) -> bool:
    p = PurePosixPath(path)
    dirs, parts = p.parts[:-1], p.name.split(".")
    return bool(_TEST_DIRS & set(dirs)) or any(d.endswith("_tests") for d in dirs) or p.name.startswith("test_") or \
        p.name == "conftest.py" or (len(parts) > 1 and parts[0].endswith("_test")) or \
        (len(parts) > 2 and parts[-2] in ("test", "spec"))


def is_devops(path: str) -> bool:
    return path.startswith(".")


def is_doc(path: str) -> bool:
    p = PurePosixPath(path)
    return (len(p.parts) > 1 and p.parts[0] in _DOC_DIRS) or p.suffix in (".md", ".rst", ".txt")


def package_roots(paths: Iterable[str]) -> list[str]:
    """Outermost folders with an `__init__.py` (not test folders), as 'a/b/' prefixes."""
    inits = {str(PurePosixPath(p).parent) for p in paths if PurePosixPath(p).name == "__init__.py"}
    inits = {d for d in inits if d != "." and not is_test(d + "/x")}
    roots = {d for d in inits if str(PurePosixPath(d).parent) not in inits}
    return sorted(d + "/" for d in roots)


class Layout:
    """Classifies paths of one history (package roots computed once from all its paths)."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.roots = package_roots(paths)

    def is_code(self, path: str) -> bool:
        if is_test(path):
            return False
        if self.roots:
            return any(path.startswith(r) for r in self.roots)
        return PurePosixPath(path).suffix.lower() in OTHER_SOURCE and not is_doc(path) and not is_devops(path)

    def category(self, paths: list[str]) -> str:
        """The query category: code if any path is package code, else tests, docs, project."""
        if any(self.is_code(p) for p in paths):
            return "code"
        if any(is_test(p) for p in paths):
            return "tests"
        return "docs" if any(is_doc(p) for p in paths) else "project"

    def contexts(self, paths: list[str]) -> list[str]:
        """Seed 000 §2.3 context slugs: tests -> testing, devops -> devops, package code -> api."""
        ctx = set()
        for p in paths:
            if is_test(p):
                ctx.add("context:testing")
            elif is_devops(p):
                ctx.add("context:devops")
            elif self.is_code(p):
                ctx.add("context:api")   # a library's package code is its API (seed 000 §2.3 has no "code")
        return sorted(ctx)


def hubs(touches: list[set[str]]) -> set[str]:
    """File identities touched by more than HUB_SHARE of the commits (one set of identities per commit)."""
    count = Counter(f for t in touches for f in t)
    return {f for f, n in count.items() if n > HUB_SHARE * len(touches)}


TASK_RULES = [  # first matching keyword of the subject decides the task slug (plain English, any repository)
    (("fix", "bug", "error", "crash", "broken"), "task:bugfix"),
    (("test",), "task:generate_tests"),
    (("doc", "readme", "typo", "changelog"), "task:explain"),
    (("refactor", "rename", "move", "clean"), "task:refactor"),
    (("faster", "performance", "speed", "optimi"), "task:optimize"),
    (("ci", "workflow", "github actions", "travis"), "task:infra_update"),
    (("bump", "upgrade", "dependency", "require"), "task:dependency_update"),
    (("release",), "task:infra_update"),
]


def task_for(subject: str) -> str:
    s = subject.lower()
    for words, task in TASK_RULES:
        if any(w in s for w in words):
            return task
    return "task:implement_feature"
