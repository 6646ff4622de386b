"""Generate the `memory-lane` scenario (seed 004) with its planted ground truth.

The generator's model: five features (auth, billing, search, notifications,
onboarding) each hold three of six shared topics (token refresh, retries,
caching, migrations, logging, tests); every (feature, topic) pair has three
memories of different types whose texts differ across features only in a
number and, for every other feature, a mention of the feature's name. All
memories of a feature are alike in that, and every text starts with its
topic's phrase and has about the same length, so the types of one pair meet
a query on equal lexical terms and only the intent can tell them apart. The entity is
known from the files touched, packed into `metadata.entity_slugs` as seed 004
§4.1 stores it, so every backend receives the same memories through
`memory_write_structured`, and the ranking queries are plain
`memory_search_structured` steps that every backend and ranker answers.

Ground truth, all by construction:
- entity queries ("billing request retries"): the pair's three memories are
  relevant; with an intent word ("mistake", "decided") the type it names has
  grade 2 and the others grade 1. Topic queries without an entity: every
  memory of the topic. Filtered queries: the topic's memories in the context.
- everything the probes assume is what seed 004 states, read from
  scenarios/spec/lane.toml (the seed gives no type weights, so no probe
  relies on any): intent boost probes store one text under two types and
  find it with and without an intent word; the ratio of the two memories'
  scores with the word over the ratio without it is the seed's +15% (x1.15)
  when only the first type is boosted, 1.0 when both or neither are.
- feedback probes: twins (one type, texts differing in a last word); after
  `helpful` (x1.10) or `harmful` (x0.50) on one, its score over its twin's,
  over the same ratio before, is the seed's factor.
- floor probes: queries that share nothing with any memory come back empty,
  each paired with a control, a restatement of a memory, that does not; a pair
  scores only when both are right, so answering nothing earns nothing.
- clarification probes: "payments" names feature:payments and
  project:payments, "blue" agent:blue-lake and agent:blue-river: they must ask
  and find nothing; each is paired with a control that names one entity exactly
  and must find without asking (scored by pair, as the floor).
- injection sessions repeat queries; no memory may be injected twice per session.

Deterministic: no randomness; rerun it and the committed output must not change.

    python scenarios/generators/memory_lane.py
"""
from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = "memory-lane"
SPEC = ROOT / "scenarios" / "spec" / "lane.toml"
START = 1_767_225_600  # 2026-01-01T00:00:00Z

FEATURES = [("auth", "context:auth", 2), ("billing", "context:billing", 3), ("search", "context:backend", 5),
            ("notifications", "context:frontend", 10), ("onboarding", "context:ui", 15)]
# topic -> (query phrase, file touched, {type: template}); {n} varies by feature
TOPICS = {
    "token": ("session token refresh", "session.ts", {
        "correction": "Session token refresh: refreshing on every request was wrong; refresh {n} minutes before expiry instead.",
        "decision": "Session token refresh: we decided the refresh token lives in an httpOnly cookie for {n} days.",
        "learning": "Session token refresh: it fails silently when the client clock skew exceeds {n} seconds."}),
    "retries": ("request retries", "client.ts", {
        "correction": "Request retries: retrying at once was a mistake; back off exponentially from {n}00 ms.",
        "decision": "Request retries: we decided to cap them at {n} attempts, then show the error.",
        "pattern_seed": "Request retries: the first one usually succeeds after {n}00 ms; timeouts cluster after deploys."}),
    "cache": ("response cache", "cache.ts", {
        "correction": "Response cache: keys without a schema version were wrong; add the version to every key.",
        "decision": "Response cache: we decided on a {n} second TTL rather than manual invalidation.",
        "insight": "Response cache: the hit rate falls to {n} percent after each release, as keys embed the build."}),
    "migrations": ("database migration", "migrate.ts", {
        "correction": "Database migration: running it inside the request handler was a mistake; run it as a release step.",
        "decision": "Database migration: we decided each one must be reversible, its down step tested within {n} minutes.",
        "commitment": "Database migration: always back up the table first; never drop a column in the same release."}),
    "logging": ("structured logging", "logger.ts", {
        "correction": "Structured logging: writing full request bodies was wrong; redact tokens and emails first.",
        "decision": "Structured logging: we decided on JSON lines with a request id, debug sampled at {n} percent.",
        "workflow_note": "Structured logging: the checklist runs before each release; attach the request id to tickets."}),
    "tests": ("integration tests", "flow.test.ts", {
        "correction": "Integration tests: mocking the database was a mistake; give each test a throwaway SQLite file.",
        "decision": "Integration tests: we decided the slow ones run nightly with a {n} minute budget, not per push.",
        "gap": "Integration tests: missing coverage for daylight saving edge cases in the scheduler."}),
}
TOPIC_ORDER = list(TOPICS)
INTENTS = {None: ("{f} {p}", None), "mistake": ("what mistake did we make with {f} {p}?", "correction"),
           "decided": ("what was decided about {f} {p}?", "decision")}
CLARIFY_MEMORIES = [
    ("pay_feature", "Payments retries must reuse one idempotency key per charge.", None, ["src/features/payments/charge.ts"]),
    ("pay_project", "The payments service retries webhook deliveries for 24 hours.", ["project:payments"], None),
    ("agent_lake", "BlueLake hands off unfinished work with a checklist in the pull request description.", ["agent:blue-lake"], None),
    ("agent_river", "BlueRiver prefers small pull requests and reviews the test plan first.", ["agent:blue-river"], None),
    ("atlas_pnpm", "project:atlas uses pnpm workspaces; never commit an npm lockfile there.", None, None),
]
# (ambiguous probe: must ask and find nothing, control naming one entity: must find without asking)
CLARIFY_PAIRS = [("what did we decide about payments retries?", "project:payments delivery retries"),
                 ("handoff notes from blue", "blue lake handoff notes")]
# Like-with-like probes of seed 004's stated effects (scenarios/spec/lane.toml): the same text stored under
# two types, so the seed's intent boost is the only difference between the two scores' ratio with and
# without the intent word. (entity, text, neutral query, intent query, type a, type b)
BOOST_PAIRS = [
    ("deploy", "Roll back a failed deploy by re-pointing the release symlink, then restart the workers.",
     "roll back a failed deploy by re-pointing the release symlink",
     "what mistake did we make when we roll back a failed deploy by re-pointing the release symlink?",
     "correction", "learning"),
    ("uploads", "Large uploads go through presigned URLs; the API server never buffers the file body.",
     "large uploads go through presigned urls; the api server never buffers the file body",
     "what was decided: large uploads go through presigned urls; the api server never buffers the file body?", "decision", "insight"),
    ("reports", "Monthly reports are generated from the read replica after midnight UTC.",
     "monthly reports are generated from the read replica after midnight utc",
     "how do we usually say monthly reports are generated from the read replica after midnight utc?",
     "pattern_seed", "workflow_note"),
    ("webhooks", "Webhook signatures are verified with the raw request body before JSON parsing.",
     "webhook signatures are verified with the raw request body before json parsing",
     "what went wrong: webhook signatures are verified with the raw request body before json parsing?", "gap", "correction"),
    ("exports", "CSV exports stream rows in batches of one thousand to keep memory flat.",
     "csv exports stream rows in batches of one thousand to keep memory flat",
     "what was the mistake: csv exports stream rows in batches of one thousand to keep memory flat?", "learning", "commitment"),
]
# Twins: two memories of one type whose texts differ only in a last word; one gets a signal, the other not.
# (entity, text, query, type, signal)
FEEDBACK_TWINS = [
    ("cron", "Nightly cron jobs run in UTC and log their start and end to the ops channel", "nightly cron jobs utc",
     "learning", "helpful"),
    ("idletime", "Idle sessions expire after thirty minutes and the expiry is checked on each request",
     "idle sessions expire", "insight", "harmful"),
    ("queues", "The email queue drains in priority order and retries a failed send twice", "email queue priority",
     "decision", "helpful"),
    ("flags", "Feature flags are read once per request and cached for its duration", "feature flags per request",
     "commitment", "harmful"),
]
# (unrelated probe: must come back empty, control restating a memory: must not)
FLOOR_PAIRS = [("sourdough starter hydration ratio", "roll back a failed deploy by re-pointing the release symlink"),
               ("violin bow rosin grades", "idle sessions expire after thirty minutes"),
               ("tide tables for the harbour", "monthly reports are generated from the read replica after midnight")]
DISTRACTORS = [
    "The design system uses an 8 pixel spacing grid.", "Release notes are drafted from merged pull request titles.",
    "The office wifi drops video calls around noon.", "Dark mode colours come from the brand palette tokens.",
    "The marketing site is a separate static build.", "Quarterly planning happens in the first week of the quarter.",
    "Keyboard shortcuts are listed in the help dialog.", "The mobile app ships every second Tuesday.",
]
INJECT_SESSIONS = [
    ("inject-auth", ["what mistake did we make with auth session token refresh?", "auth session token refresh",
                     "auth session token refresh", "what mistake did we make with auth session token refresh?"]),
    ("inject-billing", ["billing request retries", "billing request retries", "what did we decide about billing request retries?"]),
    ("inject-mixed", ["how should session token refresh work?", "how should session token refresh work?",
                      "what did we decide about payments retries?"]),
]


def pairs() -> list[tuple[int, str, str]]:
    """(feature index, feature, topic): each feature holds three consecutive topics."""
    return [(i, f, TOPIC_ORDER[(i + j) % len(TOPIC_ORDER)]) for i, (f, _, _) in enumerate(FEATURES) for j in range(3)]


def corpus() -> list[dict]:
    """The shared memories with the generator's own record of type, entity, topic and context."""
    out = []
    for k, (i, feature, topic) in enumerate(pairs()):
        _, file, templates = TOPICS[topic]
        for t, (mtype, template) in enumerate(templates.items()):
            text = template.format(n=FEATURES[i][2])
            if i % 2 == 0:
                text = f"{feature.capitalize()}: {text}"
            out.append({"alias": f"{feature}_{topic}_{mtype}", "feature": feature, "topic": topic, "type": mtype,
                        "context": FEATURES[i][1], "text": text, "path": f"src/features/{feature}/{file}"})
    return out


def write_step(m: dict) -> dict:
    meta = {"memory_type": m["type"], "entity_slugs": [f"feature:{m['feature']}"], "lane_version": "1",
            "files_touched": [m["path"]]}
    return {"tool": "memory_write_structured", "as": m["alias"],
            "args": {"text": m["text"], "context": [m["context"]], "metadata": meta}}


def ranking_queries(mems: list[dict]) -> list[dict]:
    steps = []
    for k, (_, feature, topic) in enumerate(pairs()):
        intent = list(INTENTS)[k % 3]
        template, boosted = INTENTS[intent]
        rel = {m["alias"]: 2 if m["type"] == boosted else 1
               for m in mems if m["feature"] == feature and m["topic"] == topic}
        steps.append({"tool": "memory_search_structured", "id": f"entity-{feature}-{topic}",
                      "category": "intent" if intent else "entity",
                      "args": {"query": template.format(f=feature, p=TOPICS[topic][0]), "top_k": 10},
                      "expect": {"relevant": dict(sorted(rel.items())), "k": 10}})
    for topic, (phrase, _, _) in TOPICS.items():
        rel = sorted(m["alias"] for m in mems if m["topic"] == topic)
        steps.append({"tool": "memory_search_structured", "id": f"topic-{topic}", "category": "semantic",
                      "args": {"query": f"how should {phrase} work?", "top_k": 10}, "expect": {"relevant": rel, "k": 10}})
    for feature, ctx, _ in FEATURES[:3]:
        topic = next(t for _, f, t in pairs() if f == feature)
        rel = sorted(m["alias"] for m in mems if m["topic"] == topic and m["context"] == ctx)
        steps.append({"tool": "memory_search_structured", "id": f"filtered-{feature}-{topic}", "category": "filtered",
                      "args": {"query": TOPICS[topic][0], "context": [ctx], "top_k": 10},
                      "expect": {"relevant": rel, "k": 10}})
    return steps


def boost(spec: dict, query: str, mtype: str) -> float:
    """Seed 004 §4.4: the multiplicative boost an intent word of `query` gives `mtype` (1.0 if none)."""
    words = set(re.findall(r"[a-z_]+", query.lower()))
    hit = any(mtype in r["types"] and words & set(r["words"]) for r in spec["intent"]["rule"])
    return spec["intent"]["boost"] if hit else 1.0


def lane_steps() -> tuple[list[dict], dict]:
    """Lane-only memories and probes, and the score directive's planted truth."""
    steps: list[dict] = []
    truth: dict = {"clarification": [], "boost": [], "feedback_ratio": [], "floor": []}
    for alias, text, entities, paths in CLARIFY_MEMORIES:
        args = {"information": text, **({"entities": entities} if entities else {}), **({"paths": paths} if paths else {})}
        steps.append({"tool": "memory-lane_store", "as": alias, "args": args})
    for entity, text, _, _, ta, tb in BOOST_PAIRS:
        for mtype in (ta, tb):
            steps.append({"tool": "memory-lane_store", "as": f"{entity}_{mtype}",
                          "args": {"information": text, "type": mtype, "paths": [f"src/features/{entity}/index.ts"]}})
    for entity, text, _, mtype, _ in FEEDBACK_TWINS:
        for twin in ("a", "b"):
            steps.append({"tool": "memory-lane_store", "as": f"{entity}_{twin}",
                          "args": {"information": f"{text} ({twin}).", "type": mtype,
                                   "paths": [f"src/features/{entity}/index.ts"]}})
    steps.append({"tool": "memory-lane_store", "args": {"information": "Entities need a type.", "entities": ["auth"]},
                  "expect": {"error": "type:name"}})
    spec = tomllib.loads(SPEC.read_text())
    for entity, _, neutral, query, ta, tb in BOOST_PAIRS:
        for q in (neutral, query):
            steps.append({"tool": "memory-lane_find", "args": {"query": q, "limit": 10}})
        ratio = round(boost(spec, query, ta) / boost(spec, query, tb) / (boost(spec, neutral, ta) / boost(spec, neutral, tb)), 6)
        truth["boost"].append({"query": query, "limit": 10, "neutral": neutral, "a": f"{entity}_{ta}",
                               "b": f"{entity}_{tb}", "ratio": ratio})
    for probe, control in CLARIFY_PAIRS:
        for query, clarify in ((probe, True), (control, False)):
            steps.append({"tool": "memory-lane_find", "args": {"query": query, "limit": 5},
                          "expect": {"fields": {"clarification_required": clarify}}})
        truth["clarification"].append({"query": probe, "limit": 5, "control": control})
    for entity, _, query, _, signal in FEEDBACK_TWINS:
        find = {"query": query, "limit": 10}
        steps.append({"tool": "memory-lane_find", "args": find})
        steps.append({"tool": "memory-lane_feedback", "args": {"memory_id": f"${entity}_a", "signal": signal},
                      "expect": {"fields": {"state": signal}}})
        steps.append({"tool": "memory-lane_find", "args": find})
        truth["feedback_ratio"].append({**find, "target": f"{entity}_a", "twin": f"{entity}_b",
                                        "ratio": spec["feedback"][signal]})
    for probe, control in FLOOR_PAIRS:
        for query in (probe, control):
            steps.append({"tool": "memory-lane_find", "args": {"query": query, "limit": 10}})
        truth["floor"].append({"query": probe, "limit": 10, "control": control})
    truth["tolerance"] = spec["tolerance"]["relative"]
    return steps, truth


def inject_steps() -> list[dict]:
    steps = []
    for session, queries in INJECT_SESSIONS:
        for n, q in enumerate(queries):
            step = {"tool": "memory-lane_inject", "args": {"query": q, "session_id": session, "limit": 3}}
            if n == 0 and session == "inject-auth":
                step["expect"] = {"contains": ["auth_token_correction"]}
            if "payments" in q:
                step["expect"] = {"fields": {"clarification_required": True}, "count": 0}
            steps.append(step)
    return steps


def check_queries(queries: list[str]) -> None:
    """Independent check of the entity words: only the planted ambiguous queries may name two entities."""
    names = [f for f, _, _ in FEATURES] + [e for e, *_ in BOOST_PAIRS + FEEDBACK_TWINS] + ["payments", "atlas", "blue"]
    planted = {q for q, _ in CLARIFY_PAIRS} | {q for _, qs in INJECT_SESSIONS for q in qs if "payments" in q}
    for q in queries:
        words = [w for w in re.findall(r"[a-z]+", q.lower()) if len(w) >= 4 or w == "blue"]
        hits = {n for w in words for n in names if n.startswith(w[:-1] if w.endswith("s") else w)}
        if len(hits) > 1 and q not in planted:
            raise SystemExit(f"query {q!r} names several planted entities: {sorted(hits)}")
        if q in planted and not ("payments" in hits or "blue" in hits):
            raise SystemExit(f"planted ambiguous query {q!r} names no ambiguous entity")


def generate() -> list[dict]:
    mems = corpus()
    header = {
        "scenario": NAME, "format": 1, "start_time": START, "oracle": None, "latency_budget_ms": 50,
        "description": "Memory Lane (seed 004): typed memories about planted entities; entity, intent, topic and "
                       "filtered queries for every ranker; intent, feedback and clarification probes and "
                       "per-session injections for Memory Lane.",
        "source": "generated by scenarios/generators/memory_lane.py; ground truth from the generator's model",
        "targets": [
            {"metric": "lane_duplicate_injections_per_session", "op": "<=", "value": 0,
             "source": "seed 004 Phase 5: session recall tracking avoids duplicate injections",
             "needs": ["memory-lane_inject"]},
            {"metric": "lane_intent_boost_accuracy", "op": ">=", "value": 1.0,
             "source": "seed 004 §4.4: an intent word boosts its types by +15%, multiplicatively (same-text pairs)"},
            {"metric": "lane_feedback_accuracy", "op": ">=", "value": 1.0,
             "source": "seed 004 Phase 5: helpful +10%, harmful -50% (same-text twins)"},
            {"metric": "lane_floor_accuracy", "op": ">=", "value": 1.0,
             "source": "seed 004 §4.3: adaptive similarity floor (unrelated queries find nothing)"},
            {"metric": "lane_clarification_accuracy", "op": ">=", "value": 1.0,
             "source": "seed 004 Phase 4: clarification required when several entity slugs match"},
        ],
    }
    steps: list[dict] = [{"directive": "session", "session_id": "lane-build", "run_id": "memory-lane", "scope": "repo:shop"}]
    for m in mems:
        steps += [{"directive": "advance_clock", "seconds": 60}, write_step(m)]
    for n, text in enumerate(DISTRACTORS):
        steps.append({"tool": "memory_write_structured", "as": f"note_{n}", "args": {"text": text}})
    queries = ranking_queries(mems)
    lane, truth = lane_steps()
    injections = inject_steps()
    check_queries([s["args"]["query"] for s in queries + lane + injections if "query" in s.get("args", {})])
    steps += [{"directive": "session", "session_id": "lane-queries", "run_id": "memory-lane", "scope": "repo:shop"}]
    steps += queries + lane + injections
    steps.append({"directive": "score_memory_lane", **truth})
    return [header, *steps]


def main() -> int:
    lines = generate()
    out = ROOT / "scenarios" / f"{NAME}.jsonl"
    out.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines))
    n_queries = sum(1 for x in lines if "expect" in x and "relevant" in x["expect"])
    print(f"{out.relative_to(ROOT)}: {len(lines) - 1} steps, {n_queries} ranking queries", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
