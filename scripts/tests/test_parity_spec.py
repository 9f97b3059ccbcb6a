"""Unit tests of scripts/parity_spec.py, the reader of the parity spec's data (run by scripts/test.sh); the data's
own rules are tested in test_knowledge.py."""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
import parity_spec  # noqa: E402


class ParitySpecTests(unittest.TestCase):
    def test_the_repository_spec_has_unique_ids(self):
        spec = parity_spec.read(ROOT)
        self.assertEqual(len(spec.ids), len(set(spec.ids)))
        self.assertGreater(len(spec.ids), 100)
        for planned in spec.planned:
            self.assertIn(planned, spec.ids)
        self.assertNotIn('MUS-01', spec.planned)  # built: the museum's exhibits
        self.assertIn('MUS-19', spec.ids)
        self.assertTrue(spec.behaviours['FAQ-02'].startswith('Downloader defaults'))


if __name__ == '__main__':
    unittest.main()
