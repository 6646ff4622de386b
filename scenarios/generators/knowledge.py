"""Generate the `knowledge` scenario (seed 001) and its planted truth.

A fictional product's engineering notes, written by an agent over about
three months of logical time. Every memory is built from templates whose
slots are filled from `WORLD`, so the generator knows, without asking any
store, which entities each text names (file paths, the path slugs of seed
004, symbols, modules, dates, `project:`/`agent:` slugs, learned concepts),
which memory updates, extends, derives from or relates to which, what each
query should find, and which memories fall in each timeline window.

Planted entities follow the annotation rules in scenarios/README.md
("Knowledge: synthetic notes"): a path names its file and, under
`src/features/<f>/`, the slug `feature:<f>` (seed 004 §4.1); a relative date
means the UTC day of the write. Noise texts carry things that are not
entities (decimals, URLs, "e.g.", "and/or", "50/50"). How updates,
extensions and derivations are worded comes from scenarios/spec/knowledge.toml.

Two worlds: `knowledge_world.py` gives the scored `knowledge` scenario,
`knowledge_world_calibration.py` (another product, its own vocabulary and
wordings) the `knowledge-calibration` scenario, in no suite: notes for fitting
a constant without fitting it on the scored one (scenarios/README.md,
"Calibration split").

Outputs: scenarios/knowledge.jsonl, oracle_data/knowledge/truth.json, and the
same for knowledge-calibration. Deterministic (seeded `random.Random`); rerun
and the outputs must not change.

    python scenarios/generators/knowledge.py
"""
from __future__ import annotations

import json
import random
import sys
import tomllib
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = "knowledge"
START = 1756717200  # 2025-09-01T09:00:00Z
DAY = 86400

# the vocabulary lives next to this script (run as a script or loaded by path, so no package import)
sys.path.insert(0, str(Path(__file__).resolve().parent))
import knowledge_world  # noqa: E402
import knowledge_world_calibration  # noqa: E402

WORLDS = {w.SCENARIO: w for w in (knowledge_world, knowledge_world_calibration)}

SPEC = tomllib.loads((ROOT / "scenarios" / "spec" / "knowledge.toml").read_text())


def day_of(ts: float) -> str:
    return datetime.fromtimestamp(ts, tz=timezone.utc).date().isoformat()


def path_of(feat: str, name: str) -> str:
    return f"src/features/{feat}/{name}"


class Builder:
    """Accumulates steps and the planted truth while the logical clock moves."""

    def __init__(self, world) -> None:
        self.w = world
        self.rng = random.Random(world.SEED)
        self.clock = float(START)
        self.steps: list[dict] = [{"directive": "session", "session_id": "notes", "run_id": "knowledge",
                                   "scope": world.SCOPE}]
        self.entities: dict[str, list[str]] = {}
        self.dates: dict[str, float] = {}     # alias -> effective date (document date, else recorded)
        self.relations: list[dict] = []
        self.searches: list[dict] = []
        self.texts: dict[str, str] = {}

    def tick(self, days: float = 1.0) -> None:
        seconds = int(days * DAY + self.rng.randint(-3, 3) * 3600)
        self.clock += seconds
        self.steps.append({"directive": "advance_clock", "seconds": seconds})

    def write(self, alias: str, text: str, entities: list[str], doc_date: float | None = None) -> None:
        self.steps.append({"tool": "memory_write_structured", "args": {"text": text}, "as": alias})
        self._record(alias, text, entities, doc_date)

    def learn(self, alias: str, pattern: str, concepts: list[str], source: str) -> None:
        self.steps.append({"tool": "oracle_learn", "args": {"pattern": pattern, "concepts": concepts,
                                                            "source": source}, "as": alias})
        self._record(alias, pattern, [f"concept:{c.lower()}" for c in concepts], None)

    def _record(self, alias: str, text: str, entities: list[str], doc_date: float | None) -> None:
        self.entities[alias] = sorted(set(entities))
        self.dates[alias] = doc_date if doc_date is not None else float(int(self.clock))
        self.texts[alias] = text

    def relate(self, source: str, target: str, type_: str) -> None:
        self.relations.append({"source": source, "target": target, "type": type_})


def fact_text(template: str, feat: str, attr: str, path: str, sym: str, v: int, unit: str) -> str:
    return template.format(Feat=feat.capitalize(), feat=feat, attr=attr, path=path, sym=sym, v=v, unit=unit)


def generate(world=knowledge_world) -> tuple[list[dict], dict]:
    """The scenario's lines (header first) and its truth, from one world's vocabulary (default: the scored one)."""
    b = Builder(world)
    rng, w = b.rng, world
    facts: list[dict] = []
    # Phase 1: facts, bugs, decisions, modules, noise, interleaved in a shuffled order.
    jobs: list[tuple] = []
    for feat, (fact_rows, bug_rows) in w.WORLD.items():
        jobs += [("fact", feat, i) for i in range(len(fact_rows))] + [("bug", feat, i) for i in range(len(bug_rows))]
    jobs += [("decision", None, i) for i in range(len(w.DECISIONS))]
    jobs += [("module", None, i) for i in range(len(w.MODULES))]
    jobs += [("noise", None, i) for i in range(len(w.NOISE))] + [("bool", f, 0) for f in w.BOOLEAN_FACTS]
    jobs += [("chat", None, i) for i in range(len(w.CHATS))]
    rng.shuffle(jobs)
    bugs: dict[str, list[str]] = {f: [] for f in w.WORLD}
    for kind, feat, i in jobs:
        b.tick(rng.choice([0.5, 1.0, 1.0, 1.5]))
        if kind == "fact":
            attr, fname, sym, v, v2, unit = w.WORLD[feat][0][i]
            tpl = w.FACT_TEMPLATES[(i + len(feat)) % len(w.FACT_TEMPLATES)]
            alias, path = f"f_{feat}_{i}", path_of(feat, fname)
            ents = [f"file:{path}", f"feature:{feat}", f"symbol:{sym.lower()}"]
            b.write(alias, fact_text(tpl, feat, attr, path, sym, v, unit), ents)
            facts.append({"alias": alias, "feat": feat, "attr": attr, "path": path, "sym": sym, "v": v, "v2": v2,
                          "unit": unit, "tpl": tpl, "current": [alias], "old": [], "bool": False})
        elif kind == "bool":
            stmt, neg, fname, sym = w.BOOLEAN_FACTS[feat]
            alias, path = f"f_{feat}_bool", path_of(feat, fname)
            b.write(alias, f"{sym} in {path} {stmt}.", [f"file:{path}", f"feature:{feat}", f"symbol:{sym.lower()}"])
            facts.append({"alias": alias, "feat": feat, "attr": stmt, "path": path, "sym": sym, "neg": neg,
                          "current": [alias], "old": [], "bool": True})
        elif kind == "bug":
            bug, cause, fname, sym = w.WORLD[feat][1][i]
            alias, path = f"b_{feat}_{i}", path_of(feat, fname)
            when = b.clock - rng.randint(0, 3) * DAY
            text = f"Fixed a {bug} in {sym}() ({path}) on {day_of(when)}: it happened when {cause}."
            doc = datetime.fromisoformat(day_of(when)).replace(tzinfo=timezone.utc).timestamp()
            b.write(alias, text, [f"file:{path}", f"feature:{feat}", f"symbol:{sym.lower()}", f"time:{day_of(when)}"],
                    doc_date=doc)
            bugs[feat].append(alias)
        elif kind == "decision":
            proj, feat_d, tech, purpose, agent = w.DECISIONS[i]
            rel, offset = w.RELATIVE[i % len(w.RELATIVE)]
            when = day_of(b.clock + offset * DAY)
            text = (f"Decision for project:{proj}: {feat_d} will use {tech} for {purpose}; "
                    f"agent:{agent} reviewed it {rel}.")
            doc = datetime.fromisoformat(when).replace(tzinfo=timezone.utc).timestamp()
            b.write(f"dec_{i}", text, [f"project:{proj}", f"agent:{agent}", f"time:{when}"], doc_date=doc)
        elif kind == "module":
            module, reason = w.MODULES[i]
            leaf = module.rsplit(".", 1)[1]
            text = (f"`import {module}` fails on Python 3.12 because {reason}; "
                    f"the workaround is `from {module} import {leaf}_compat` until the next release.")
            b.write(f"mod_{i}", text, [f"module:{module}"])
        elif kind == "chat":
            text, ents = w.CHATS[i]
            b.write(f"c_{i}", text, ents)
        else:
            text, ents = w.NOISE[i]
            b.write(f"n_{i}", text, ents)
    # Phase 2: mid-way queries (before any update), then updates, extensions, tests, derivations.
    rng.shuffle(facts)
    for f in facts[:4]:
        b.tick(0.25)
        add_fact_query(b, f, f"mid_{f['alias']}")
    updated, extended = facts[:7], facts[7:11]
    for k, f in enumerate(updated):
        b.tick(rng.choice([1.0, 1.5, 2.0]))
        alias, style = "u_" + f["alias"][2:], None if f["bool"] else SPEC["update"][k % len(SPEC["update"])]
        text, ents = update_text(f, style)
        b.write(alias, text, ents)
        b.relate(alias, f["alias"], "updates")
        f["old"], f["current"] = f["current"], [alias]
    for j, f in enumerate(extended):
        b.tick(rng.choice([1.0, 1.5]))
        alias = "e_" + f["alias"][2:]
        ents = [f"file:{f['path']}", f"feature:{f['feat']}", f"symbol:{f['sym'].lower()}"]
        style = SPEC["extend"][j % len(SPEC["extend"])]
        if style.get("restate"):    # the note restated with a sentence added
            text, ents = b.texts[f["alias"]] + " " + style["suffix"][j % len(style["suffix"])], b.entities[f["alias"]]
        else:
            clauses = style.get("clause", [""])
            text = style["text"].format(sym=f["sym"], path=f["path"], clause=clauses[j % len(clauses)])
        b.write(alias, text, ents)
        b.relate(alias, f["alias"], "extends")
        f["current"] = f["current"] + [alias]
    plain = [f for f in facts[11:] if not f["bool"]]
    for j, f in enumerate(plain[:4]):
        b.tick(1.0)
        alias = f"t_{f['alias'][2:]}"
        tpl, names_sym = w.TEST_NOTES[j % len(w.TEST_NOTES)]
        ents = [f"symbol:{f['sym'].lower()}"] if names_sym else []
        ents += [f"file:{f['path']}", f"feature:{f['feat']}"] if "{path}" in tpl else []
        b.write(alias, tpl.format(path=f["path"], sym=f["sym"]), ents)
        b.relate(alias, f["alias"], "relates_to")
    pairs = [(plain[4 + 2 * k], plain[5 + 2 * k]) for k in range(min(2, (len(plain) - 4) // 2))]
    for k, (fa, fb) in enumerate(pairs):
        b.tick(1.0)
        alias = f"d_{k}"
        text = SPEC["derive"]["text"][k % len(SPEC["derive"]["text"])].format(sym_a=fa["sym"], attr_a=fa["attr"], v_a=fa["v"], unit_a=fa["unit"],
                                             sym_b=fb["sym"], attr_b=fb["attr"], v_b=fb["v"], unit_b=fb["unit"])
        b.write(alias, text, [f"symbol:{fa['sym'].lower()}", f"symbol:{fb['sym'].lower()}"])
        b.relate(alias, fa["alias"], "derives")
        b.relate(alias, fb["alias"], "derives")
        fa.setdefault("derived", []).append(alias)
        fb.setdefault("derived", []).append(alias)
    for j, (pattern, concepts) in enumerate(w.LEARNINGS):
        b.tick(0.5)
        b.learn(f"l_{j}", pattern, concepts, f"Conversation c-{j + 1}")
    add_negative_pairs(b)
    # Phase 3: queries at the end, timeline windows, entity and relationship checks, then scoring.
    b.tick(1.0)
    for k, f in enumerate(sorted(facts, key=lambda x: x["alias"])):
        add_fact_query(b, f, f"q_{f['alias']}", ranker=True, paraphrase=k % 2 == 1)
    for feat, aliases in sorted(bugs.items()):
        for alias in aliases:
            bug = w.WORLD[feat][1][int(alias.rsplit("_", 1)[1])][0]
            add_search(b, f"q_{alias}", {"query": f"what caused the {bug} in {feat}?"}, {alias: 2}, ranker=True)
        lo = min(b.dates[a] for a in aliases)
        window = {"after": day_of(lo), "before": day_of(lo + DAY)}
        members = {a: 2 for a in aliases if lo <= b.dates[a] < lo + DAY}
        add_search(b, f"qt_{feat}", {"query": f"bugs fixed in {feat}", "temporalFilter": window}, members)
    for feat in sorted(w.WORLD)[:4]:
        rel = {a: 2 for f in facts if f["feat"] == feat for a in f["current"]}
        rel |= {a: 1 for f in facts if f["feat"] == feat for a in f["old"]}
        add_search(b, f"qe_{feat}", {"query": f"configured limits and durations for {feat}",
                                      "entityFilter": [f"feature:{feat}"]}, rel)
    add_timeline_checks(b)
    add_entity_checks(b, facts)
    for r in b.relations:
        if r["type"] != "none":
            b.steps.append({"tool": "oracle_relationships", "args": {"documentId": f"${r['source']}", "type": r["type"]},
                            "expect": {"contains": [r["target"]]}})
    b.steps.append({"directive": "score_knowledge", "truth": f"../oracle_data/{w.SCENARIO}/truth.json"})
    truth = {"format": 1, "entities": b.entities, "relationships": b.relations, "searches": b.searches}
    return [header(w), *b.steps], truth


def update_text(f: dict, style: dict | None) -> tuple[str, list[str]]:
    """The text of an update and its entities, worded as the spec's `style` says (None: the negated fact)."""
    path_ents = [f"file:{f['path']}", f"feature:{f['feat']}"]
    all_ents = path_ents + [f"symbol:{f['sym'].lower()}"]
    if style is None:
        return SPEC["negated"]["text"].format(sym=f["sym"], path=f["path"], neg=f["neg"]), all_ents
    if style.get("restate"):
        text = fact_text(f["tpl"], f["feat"], f["attr"], f["path"], f["sym"], f["v2"], f["unit"])
    else:
        text = style["text"].format(Feat=f["feat"].capitalize(), feat=f["feat"], attr=f["attr"], path=f["path"],
                                    sym=f["sym"], v=f["v"], v2=f["v2"], unit=f["unit"])
    return text, all_ents if style["names"] == "all" else path_ents


def add_fact_query(b: Builder, f: dict, qid: str, ranker: bool = False, paraphrase: bool = False) -> None:
    if paraphrase and f["attr"] in b.w.PARAPHRASES:
        q = b.w.PARAPHRASES[f["attr"]]
    elif f["bool"]:
        q = f"does {f['feat']} {' '.join(f['attr'].split()[:3])}"
    else:
        q = f"what is the {f['attr']} in {f['feat']}" if len(qid) % 2 else f"{f['feat']} {f['attr']} setting"
    rel = {a: 2 for a in f["current"]} | {a: 1 for a in f["old"]} | {a: 1 for a in f.get("derived", [])}
    add_search(b, qid, {"query": q}, rel, ranker=ranker)


def add_search(b: Builder, qid: str, args: dict, relevant: dict[str, int], ranker: bool = False) -> None:
    b.steps.append({"tool": "oracle_search", "args": args, "id": qid, "category": "oracle",
                    "expect": {"relevant": relevant, "k": 10}})
    b.searches.append({"id": qid, "args": args, "relevant": relevant})
    if ranker:
        b.steps.append({"tool": "memory_search_structured", "args": {"query": args["query"], "top_k": 10},
                        "id": f"r{qid}", "category": "ranker", "expect": {"relevant": relevant, "k": 10}})


def add_negative_pairs(b: Builder) -> None:
    """Pairs that share no planted entity and are about different features: truth `none`."""
    aliases = list(b.entities)
    feats = {a: next((e for e in b.entities[a] if e.startswith("feature:")), None) for a in aliases}
    cands = [(x, y) for i, x in enumerate(aliases) for y in aliases[:i]
             if x[0] == y[0] and feats[x] and feats[y] and feats[x] != feats[y]
             and not set(b.entities[x]) & set(b.entities[y])]
    for x, y in b.rng.sample(cands, 24):
        b.relate(x, y, "none")


def add_timeline_checks(b: Builder) -> None:
    dates = sorted(b.dates.values())
    for k in range(4):
        lo = dates[len(dates) * k // 5]
        lo_day = datetime.fromtimestamp(lo, tz=timezone.utc).replace(hour=0, minute=0, second=0)
        after, before = lo_day, lo_day + timedelta(days=5)
        members = sorted(a for a, d in b.dates.items() if after.timestamp() <= d < before.timestamp())
        b.steps.append({"tool": "oracle_timeline", "args": {"after": after.date().isoformat(),
                                                            "before": before.date().isoformat()},
                        "expect": {"contains": members, "count": len(members)}})


def add_entity_checks(b: Builder, facts: list[dict]) -> None:
    feats = sorted(f"feature:{f}" for f in b.w.WORLD)
    b.steps.append({"tool": "oracle_entities", "args": {"type": "feature"}, "expect": {"contains": feats,
                                                                                      "count": len(feats)}})
    for alias in ["dec_0", "mod_0", "n_4", "l_0", facts[0]["alias"]]:
        b.steps.append({"tool": "oracle_entities", "args": {"documentId": f"${alias}"},
                        "expect": {"contains": b.entities[alias]}})


def header(w=knowledge_world) -> dict:
    calibration = w.SCENARIO != NAME
    what = ("Calibration instance of `knowledge` (another product's notes, in no suite): "
            if calibration else "")
    return {"scenario": w.SCENARIO, "format": 1,
            "description": what + "Seed 001 knowledge layer: generated engineering notes with planted entities, "
                                  "updates/extends/derives/relates_to pairs, searches and timeline windows.",
            "start_time": START, "oracle": None,
            "source": f"generated by scenarios/generators/knowledge.py{f' ({w.__name__}.py)' if calibration else ''}; "
                      f"truth in oracle_data/{w.SCENARIO}/truth.json",
            "latency_budget_ms": 50,
            "targets": [target("entity_f1", 0.8, "entity extraction accuracy > 80%"),
                        target("relationship_accuracy", 0.7, "relationship detection > 70%"),
                        target("search_ndcg@10", 0.85, "search relevance > 85%")]}


def target(metric: str, value: float, what: str) -> dict:
    return {"metric": metric, "op": ">", "value": value, "source": f"seed 001 success criteria: {what}"}


def main() -> int:
    for name, world in WORLDS.items():
        lines, truth = generate(world)
        out = ROOT / "scenarios" / f"{name}.jsonl"
        out.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines))
        tdir = ROOT / "oracle_data" / name
        tdir.mkdir(parents=True, exist_ok=True)
        (tdir / "truth.json").write_text(json.dumps(truth, indent=1, sort_keys=True) + "\n")
        n_mem = len(truth["entities"])
        print(f"{out.relative_to(ROOT)}: {len(lines) - 1} steps, {n_mem} memories, {len(truth['searches'])} oracle "
              f"searches, {len(truth['relationships'])} planted pairs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
