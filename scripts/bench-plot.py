#!/usr/bin/env python3
"""Draws the benchmarks' pictures as SVG with matplotlib (from PyPI; this script installs it into a virtual
environment of its own, .build-plot/, on first use).

  bench-plot.py timeline TRACE.json OUT.svg   the lanes of a Chrome trace (scripts/bench.sh timeline): the transfer
                                              thread, the session delegate queue, each coder queue, the io queue,
                                              main; each step or stretch of work a bar where it ran
  bench-plot.py scale REPORT.json OUTDIR      each scaling curve of the scale suite (scripts/bench.sh scale saves
                                              REPORT.json) as OUTDIR/scale-NAME.svg, with its fitted power law
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".build-plot")
MATPLOTLIB = "matplotlib==3.11.2"


def ensure_matplotlib():
    """Runs this script again under the virtual environment's Python, installing matplotlib there first."""
    python = os.path.join(VENV, "bin", "python3")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(python):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    if subprocess.call([python, "-c", "import matplotlib"], stderr=subprocess.DEVNULL) != 0:
        subprocess.check_call([python, "-m", "pip", "install", "--quiet", MATPLOTLIB])
    os.execv(python, [python] + sys.argv)


# Lane order top to bottom, and the colour of each kind of bar.
LANES = ["transfer thread", "session delegate queue", "download queue", "coder queue", "cache io queue", "main queue"]
COLOURS = {"libcurl": "#4c72b0", "7. coder: decode": "#dd8452", "disk write": "#55a868", "4. cache: disk query": "#8172b3"}


def lane_rank(name):
    for index, prefix in enumerate(LANES):
        if name.startswith(prefix):
            return index
    return len(LANES)


def timeline(trace_path, out_path):
    import matplotlib
    matplotlib.use("svg")
    matplotlib.rcParams["svg.hashsalt"] = "sdport"  # the same ids on every run: a redrawn picture diffs cleanly
    import matplotlib.pyplot as plt

    events = json.load(open(trace_path))["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    process = next((e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"), "")
    complete = [e for e in events if e["ph"] == "X"]
    # Every lane the brief of the picture names is drawn, empty when nothing ran there.
    tracks = sorted(set(names), key=lambda tid: (lane_rank(names[tid]), tid))
    present = {names[t].split(" (")[0].rstrip("0123456789 ") for t in tracks}
    rows = [names[t] for t in tracks] + [lane for lane in ("cache io queue", "main queue") if lane not in present]
    row_of = {names[t]: i for i, t in enumerate(tracks)}
    origin = min(e["ts"] for e in complete)
    end = max(e["ts"] + e["dur"] for e in complete)
    figure, axes = plt.subplots(figsize=(11, 0.32 * len(rows) + 1.6))
    bars = {}
    points = {}
    for event in complete:
        row = row_of[names[event["tid"]]]
        start = (event["ts"] - origin) / 1000
        if event["dur"] > 0:
            bars.setdefault(event["name"], []).append(((start, event["dur"] / 1000), row))
        else:
            points.setdefault(row, []).append(start)
    for name, items in bars.items():
        colour = COLOURS.get(name, "#999999")
        for row in {row for _, row in items}:
            axes.broken_barh([span for span, r in items if r == row], (row - 0.38, 0.76), facecolors=colour,
                             edgecolor="none", label=None)
        axes.bar(0, 0, color=colour, label=name)
    for row, times in points.items():
        axes.plot(times, [row] * len(times), "|", color="#333333", markersize=5)
    axes.plot([], [], "|", color="#333333", label="a step reported as a moment")
    axes.set_yticks(range(len(rows)))
    axes.set_yticklabels(rows, fontsize=8)
    axes.set_ylim(len(rows) - 0.5, -0.5)
    axes.set_xlim(0, (end - origin) / 1000)
    axes.set_xlabel("ms since the first event")
    axes.set_title(process, fontsize=10)
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=5, fontsize=8, frameon=False)
    figure.tight_layout()
    figure.savefig(out_path, metadata={"Date": None})
    print("wrote", out_path)


def scale(report_path, out_dir):
    import matplotlib
    matplotlib.use("svg")
    matplotlib.rcParams["svg.hashsalt"] = "sdport"  # the same ids on every run: a redrawn picture diffs cleanly
    import matplotlib.pyplot as plt

    report = json.load(open(report_path))
    for name, curve in report["curves"].items():
        points = []
        for point in curve["points"]:
            term = point["term"]
            metrics = report["results"].get(term.get("benchmark"))
            if metrics is None:
                continue
            metric = {"wall": "wallClock", "cpu": "cpu-us"}.get(term["metric"], term["metric"])
            points.append((point["x"], term["factor"] * metrics[metric]["p50"] * curve["yScale"]))
        if len(points) < 2:
            continue
        figure, axes = plt.subplots(figsize=(6, 4))
        xs, ys = zip(*points)
        axes.plot(xs, ys, "o-", color="#4c72b0", label="measured (median)")
        fit = report["fits"].get(name)
        if curve["fitted"] and fit:
            low, high = min(xs), max(xs)
            grid = [low * (high / low) ** (i / 50) for i in range(51)]
            axes.plot(grid, [fit["constant"] * x ** fit["exponent"] for x in grid], "--", color="#dd8452",
                      label="fit: exponent %.2f" % fit["exponent"])
            axes.set_xscale("log")
            axes.set_yscale("log")
        axes.set_xlabel(curve["xLabel"])
        axes.set_ylabel(curve["yLabel"])
        axes.set_title(curve["title"], fontsize=9)
        axes.legend(fontsize=8)
        axes.grid(True, which="both", alpha=0.3)
        figure.tight_layout()
        path = os.path.join(out_dir, "scale-%s.svg" % name)
        figure.savefig(path, metadata={"Date": None})
        plt.close(figure)
        print("wrote", path)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("timeline", "scale"):
        sys.exit(__doc__)
    ensure_matplotlib()
    if sys.argv[1] == "timeline":
        timeline(sys.argv[2], sys.argv[3])
    else:
        scale(sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    main()
