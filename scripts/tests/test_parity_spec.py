"""Unit tests of scripts/parity_spec.py, the reader of the parity spec (run by scripts/test.sh)."""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
import parity_spec  # noqa: E402

SPEC = '''# Spec

## Cache
- CACHE-01 First line
  continued here.
- CACHE-02 Second.

Not an item.

## Planned (not built)
- MUS-01 A museum
  exhibit.
'''


class ParitySpecTests(unittest.TestCase):
    def test_items_continuations_and_planned(self):
        spec = parity_spec.parse(SPEC)
        self.assertEqual(spec.ids, ['CACHE-01', 'CACHE-02', 'MUS-01'])
        self.assertEqual(spec.behaviours['CACHE-01'], 'First line continued here.')
        self.assertEqual(spec.planned, ['MUS-01'])

    def test_the_repository_spec_has_unique_ids(self):
        spec = parity_spec.read(os.path.join(ROOT, parity_spec.SPEC))
        self.assertEqual(len(spec.ids), len(set(spec.ids)))
        self.assertGreater(len(spec.ids), 100)
        for planned in spec.planned:
            self.assertIn(planned, spec.ids)


if __name__ == '__main__':
    unittest.main()
