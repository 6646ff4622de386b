"""The vocabulary of the `knowledge` scenario: features, facts, bugs, templates and the texts around them.

Read by `knowledge.py`; every planted entity is derived from these slots there.
"""

SCENARIO = "knowledge"
SCOPE = "repo:shop"
SEED = 20260125

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
