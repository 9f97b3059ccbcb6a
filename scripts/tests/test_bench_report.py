"""Unit tests of scripts/bench-report.py (run by scripts/test.sh): a goal's ratio and a breakdown's parts, computed
from a package-benchmark export made here by hand."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, 'scripts', 'bench-report.py')


def term(benchmark, metric, factor=1.0):
    return {'benchmark': benchmark, 'metric': metric, 'factor': factor}


class BenchReportTests(unittest.TestCase):
    def run_report(self, samples, definitions):
        with tempfile.TemporaryDirectory() as directory:
            for (benchmark, metric, header), values in samples.items():
                path = os.path.join(directory, 'Current_run.sdport-bench.%s.%s.histogram.samples.tsv' % (benchmark, metric))
                with open(path, 'w') as out:
                    out.write(header + '\n' + '\n'.join(str(value) for value in values) + '\n')
            goals = os.path.join(directory, 'goals.json')
            with open(goals, 'w') as out:
                json.dump(definitions, out)
            saved = os.path.join(directory, 'REPORT.json')
            run = subprocess.run([sys.executable, SCRIPT, directory, goals, '--save', saved],
                                 capture_output=True, text=True)
            with open(saved) as report:
                return run, json.load(report)

    def test_a_breakdown_splits_the_total_and_the_part_without_terms_is_the_rest(self):
        samples = {
            # Medians: pipe wall 100 ms (nanoseconds in the export), pipe CPU 160 ms, part CPU 120 ms (thousands of µs).
            ('pipe', 'wallClock', 'Time (wall clock) (ns)'): [90_000_000, 100_000_000, 130_000_000],
            ('pipe', 'cpu-us', 'cpu-us (K)'): [150, 160, 170],
            ('part', 'cpu-us', 'cpu-us (K)'): [120, 120, 120],
        }
        definitions = {
            'cores': 2,
            'benchmarks': [{'name': 'pipe', 'operations': 1, 'reportsMallocs': False},
                           {'name': 'part', 'operations': 1, 'reportsMallocs': False}],
            'goals': [{'name': 'pipe-vs-busy', 'goal': 1.05, 'direction': 'at most', 'note': 'n',
                       'numerator': [term('pipe', 'wall')], 'denominator': [term('pipe', 'cpu', 0.5)]}],
            'breakdowns': [{'name': 'pipe', 'total': [term('pipe', 'wall')], 'parts': [
                {'label': 'floor', 'terms': [term('part', 'cpu', 0.5)]},
                {'label': 'extra', 'terms': [term('pipe', 'cpu', 0.5), term('part', 'cpu', -0.5)]},
                {'label': 'idle', 'terms': []}]}],
        }
        run, report = self.run_report(samples, definitions)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)  # 100 / 80 = 1.25 > 1.05: not met
        self.assertEqual(report['goals'][0]['ratio'], 1.25)
        parts = {part['label']: part['value'] for part in report['breakdowns'][0]['parts']}
        self.assertEqual(parts, {'floor': 60000.0, 'extra': 20000.0, 'idle': 20000.0})
        self.assertIn("where pipe's time goes (medians of one run): 100.0 ms", run.stdout)
        self.assertIn('20.0 %', run.stdout)

    def test_a_breakdown_whose_benchmarks_did_not_run_is_left_out(self):
        samples = {('pipe', 'wallClock', 'Time (wall clock) (ns)'): [1_000_000]}
        definitions = {
            'cores': 2, 'benchmarks': [{'name': 'pipe', 'operations': 1, 'reportsMallocs': False}], 'goals': [],
            'breakdowns': [{'name': 'pipe', 'total': [term('pipe', 'wall')],
                            'parts': [{'label': 'x', 'terms': [term('absent', 'cpu')]}]}],
        }
        run, report = self.run_report(samples, definitions)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(report['breakdowns'], [])
        self.assertNotIn('where pipe', run.stdout)


if __name__ == '__main__':
    unittest.main()
