"""The Pareto figure explains itself: a legend for colours and markers, no label beside a point,
and a backend with no supported query is not placed but named."""
import random

from bench.compare.pareto import pareto_figure, plot_pareto

BACKENDS = [f"reference:variant-{i}" for i in range(8)]


def comparison(n_scenarios=2):
    rnd = random.Random(0)

    def scenario():
        ndcg = {b: None if b.endswith("7") else rnd.uniform(0.4, 0.9) for b in BACKENDS}
        ran = {b: 0.0 if b.endswith("7") else 0.5 if b.endswith("3") else 1.0 for b in BACKENDS}
        return {"quality": [{"metric": "ndcg@10", "values": ndcg}, {"metric": "queries_ran", "values": ran}],
                "latency": [{"metric": "latency.common_queries.p95", "values": {b: rnd.uniform(1, 20) for b in BACKENDS}}]}
    return {"backends": BACKENDS, "scenarios": {f"s{i}": scenario() for i in range(n_scenarios)}}


def texts(fig):
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def test_legends_name_every_backend_colour_and_each_marker():
    fig = pareto_figure(comparison())
    labels = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    assert set(BACKENDS) <= set(labels)
    assert "on the Pareto front" in labels and any(label.startswith("dominated") for label in labels)
    assert "Pareto front" in labels
    # each backend keeps one colour in every panel
    colours = [{tuple(c.get_facecolor()[0]) for c in ax.collections} for ax in fig.axes]
    assert colours[0] == colours[1]


def test_no_backend_name_is_written_beside_a_point_and_unplaced_ones_are_named():
    fig = pareto_figure(comparison())
    for ax in fig.axes:
        assert len(ax.collections) == 7  # 8 backends, variant-7 ran no query
    notes = "\n".join(texts(fig))
    assert "not placed (no supported query): reference:variant-7" in notes
    assert "reference:variant-3: 50% of queries" in notes
    assert not any(t in BACKENDS for t in texts(fig))


def test_legend_fits_the_figure_at_eight_backends(tmp_path):
    fig = pareto_figure(comparison(n_scenarios=1))
    fig.canvas.draw()
    width = fig.bbox.width
    for legend in fig.legends:
        box = legend.get_window_extent()
        assert box.x0 >= 0 and box.x1 <= width, "legend cut at the figure's edge"
    assert plot_pareto(comparison(1), tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"


def test_nothing_to_plot_writes_no_file(tmp_path):
    c = {"backends": ["a"], "scenarios": {"s": {"quality": [], "latency": []}}}
    assert pareto_figure(c) is None and plot_pareto(c, tmp_path / "p.png") is None
    assert not (tmp_path / "p.png").exists()
