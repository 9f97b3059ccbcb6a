#!/usr/bin/env python3
"""Reads package-benchmark's sample export of one `swift package benchmark` run and `sdport-bench goals`, and prints:
each benchmark's p50 and p99 (per operation where an iteration is a batch) and, where asked, its mallocs per
operation; then each goal's ratio beside the goal, each scaling curve's fitted exponent, and each breakdown: one
benchmark's median wall time split into parts (terms like a goal's; the part without terms is what the others
leave), in milliseconds and as shares.

Usage: bench-report.py RUNDIR GOALS.json [--json] [--save REPORT.json]
  RUNDIR   the --path of `swift package benchmark run --format histogramSamples`: one file per benchmark and metric,
           every iteration's value (nanoseconds for times: the benchmarks set timeUnits to nanoseconds)
  --json   after the report, one JSON object per goal on its own line: name, ratio, goal, met (and direction).
  --save   write the medians, curves and goals as JSON (scripts/bench-plot.py draws the curves from it).

A goal's ratio is the sum of its numerator's terms over the sum of its denominator's, each term a factor times the
median (p50) of one metric of one benchmark: "wall" is package-benchmark's wall clock (in microseconds here), "cpu"
the custom metric
`cpu-us` (getrusage, microseconds), any other name a custom metric as recorded. A goal without a denominator is a
threshold on its numerator. A benchmark may record a ratio of its own, taken within each iteration (in thousandths,
such as `vs-cpu-floor-permille`); a goal then reads its median over the constant 1. An exponent goal fits
y = c * x^k to its curve (least squares on the logarithms).
"""
import json
import math
import sys

import glob
import os

WALL = "wallClock"
MALLOCS = "mallocCountTotal"
PREFIX = "Current_run.sdport-bench."
SUFFIX = ".histogram.samples.tsv"
# To nanoseconds for times, to units for counts (package-benchmark writes large counts in thousands or millions).
UNITS = {"ns": 1.0, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9, "K": 1e3, "M": 1e6, "G": 1e9}


def percentile(values, fraction):
    """Nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def load_run(directory, names):
    """Benchmark name -> metric -> {p50, p99}; times in microseconds, counts as recorded."""
    results = {}
    for path in glob.glob(os.path.join(directory, PREFIX + "*" + SUFFIX)):
        stem = os.path.basename(path)[len(PREFIX):-len(SUFFIX)]
        # "<benchmark>.<metric>": the benchmark is the longest known name the stem starts with.
        name = max((n for n in names if stem.startswith(n + ".")), key=len, default=None)
        if name is None:
            continue
        metric = stem[len(name) + 1:]
        lines = open(path).read().split("\n")
        # The header names the unit the values are in: a time unit, or K / M / G for a large count.
        unit = lines[0].rsplit("(", 1)[1].rstrip(") ") if lines[0].rstrip().endswith(")") else ""
        values = [float(line) * UNITS.get(unit, 1.0) for line in lines[1:] if line.strip()]
        if not values:
            continue
        scale = 1e-3 if metric == WALL else 1.0  # times: nanoseconds to microseconds
        results.setdefault(name, {})[metric] = {"p50": percentile(values, 0.5) * scale,
                                                "p99": percentile(values, 0.99) * scale, "samples": len(values)}
    return results


def term_value(term, results):
    if term.get("benchmark") is None:
        return term["factor"]
    metrics = results.get(term["benchmark"])
    if metrics is None:
        raise KeyError("benchmark %s did not run" % term["benchmark"])
    metric = {"wall": WALL, "cpu": "cpu-us"}.get(term["metric"], term["metric"])
    if metric not in metrics:
        raise KeyError("benchmark %s has no metric %s" % (term["benchmark"], metric))
    return term["factor"] * metrics[metric]["p50"]


def fit_exponent(points):
    """Least-squares slope of log y against log x."""
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / sum((x - mean_x) ** 2 for x in xs)
    return slope, math.exp(mean_y - slope * mean_x)


def curve_points(curve, results):
    points = []
    for point in curve["points"]:
        try:
            points.append((point["x"], term_value(point["term"], results) * curve["yScale"]))
        except KeyError:
            pass
    return points


def main():
    arguments = sys.argv[1:]
    as_json = "--json" in arguments
    save = None
    if "--save" in arguments:
        index = arguments.index("--save")
        save = arguments[index + 1]
        del arguments[index:index + 2]
    arguments = [a for a in arguments if a != "--json"]
    if len(arguments) != 2:
        sys.exit(__doc__)
    definitions = json.load(open(arguments[1]))
    entries = {entry["name"]: entry for entry in definitions["benchmarks"]}
    results = load_run(arguments[0], entries)

    print("%-44s %12s %12s %14s" % ("benchmark (time per operation)", "p50", "p99", "mallocs/op"))
    for name in sorted(results):
        entry = entries.get(name)
        if entry is None or WALL not in results[name]:
            continue
        operations = entry["operations"]
        wall = results[name][WALL]

        def show(microseconds):
            value = microseconds / operations
            return "%.1f ms" % (value / 1000) if value >= 1000 else ("%.2f µs" % value if value >= 1 else "%.0f ns" % (value * 1000))
        mallocs = ""
        if entry["reportsMallocs"] and MALLOCS in results[name]:
            mallocs = "%.3g" % (results[name][MALLOCS]["p50"] / operations)
        label = name + ("" if operations == 1 else " (/%d)" % operations)
        print("%-44s %12s %12s %14s" % (label, show(wall["p50"]), show(wall["p99"]), mallocs))

    curves = {curve["name"]: curve for curve in definitions.get("curves", [])}
    fitted = {}
    for name, curve in curves.items():
        points = curve_points(curve, results)
        if len(points) < 2:
            continue
        print("curve %s: %s" % (name, ", ".join("%g: %.3g %s" % (x, y, curve["yLabel"]) for x, y in points)))
        if curve["fitted"]:
            fitted[name] = fit_exponent(points)

    goals = []
    print("\ngoals (one run: ratios of medians, or medians of ratios paired within each iteration; %d cores):"
          % definitions["cores"])
    for goal in definitions["goals"]:
        try:
            if goal.get("exponentOf"):
                if goal["exponentOf"] not in fitted:
                    raise KeyError("curve %s did not run" % goal["exponentOf"])
                ratio = fitted[goal["exponentOf"]][0]
                shown = "exponent %.3f" % ratio
            else:
                numerator = sum(term_value(term, results) for term in goal["numerator"])
                denominator = sum(term_value(term, results) for term in goal["denominator"]) if goal["denominator"] else 1
                ratio = numerator / denominator
                shown = "%.3fx" % ratio if goal["denominator"] else "%g" % ratio
        except KeyError as missing:
            if goal["name"].split(".")[0] in {name.split(".")[0] for name in results}:
                print("  %-52s not measured (%s)" % (goal["name"], missing.args[0]))
            continue
        met = ratio <= goal["goal"] if goal["direction"] == "at most" else ratio >= goal["goal"]
        goals.append({"name": goal["name"], "ratio": round(ratio, 3), "goal": goal["goal"], "met": met,
                      "direction": goal["direction"]})
        print("  %-52s %-16s goal %s %g  %s   (%s)" % (goal["name"], shown, goal["direction"], goal["goal"],
                                                      "met" if met else "NOT MET", goal["note"]))
    breakdowns = []
    for breakdown in definitions.get("breakdowns", []):
        try:
            total = sum(term_value(term, results) for term in breakdown["total"])
            known = [(part["label"], sum(term_value(term, results) for term in part["terms"]))
                     for part in breakdown["parts"] if part["terms"]]
        except KeyError:
            continue  # its benchmarks did not run in this suite
        rest = [part["label"] for part in breakdown["parts"] if not part["terms"]]
        parts = known + [(rest[0], total - sum(value for _, value in known))] if rest else known
        breakdowns.append({"name": breakdown["name"], "total": round(total, 1),
                           "parts": [{"label": label, "value": round(value, 1)} for label, value in parts]})
        print("\nwhere %s's time goes (medians of one run): %.1f ms" % (breakdown["name"], total / 1000))
        for label, value in parts:
            print("  %-62s %8.1f ms  %5.1f %%" % (label, value / 1000, 100 * value / total))
    if save:
        json.dump({"results": results, "goals": goals, "curves": curves, "breakdowns": breakdowns,
                   "fits": {name: {"exponent": k, "constant": c} for name, (k, c) in fitted.items()}},
                  open(save, "w"), indent=1, sort_keys=True)
    if as_json:
        for goal in goals:
            print(json.dumps(goal, sort_keys=True, ensure_ascii=False))
    return 0 if all(goal["met"] for goal in goals) else 1


if __name__ == "__main__":
    sys.exit(main())
