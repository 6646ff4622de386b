"""A second vocabulary for the `knowledge` generator: the `knowledge-calibration` scenario (in no suite).

Another fictional product (a Python data service, not the scored world's TypeScript shop), with its own
features, files, symbols, facts, bugs, fact and test wordings, paraphrases and texts around them, so that a
constant fitted on it is not fitted on the scored `knowledge` scenario: the two share only the generator's
structure (which kinds of notes, in which phases, asked how) and scenarios/spec/knowledge.toml's wording of
updates, extensions and derivations. Same shapes as `knowledge_world.py`, read by `knowledge.py`.
"""

SCENARIO = "knowledge-calibration"
SCOPE = "repo:ledger"
SEED = 20261129

# feature -> (facts: (attr, file, symbol, value, new value, unit)), (bugs: (bug, cause, file, symbol))
WORLD = {
    "ingest": ([("batch window", "batcher.py", "Batcher.flush", 30, 10, "seconds"),
                ("maximum record size", "validator.py", "RecordValidator.check", 64, 256, "kilobytes"),
                ("parser worker count", "workers.py", "WorkerPool.start", 4, 8, "workers")],
               [("data loss", "the broker acknowledges before the write is flushed", "batcher.py", "Batcher.commit"),
                ("encoding error", "CSV files arrive with a byte order mark", "csv_reader.py", "CsvReader.open")]),
    "scheduler": ([("job timeout", "runner.py", "JobRunner.run", 60, 120, "minutes"),
                   ("cron drift allowance", "cron_clock.py", "CronClock.next_fire", 5, 30, "seconds"),
                   ("maximum concurrent jobs", "job_pool.py", "JobPool.acquire", 10, 25, "jobs")],
                  [("deadlock", "two jobs wait on each other's lease", "leases.py", "LeaseTable.claim"),
                   ("missed run", "daylight saving time skips an hour", "cron_clock.py", "CronClock.schedule")]),
    "reports": ([("report cache lifetime", "report_cache.py", "ReportCache.get", 6, 1, "hours"),
                 ("row limit per report", "report_query.py", "ReportQuery.limit", 10000, 50000, "rows"),
                 ("chart sample count", "charts.py", "ChartBuilder.sample", 200, 500, "points")],
                [("wrong totals", "refunds are counted twice", "aggregate.py", "Aggregator.total"),
                 ("blank chart", "a timezone offset pushes every point out of range", "charts.py",
                  "ChartBuilder.render")]),
    "exports": ([("export file retention", "export_store.py", "ExportStore.expire", 7, 30, "days"),
                 ("parquet row group size", "parquet_writer.py", "ParquetWriter.write", 100000, 250000, "rows"),
                 ("download link lifetime", "signed_links.py", "SignedLinks.create", 15, 60, "minutes")],
                [("truncated file", "the writer is closed before the last flush", "parquet_writer.py",
                  "ParquetWriter.close"),
                 ("permission error", "the bucket policy lacks the list action", "export_store.py",
                  "ExportStore.upload")]),
    "sync": ([("polling interval", "poller.py", "SyncPoller.tick", 60, 15, "seconds"),
              ("conflict retry limit", "merger.py", "ConflictMerger.retry", 3, 6, "retries"),
              ("remote page size", "remote.py", "RemoteClient.fetch", 100, 500, "records")],
             [("infinite loop", "the cursor is not advanced on an empty page", "remote.py", "RemoteClient.paginate"),
              ("stale record", "the merge keeps the older timestamp", "merger.py", "ConflictMerger.resolve")]),
    "permissions": ([("role cache lifetime", "roles.py", "RoleCache.refresh", 5, 1, "minutes"),
                     ("maximum api keys per user", "api_keys.py", "ApiKeys.issue", 5, 20, "keys"),
                     ("audit log retention", "audit.py", "AuditLog.prune", 90, 365, "days")],
                    [("privilege escalation", "a revoked role stays in the cache", "roles.py", "RoleCache.lookup"),
                     ("lockout", "the admin check reads the wrong tenant", "guards.py", "AdminGuard.allow")]),
}
BOOLEAN_FACTS = {  # feature -> (statement, negated statement, file, symbol)
    "ingest": ("drops records whose source id was seen before",
               "does not drop records whose source id was seen before", "dedupe.py", "Deduper.seen"),
    "exports": ("encrypts every export file at rest",
                "does not encrypt export files at rest", "crypto.py", "ExportCrypto.seal"),
}
FACT_TEMPLATES = [  # each names the path and the symbol (the planted entities of a fact)
    "{Feat} settings: {attr} = {v} {unit}; the value lives in {path} ({sym}).",
    "{sym} in {path} uses a {attr} of {v} {unit}.",
    "Note on {feat}: the {attr} is currently {v} {unit} ({sym}, {path}).",
]
PARAPHRASES = {  # how a user asks without the note's words
    "batch window": "how long are incoming events collected before a flush",
    "maximum record size": "biggest event payload that is accepted",
    "parser worker count": "how many processes parse the input",
    "job timeout": "when is a long running task killed",
    "cron drift allowance": "how late may a periodic task start",
    "maximum concurrent jobs": "how many tasks run at the same time",
    "report cache lifetime": "how long are rendered dashboards kept",
    "row limit per report": "most lines a dashboard table can show",
    "chart sample count": "how many points does a graph plot",
    "export file retention": "when are old downloads deleted",
    "parquet row group size": "how big is each chunk of a columnar file",
    "download link lifetime": "how long does a shared download url work",
    "polling interval": "how often do we ask the partner api for changes",
    "conflict retry limit": "attempts before an edit clash is given up",
    "remote page size": "records fetched per request from the partner",
    "role cache lifetime": "how quickly does a changed role take effect",
    "maximum api keys per user": "how many tokens can one account create",
    "audit log retention": "how long do we keep the security trail",
}
MODULES = [("ledger.ingest.kafka_source", "the client library dropped the synchronous consumer"),
           ("ledger.exports.arrow_compat", "pyarrow 15 moved the dataset writer"),
           ("ledger.sync.http_retry", "urllib3 2 removed the method whitelist argument"),
           ("ledger.common.tz", "it imports a helper removed from dateutil")]
DECISIONS = [("ledger", "ingest", "Kafka", "event intake", "claude"),
             ("ledger", "exports", "Parquet", "bulk downloads", "codex"),
             ("ledger", "reports", "DuckDB", "ad hoc aggregation", "gemini"),
             ("console", "permissions", "OPA policies", "role checks", "claude"),
             ("console", "sync", "webhooks", "partner updates", "codex")]
RELATIVE = [("today", 0), ("yesterday", -1), ("last week", -7), ("3 days ago", -3), ("2 days ago", -2)]
NOISE = [  # (text, planted entities)
    ("Version 1.8.2 shipped; the canary stage took 2.5 hours and/or longer, e.g. the metrics lag was high.", []),
    ("Runbook at https://wiki.example.org/ops/ledger/oncall.html explains the pager/escalation steps.", []),
    ("Standup: on-call is shared 50/50 between the data and platform teams, i.e. one week each.", []),
    ("Median ingest lag dropped from 4.75 s to 1.25 s once the partitions were rebalanced.", []),
    ("Refreshed docs/ARCHITECTURE.md and CONTRIBUTING.md for the new service layout.",
     ["file:docs/ARCHITECTURE.md", "file:CONTRIBUTING.md"]),
    ("Backfilled last month with tools/backfill_events.py on the staging cluster.",
     ["file:tools/backfill_events.py"]),
]
TEST_NOTES = [  # (template, names the symbol too)
    ("Integration tests for {path} now cover the retry branches and run on every merge.", False),
    ("{sym} has a new snapshot test that freezes the clock.", True),
    ("Branch coverage of {path} reached 88 percent after the malformed input cases went in.", False),
    ("Fuzzing {sym} (in {path}) with generated payloads found nothing new.", True),
]
CHATS = [  # what an annotator marks, including what the rules cannot see (people, PascalCase names)
    ("Kasia wants JobPool renamed to WorkerQueue in the scheduler; getQueueDepth keeps its name.",
     ["person:kasia", "symbol:jobpool", "symbol:workerqueue", "symbol:getqueuedepth"]),
    ("Paired with Tomasz on the flaky ConflictMerger test; the fix is in useSyncCursor.",
     ["person:tomasz", "symbol:conflictmerger", "symbol:usesynccursor"]),
    ("Message from Kasia: finance keeps asking about the report row limits, ReportQuery.limit has the check.",
     ["person:kasia", "symbol:reportquery.limit"]),
]
LEARNINGS = [("Never retry a non-idempotent export without a dedupe key.", ["idempotency", "exports"]),
             ("Prefer bounded queues over unbounded buffers in ingest paths.", ["backpressure"]),
             ("Check the tenant before every permission decision.", ["multi tenancy", "security"])]
