"""Generate the `knowledge` scenario (seed 001) and its planted truth.

A fictional product's engineering notes, written by an agent over about
three months of logical time. Every memory is built from templates whose
slots are filled from `WORLD`, so the generator knows, without asking any
store, which entities each text names (file paths, the path slugs of seed
004, symbols, modules, dates, `project:`/`agent:` slugs, learned concepts),
which memory updates, extends, derives from or relates to which, what each
query should find, and which memories fall in each timeline window.

Planted entities follow the rules of reference/knowledge/README.md as a
specification: a path names its file and, under `src/features/<f>/`, the
slug `feature:<f>`; a relative date means the UTC day of the write. Noise
texts carry things that are not entities (versions, decimals, URLs, "e.g.",
"and/or", "50/50").

Outputs: scenarios/knowledge.jsonl, oracle_data/knowledge/truth.json.
Deterministic (seeded `random.Random`); rerun and the outputs must not change.

    python scenarios/generators/knowledge.py
"""
from __future__ import annotations

import json
import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = "knowledge"
SEED = 20260125
START = 1756717200  # 2025-09-01T09:00:00Z
DAY = 86400

# feature -> (facts: (attr, file, symbol, value, new value, unit)), (bugs: (bug, cause, file, symbol))
WORLD = {
    "auth": ([("session token lifetime", "session.ts", "authClient.refresh", 15, 60, "minutes"),
              ("limit of failed login attempts", "login_form.tsx", "LoginForm.submit", 5, 10, "attempts"),
              ("password reset link expiry", "reset_mailer.ts", "resetMailer.send", 24, 2, "hours")],
             [("race condition", "two browser tabs refresh the token at once", "token_store.ts", "TokenStore.rotate"),
              ("crash", "the session cookie is missing", "session.ts", "sessionGuard.check")]),
    "billing": ([("retry count for failed charges", "retry_policy.ts", "retryPolicy.nextDelay", 3, 5, "retries"),
                 ("invoice grace period", "invoice.ts", "InvoiceService.finalize", 7, 14, "days"),
                 ("webhook signature tolerance", "stripe_webhook.ts", "stripeWebhook.verify", 300, 600, "seconds")],
                [("rounding error", "invoice totals are summed as floats", "invoice.ts", "InvoiceService.total"),
                 ("duplicate charge", "the payment webhook is delivered twice", "stripe_webhook.ts", "stripeWebhook.handle")]),
    "search": ([("indexer batch size", "indexer.ts", "SearchIndexer.flush", 500, 200, "documents"),
                ("query timeout", "query_runner.ts", "queryRunner.execute", 2, 5, "seconds"),
                ("synonym cache size", "synonyms.ts", "synonymCache.load", 1000, 5000, "entries")],
               [("timeout", "a wildcard query scans every shard", "query_runner.ts", "queryRunner.plan"),
                ("stale results", "the indexer skips deleted documents", "indexer.ts", "SearchIndexer.remove")]),
    "upload": ([("maximum upload size", "upload_handler.ts", "uploadHandler.accept", 25, 100, "megabytes"),
                ("thumbnail width", "thumbnailer.ts", "Thumbnailer.resize", 320, 480, "pixels"),
                ("multipart chunk size", "chunker.ts", "chunker.split", 8, 16, "megabytes")],
               [("memory leak", "streams are never closed after an aborted upload", "upload_handler.ts", "uploadHandler.abort"),
                ("corrupted file", "chunks arrive out of order", "chunker.ts", "chunker.merge")]),
    "notifications": ([("digest email interval", "digest.ts", "digestJob.schedule", 24, 12, "hours"),
                       ("push retry backoff", "push_sender.ts", "pushSender.retry", 30, 90, "seconds"),
                       ("daily notification cap", "rate_limiter.ts", "notifyLimiter.allow", 20, 50, "messages")],
                      [("duplicate email", "the digest job runs on two workers", "digest.ts", "digestJob.lock"),
                       ("missing push", "expired device tokens are not pruned", "push_sender.ts", "pushSender.prune")]),
    "checkout": ([("cart reservation window", "cart.ts", "CartStore.reserve", 10, 30, "minutes"),
                  ("address autocomplete debounce", "address_form.tsx", "AddressForm.lookup", 300, 150, "milliseconds"),
                  ("maximum coupons per order", "coupons.ts", "couponRules.apply", 1, 3, "coupons")],
                 [("double submit", "the pay button is not disabled while pending", "pay_button.tsx", "PayButton.click"),
                  ("tax mismatch", "the tax rate is read before the address is saved", "cart.ts", "CartStore.total")]),
}
BOOLEAN_FACTS = {  # feature -> (statement, negated statement, file, symbol)
    "search": ("caches autocomplete results in redis for anonymous users",
               "does not cache autocomplete results in redis for anonymous users", "autocomplete.ts", "autocomplete.suggest"),
    "upload": ("scans every upload for viruses before it is stored",
               "does not scan uploads for viruses before they are stored", "scanner.ts", "virusScanner.scan"),
}
FACT_TEMPLATES = [
    "{Feat} config: the {attr} is {v} {unit}, set in {path} and read by {sym}.",
    "Checked {path}: {sym} enforces a {attr} of {v} {unit}.",
    "The {attr} for {feat} is {v} {unit} (see {sym} in {path}).",
]
EXTRAS = ["It also logs every change of this value to the audit table.",
          "Additionally the value is exported to the admin dashboard.",
          "It is also covered by an integration test in CI."]
PARAPHRASES = {  # how a user asks without the note's words
    "session token lifetime": "how long does a login session stay valid",
    "limit of failed login attempts": "how many wrong passwords before the account locks",
    "password reset link expiry": "when do password reset emails stop working",
    "retry count for failed charges": "how often is a declined payment tried again",
    "invoice grace period": "how long until an unpaid invoice counts as overdue",
    "webhook signature tolerance": "allowed clock skew when verifying stripe webhooks",
    "indexer batch size": "how many documents go into one indexing batch",
    "query timeout": "how long may a search query run",
    "synonym cache size": "capacity of the synonym cache",
    "maximum upload size": "largest file a user can upload",
    "thumbnail width": "how wide are generated thumbnails",
    "multipart chunk size": "size of each part in a multipart upload",
    "digest email interval": "how often are digest emails sent",
    "push retry backoff": "delay between push notification retries",
    "daily notification cap": "most notifications one user gets per day",
    "cart reservation window": "how long are cart items held for a shopper",
    "address autocomplete debounce": "delay before address suggestions appear",
    "maximum coupons per order": "how many coupons one order can use",
}
UPDATE_STYLES = ["restated", "restated_marker", "paraphrase_marker", "paraphrase", "worded"]
EXTRA_CLAUSES = ["logs every change of this value to the audit table", "exports the value to the admin dashboard"]
MODULES = [("shop.billing.stripe_client", "the SDK moved its error classes"),
           ("shop.auth.jwt_utils", "PyJWT 2 renamed the decode options"),
           ("shop.search.query_parser", "the grammar file is not packaged"),
           ("shop.common.retry", "it imports a removed asyncio helper")]
DECISIONS = [("shop", "auth", "passkeys", "second factor login", "claude"),
             ("shop", "billing", "Stripe Billing", "subscription invoices", "codex"),
             ("shop", "search", "Postgres full text search", "product lookups", "claude"),
             ("warehouse", "upload", "S3 multipart uploads", "large images", "gemini"),
             ("warehouse", "notifications", "a queue per channel", "push delivery", "codex")]
RELATIVE = [("yesterday", -1), ("today", 0), ("2 days ago", -2), ("last week", -7), ("3 days ago", -3)]
NOISE = [  # (text, planted entities)
    ("Release v2.4.1 is out; the rollout took 3.5 hours and/or a bit more, e.g. the CDN purge was slow.", []),
    ("See https://docs.example.com/guides/setup/install.html for the client/server setup steps.", []),
    ("Team sync: review duty is split 50/50 between frontend and backend, i.e. two reviewers per PR.", []),
    ("The p95 latency went from 120.5 ms to 98.2 ms after the cache warmup finished.", []),
    ("Updated README.md and CHANGELOG.md with the new install steps.", ["file:README.md", "file:CHANGELOG.md"]),
    ("Ran the data migration scripts/migrate_orders.py against staging without errors.",
     ["file:scripts/migrate_orders.py"]),
]
TEST_NOTES = [  # (template, names the symbol too)
    ("Added unit tests for {path} covering the error paths; they run in the nightly job.", False),
    ("New regression test for {sym}: it now runs against fake timers in CI.", True),
    ("Test coverage of {path} is now 92 percent after the empty input cases were added.", False),
    ("Wrote property tests around {sym} (in {path}) with random inputs.", True),
]
CHATS = [  # what an annotator marks, including what the rules cannot see (people, PascalCase names)
    ("Robin asked to rename CartStore to BasketStore in the checkout code; getCartTotal stays as is.",
     ["person:robin", "symbol:cartstore", "symbol:basketstore", "symbol:getcarttotal"]),
    ("Pairing with Modz on the flaky SearchIndexer test; the fix lives in useSearchQuery.",
     ["person:modz", "symbol:searchindexer", "symbol:usesearchquery"]),
    ("Note from Robin: support is confused by the upload limits, see uploadHandler.accept for the check.",
     ["person:robin", "symbol:uploadhandler.accept"]),
]
LEARNINGS = [("Always re-check the session before charging a card.", ["session safety", "payments"]),
             ("Prefer idempotency keys over locks for webhook handlers.", ["idempotency"]),
             ("Measure p95 latency before and after every cache change.", ["performance", "caching"])]


def day_of(ts: float) -> str:
    return datetime.fromtimestamp(ts, tz=timezone.utc).date().isoformat()


def path_of(feat: str, name: str) -> str:
    return f"src/features/{feat}/{name}"


class Builder:
    """Accumulates steps and the planted truth while the logical clock moves."""

    def __init__(self) -> None:
        self.rng = random.Random(SEED)
        self.clock = float(START)
        self.steps: list[dict] = [{"directive": "session", "session_id": "notes", "run_id": "knowledge",
                                   "scope": "repo:shop"}]
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


def generate() -> tuple[list[dict], dict]:
    b = Builder()
    rng = b.rng
    facts: list[dict] = []
    # Phase 1: facts, bugs, decisions, modules, noise, interleaved in a shuffled order.
    jobs: list[tuple] = []
    for feat, (fact_rows, bug_rows) in WORLD.items():
        jobs += [("fact", feat, i) for i in range(len(fact_rows))] + [("bug", feat, i) for i in range(len(bug_rows))]
    jobs += [("decision", None, i) for i in range(len(DECISIONS))] + [("module", None, i) for i in range(len(MODULES))]
    jobs += [("noise", None, i) for i in range(len(NOISE))] + [("bool", f, 0) for f in BOOLEAN_FACTS]
    jobs += [("chat", None, i) for i in range(len(CHATS))]
    rng.shuffle(jobs)
    bugs: dict[str, list[str]] = {f: [] for f in WORLD}
    for kind, feat, i in jobs:
        b.tick(rng.choice([0.5, 1.0, 1.0, 1.5]))
        if kind == "fact":
            attr, fname, sym, v, v2, unit = WORLD[feat][0][i]
            tpl = FACT_TEMPLATES[(i + len(feat)) % len(FACT_TEMPLATES)]
            alias, path = f"f_{feat}_{i}", path_of(feat, fname)
            ents = [f"file:{path}", f"feature:{feat}", f"symbol:{sym.lower()}"]
            b.write(alias, fact_text(tpl, feat, attr, path, sym, v, unit), ents)
            facts.append({"alias": alias, "feat": feat, "attr": attr, "path": path, "sym": sym, "v": v, "v2": v2,
                          "unit": unit, "tpl": tpl, "current": [alias], "old": [], "bool": False})
        elif kind == "bool":
            stmt, neg, fname, sym = BOOLEAN_FACTS[feat]
            alias, path = f"f_{feat}_bool", path_of(feat, fname)
            b.write(alias, f"{sym} in {path} {stmt}.", [f"file:{path}", f"feature:{feat}", f"symbol:{sym.lower()}"])
            facts.append({"alias": alias, "feat": feat, "attr": stmt, "path": path, "sym": sym, "neg": neg,
                          "current": [alias], "old": [], "bool": True})
        elif kind == "bug":
            bug, cause, fname, sym = WORLD[feat][1][i]
            alias, path = f"b_{feat}_{i}", path_of(feat, fname)
            when = b.clock - rng.randint(0, 3) * DAY
            text = f"Fixed a {bug} in {sym}() ({path}) on {day_of(when)}: it happened when {cause}."
            doc = datetime.fromisoformat(day_of(when)).replace(tzinfo=timezone.utc).timestamp()
            b.write(alias, text, [f"file:{path}", f"feature:{feat}", f"symbol:{sym.lower()}", f"time:{day_of(when)}"],
                    doc_date=doc)
            bugs[feat].append(alias)
        elif kind == "decision":
            proj, feat_d, tech, purpose, agent = DECISIONS[i]
            rel, offset = RELATIVE[i % len(RELATIVE)]
            when = day_of(b.clock + offset * DAY)
            text = (f"Decision for project:{proj}: {feat_d} will use {tech} for {purpose}; "
                    f"agent:{agent} reviewed it {rel}.")
            doc = datetime.fromisoformat(when).replace(tzinfo=timezone.utc).timestamp()
            b.write(f"dec_{i}", text, [f"project:{proj}", f"agent:{agent}", f"time:{when}"], doc_date=doc)
        elif kind == "module":
            module, reason = MODULES[i]
            leaf = module.rsplit(".", 1)[1]
            text = (f"`import {module}` fails on Python 3.12 because {reason}; "
                    f"the workaround is `from {module} import {leaf}_compat` until the next release.")
            b.write(f"mod_{i}", text, [f"module:{module}"])
        elif kind == "chat":
            text, ents = CHATS[i]
            b.write(f"c_{i}", text, ents)
        else:
            text, ents = NOISE[i]
            b.write(f"n_{i}", text, ents)
    # Phase 2: mid-way queries (before any update), then updates, extensions, tests, derivations.
    rng.shuffle(facts)
    for f in facts[:4]:
        b.tick(0.25)
        add_fact_query(b, f, f"mid_{f['alias']}")
    updated, extended = facts[:7], facts[7:11]
    for k, f in enumerate(updated):
        b.tick(rng.choice([1.0, 1.5, 2.0]))
        alias, style = "u_" + f["alias"][2:], "negated" if f["bool"] else UPDATE_STYLES[k % len(UPDATE_STYLES)]
        text, ents = update_text(f, style)
        b.write(alias, text, ents)
        b.relate(alias, f["alias"], "updates")
        f["old"], f["current"] = f["current"], [alias]
    for j, f in enumerate(extended):
        b.tick(rng.choice([1.0, 1.5]))
        alias = "e_" + f["alias"][2:]
        ents = [f"file:{f['path']}", f"feature:{f['feat']}", f"symbol:{f['sym'].lower()}"]
        if j % 3 == 0:    # the note restated with a sentence added
            text, ents = b.texts[f["alias"]] + " " + EXTRAS[j % len(EXTRAS)], b.entities[f["alias"]]
        elif j % 3 == 1:  # a new note about the same code that adds to it
            text = f"More on {f['sym']} ({f['path']}): it also {EXTRA_CLAUSES[j % len(EXTRA_CLAUSES)]}."
        else:             # an addition with no marker and few shared words (the rules are expected to miss it)
            text = f"{f['sym']} ({f['path']}) writes a metric on every call."
        b.write(alias, text, ents)
        b.relate(alias, f["alias"], "extends")
        f["current"] = f["current"] + [alias]
    plain = [f for f in facts[11:] if not f["bool"]]
    for j, f in enumerate(plain[:4]):
        b.tick(1.0)
        alias = f"t_{f['alias'][2:]}"
        tpl, names_sym = TEST_NOTES[j % len(TEST_NOTES)]
        ents = [f"symbol:{f['sym'].lower()}"] if names_sym else []
        ents += [f"file:{f['path']}", f"feature:{f['feat']}"] if "{path}" in tpl else []
        b.write(alias, tpl.format(path=f["path"], sym=f["sym"]), ents)
        b.relate(alias, f["alias"], "relates_to")
    pairs = [(plain[4 + 2 * k], plain[5 + 2 * k]) for k in range(min(2, (len(plain) - 4) // 2))]
    for k, (fa, fb) in enumerate(pairs):
        b.tick(1.0)
        alias = f"d_{k}"
        text = (f"Combining {fa['sym']} ({fa['attr']} {fa['v']} {fa['unit']}) with {fb['sym']} "
                f"({fb['attr']} {fb['v']} {fb['unit']}), therefore both limits must be tuned together.")
        b.write(alias, text, [f"symbol:{fa['sym'].lower()}", f"symbol:{fb['sym'].lower()}"])
        b.relate(alias, fa["alias"], "derives")
        b.relate(alias, fb["alias"], "derives")
        fa.setdefault("derived", []).append(alias)
        fb.setdefault("derived", []).append(alias)
    for j, (pattern, concepts) in enumerate(LEARNINGS):
        b.tick(0.5)
        b.learn(f"l_{j}", pattern, concepts, f"Conversation c-{j + 1}")
    add_negative_pairs(b)
    # Phase 3: queries at the end, timeline windows, entity and relationship checks, then scoring.
    b.tick(1.0)
    for k, f in enumerate(sorted(facts, key=lambda x: x["alias"])):
        add_fact_query(b, f, f"q_{f['alias']}", ranker=True, paraphrase=k % 2 == 1)
    for feat, aliases in sorted(bugs.items()):
        for alias in aliases:
            bug = WORLD[feat][1][int(alias.rsplit("_", 1)[1])][0]
            add_search(b, f"q_{alias}", {"query": f"what caused the {bug} in {feat}?"}, {alias: 2}, ranker=True)
        lo = min(b.dates[a] for a in aliases)
        window = {"after": day_of(lo), "before": day_of(lo + DAY)}
        members = {a: 2 for a in aliases if lo <= b.dates[a] < lo + DAY}
        add_search(b, f"qt_{feat}", {"query": f"bugs fixed in {feat}", "temporalFilter": window}, members)
    for feat in sorted(WORLD)[:4]:
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
    b.steps.append({"directive": "score_knowledge", "truth": "../oracle_data/knowledge/truth.json"})
    truth = {"format": 1, "entities": b.entities, "relationships": b.relations, "searches": b.searches}
    return [header(), *b.steps], truth


def update_text(f: dict, style: str) -> tuple[str, list[str]]:
    """The text of an update and its entities; the styles go from restating to paraphrasing."""
    path_ents = [f"file:{f['path']}", f"feature:{f['feat']}"]
    all_ents = path_ents + [f"symbol:{f['sym'].lower()}"]
    if style == "negated":
        return f"{f['sym']} in {f['path']} {f['neg']}.", all_ents
    same = fact_text(f["tpl"], f["feat"], f["attr"], f["path"], f["sym"], f["v2"], f["unit"])
    if style == "restated":
        return same, all_ents
    if style == "restated_marker":
        return same.replace(f" {f['v2']} {f['unit']}", f" now {f['v2']} {f['unit']} instead of {f['v']}", 1), all_ents
    if style == "paraphrase_marker":
        return (f"{f['sym']} now uses a {f['attr']} of {f['v2']} {f['unit']} instead of {f['v']} ({f['path']}).",
                all_ents)
    if style == "paraphrase":
        return f"Set the {f['attr']} of {f['feat']} to {f['v2']} {f['unit']} in {f['path']}.", path_ents
    # worded: the change without the new value or any marker (the rules are expected to miss it)
    return (f"{f['feat'].capitalize()}: we raised the {f['attr']} after the incident; {f['sym']} in {f['path']} "
            f"reads the new value.", all_ents)


def add_fact_query(b: Builder, f: dict, qid: str, ranker: bool = False, paraphrase: bool = False) -> None:
    if paraphrase and f["attr"] in PARAPHRASES:
        q = PARAPHRASES[f["attr"]]
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
    feats = sorted(f"feature:{f}" for f in WORLD)
    b.steps.append({"tool": "oracle_entities", "args": {"type": "feature"}, "expect": {"contains": feats,
                                                                                      "count": len(feats)}})
    for alias in ["dec_0", "mod_0", "n_4", "l_0", facts[0]["alias"]]:
        b.steps.append({"tool": "oracle_entities", "args": {"documentId": f"${alias}"},
                        "expect": {"contains": b.entities[alias]}})


def header() -> dict:
    return {"scenario": NAME, "format": 1,
            "description": "Seed 001 knowledge layer: generated engineering notes with planted entities, "
                           "updates/extends/derives/relates_to pairs, searches and timeline windows.",
            "start_time": START, "oracle": None,
            "source": "generated by scenarios/generators/knowledge.py; truth in oracle_data/knowledge/truth.json",
            "latency_budget_ms": 50,
            "targets": [
                {"metric": "entity_f1", "op": ">", "value": 0.8, "source": "seed 001 success criteria: entity extraction accuracy > 80%"},
                {"metric": "relationship_accuracy", "op": ">", "value": 0.7, "source": "seed 001 success criteria: relationship detection > 70%"},
                {"metric": "search_ndcg@10", "op": ">", "value": 0.85, "source": "seed 001 success criteria: search relevance > 85%"}]}


def main() -> int:
    lines, truth = generate()
    out = ROOT / "scenarios" / f"{NAME}.jsonl"
    out.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines))
    tdir = ROOT / "oracle_data" / NAME
    tdir.mkdir(parents=True, exist_ok=True)
    (tdir / "truth.json").write_text(json.dumps(truth, indent=1, sort_keys=True) + "\n")
    n_mem = len(truth["entities"])
    print(f"{out.relative_to(ROOT)}: {len(lines) - 1} steps, {n_mem} memories, {len(truth['searches'])} oracle "
          f"searches, {len(truth['relationships'])} planted pairs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
