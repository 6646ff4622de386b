"""The deterministic contradiction rule (updates vs extends)."""
import pytest

from reference.knowledge.contradiction import additive_marker, contradiction, supersede_marker

BASE = "The upload service caches thumbnails in redis for every request."


@pytest.mark.parametrize("new,reason", [
    ("The upload service no longer caches thumbnails in redis.", "marker:no longer"),
    ("Thumbnails are cached in memcached instead of redis.", "marker:instead of"),
    ("The upload service does not cache thumbnails in redis for every request.", "negation"),
    ("The upload service caches thumbnails in memcached for every request.", "substitution"),
])
def test_updates(new, reason):
    assert contradiction(BASE, new) == reason


def test_value_change():
    assert contradiction("Billing retries a failed charge 3 times.", "Billing retries a failed charge 5 times.") == "value"


@pytest.mark.parametrize("new", [
    BASE + " It also resizes them to 320 pixels.",                # pure insertion
    "The upload service caches thumbnails in redis for every request and for every retry.",
    "The upload service also caches thumbnails in memcached for every request.",  # additive marker
])
def test_extends(new):
    assert contradiction(BASE, new) is None


def test_a_marker_the_old_text_already_has_does_not_count():
    old = "Switched to redis instead of memcached for thumbnails."
    assert supersede_marker(old + " Cached per request.", old) is None
    assert contradiction(old, old + " Cached per request.") is None


def test_markers():
    assert supersede_marker("We now use uv") == "now use"
    # git's revert message: the subject and the body both say so
    assert supersede_marker('Revert "Pin 3.10 to last alpha (#802)"\n\nThis reverts commit b69cfc3.') == "revert"
    assert supersede_marker("This reverts commit b69cfc3.") == "reverts"
    assert supersede_marker("The pin was reverted upstream.") == "reverted"
    assert supersede_marker("An irreversible migration; reversed order.") is None
    assert additive_marker("Additionally, it logs") == "additionally"
    assert additive_marker("nothing to add") is None
