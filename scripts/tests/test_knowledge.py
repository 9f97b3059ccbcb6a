"""Unit tests of scripts/knowledge.py, the reader of Docs/knowledge/ (run by scripts/test.sh)."""
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import unittest

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(SCRIPTS)
sys.path.insert(0, SCRIPTS)
import knowledge  # noqa: E402
import parity_spec  # noqa: E402

SWIFT = '''public final class Cache {
    public func store(_ data: Data, forKey key: String) {
        write(data)
    }
}
'''


class KnowledgeTree(unittest.TestCase):
    """A package root in a temporary folder with a small, valid Docs/knowledge/."""

    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.root)
        os.makedirs(os.path.join(self.root, 'Sources', 'SDPort'))
        with open(os.path.join(self.root, 'Sources', 'SDPort', 'Cache.swift'), 'w', encoding='utf-8') as handle:
            handle.write(SWIFT)
        self.write('index.json', {
            'faq': ['FAQ-01'], 'myths': ['m'], 'differences': ['d'],
            'parity': {'title': 'Spec', 'intro': ['An intro.'], 'sections': [
                {'heading': 'FAQ', 'ids': ['FAQ-01']}, {'heading': 'Planned (later)', 'ids': ['MUS-01']}]}})
        self.write('faq/FAQ-01.json', {'id': 'FAQ-01', 'question': 'Where?', 'answer': 'There.',
                                       'tests': ['FAQ01_Tests.test_FAQ01_x'], 'topic': 'cache',
                                       'drill': {'rule': 'r', 'file': 'Sources/SDPort/Cache.swift', 'find': 'write(data)',
                                                 'replace': 'print(data)', 'tests': 'FAQ01_'}})
        self.write('myths/m.json', {'id': 'm', 'topic': 'cache', 'belief': 'b', 'source': 'A0', 'trueIn': 'never',
                                    'truth': 't', 'original': ['SDImageCache.m -a #L3'], 'test': 'T.test_x'})
        self.write('differences/d.json', {'slug': 'd', 'original': 'a `|` b', 'port': 'c', 'why': 'w',
                                          'tests': ['test_A_b', '`sdport-bench memory` (case)']})
        self.write('parity/FAQ-01.json', {'id': 'FAQ-01', 'spec': 'The first behaviour, long enough to be wrapped. ' * 4,
                                          'port': {'file': 'Sources/SDPort/Cache.swift', 'anchor': 'write(data)',
                                                   'symbol': 'Cache.store(_:forKey:)'},
                                          'original': ['SDImageCache.m -storeImage:']})
        self.write('parity/MUS-01.json', {'id': 'MUS-01', 'spec': 'A museum.', 'planned': True})

    def write(self, relative, value):
        path = os.path.join(self.root, knowledge.KNOWLEDGE, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as handle:
            json.dump(value, handle)

    def load(self):
        problems = []
        data = knowledge.load(self.root, problems.append)
        return data, problems


class LoadTests(KnowledgeTree):
    def test_a_valid_tree_loads_in_index_order_without_problems(self):
        data, problems = self.load()
        self.assertEqual(problems, [])
        self.assertEqual([item['id'] for item in data.parity], ['FAQ-01', 'MUS-01'])
        self.assertEqual(data.faq[0]['question'], 'Where?')
        self.assertEqual([s['heading'] for s in data.sections], ['FAQ', 'Planned (later)'])

    def test_an_unlisted_file_and_a_listed_missing_one_are_problems(self):
        self.write('myths/extra.json', {'id': 'extra'})
        os.remove(os.path.join(self.root, knowledge.KNOWLEDGE, 'differences', 'd.json'))
        _, problems = self.load()
        self.assertTrue(any('myths/extra.json: not listed' in p for p in problems), problems)
        self.assertTrue(any('lists d, but there is no' in p for p in problems), problems)

    def test_a_wrong_id_a_missing_field_and_an_unknown_field_are_problems(self):
        self.write('faq/FAQ-01.json', {'id': 'FAQ-02', 'question': 'Where?', 'answer': '', 'tests': ['x'],
                                       'qestion': 'typo'})
        _, problems = self.load()
        self.assertTrue(any('"answer" must be a non-empty str' in p for p in problems), problems)
        self.assertTrue(any('unknown field "qestion"' in p for p in problems), problems)
        self.write('faq/FAQ-01.json', {'id': 'FAQ-02', 'question': 'Where?', 'answer': 'a', 'tests': ['x']})
        _, problems = self.load()
        self.assertTrue(any("its id is FAQ-02, not the file's name" in p for p in problems), problems)

    def test_a_card_needs_a_built_parity_id(self):
        self.write('parity/FAQ-01.json', {'id': 'FAQ-01', 'spec': 'x', 'planned': True})
        _, problems = self.load()
        self.assertTrue(any('no built parity ID FAQ-01' in p for p in problems), problems)

    def test_a_port_file_outside_sources_is_a_problem(self):
        self.write('parity/FAQ-01.json', {'id': 'FAQ-01', 'spec': 'x', 'original': [],
                                          'port': {'file': 'Tests/X.swift', 'anchor': 'a', 'symbol': ''}})
        _, problems = self.load()
        self.assertTrue(any('is not under Sources/' in p for p in problems), problems)


class SymbolTests(KnowledgeTree):
    def test_a_stored_symbol_is_compared_with_what_the_anchor_resolves_to(self):
        data, _ = self.load()
        [(item, stored, resolved)] = knowledge.port_symbols(data, self.root)
        self.assertEqual((item['id'], stored, resolved), ('FAQ-01', 'Cache.store(_:forKey:)', 'Cache.store(_:forKey:)'))
        # The anchored line moves into another method: the stored symbol is stale.
        with open(os.path.join(self.root, 'Sources', 'SDPort', 'Cache.swift'), 'w', encoding='utf-8') as handle:
            handle.write(SWIFT.replace('public func store(_ data: Data, forKey key: String)', 'func save(_ data: Data)'))
        [(_, stored, resolved)] = knowledge.port_symbols(data, self.root)
        self.assertEqual(resolved, 'Cache.save(_:)')
        self.assertNotEqual(stored, resolved)

    def test_a_gone_anchor_is_a_problem(self):
        data, _ = self.load()
        data.parity[0]['port']['anchor'] = 'no such text'
        problems = []
        [(_, _, resolved)] = knowledge.port_symbols(data, self.root, problems.append)
        self.assertIsNone(resolved)
        self.assertEqual(len(problems), 1)
        self.assertIn('FAQ-01', problems[0])

    def test_the_check_fails_on_a_stale_symbol_and_generate_refreshes_it(self):
        os.makedirs(os.path.join(self.root, 'scripts'))
        for name in ('knowledge.py', 'citations.py'):
            shutil.copy(os.path.join(SCRIPTS, name), os.path.join(self.root, 'scripts', name))
        self.write('parity/FAQ-01.json', {'id': 'FAQ-01', 'spec': 'x', 'original': [],
                                          'port': {'file': 'Sources/SDPort/Cache.swift', 'anchor': 'write(data)',
                                                   'symbol': 'Cache.old()'}})
        spec = importlib.util.spec_from_file_location('knowledge_copy', os.path.join(self.root, 'scripts', 'knowledge.py'))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        self.assertEqual(module.main(['--check']), 1, 'a stale symbol fails the check')
        self.assertEqual(module.main([]), 0)
        with open(os.path.join(self.root, knowledge.KNOWLEDGE, 'parity', 'FAQ-01.json'), encoding='utf-8') as handle:
            self.assertEqual(json.load(handle)['port']['symbol'], 'Cache.store(_:forKey:)')
        self.assertEqual(module.main(['--check']), 0, 'current after generating')


class ViewTests(KnowledgeTree):
    def test_the_spec_view_is_generated_wrapped_and_sectioned(self):
        data, _ = self.load()
        text = knowledge.spec_markdown(data)
        lines = text.split('\n')
        self.assertTrue(lines[0].startswith('<!-- Generated by') and 'Docs/knowledge/parity' in lines[0])
        self.assertEqual(lines[1:4], ['# Spec', '', 'An intro.'])
        self.assertIn('## FAQ\n- FAQ-01 The first behaviour', text)
        self.assertIn('## Planned (later)\n- MUS-01 A museum.', text)
        self.assertTrue(all(len(line) <= 118 for line in lines[1:]), 'wrapped')
        self.assertTrue(any(line.startswith('  ') for line in lines), 'continuation lines are indented')

    def test_the_differences_table_renders_each_item_as_a_row(self):
        data, _ = self.load()
        table = knowledge.differences_table(data)
        self.assertEqual(table, '| 4.4.8 | the port | why | test |\n|---|---|---|---|\n'
                                '| a `|` b | c | w | `test_A_b`, `sdport-bench memory` (case) |\n')
        self.assertEqual(knowledge.fill_differences('before\n<!-- DIFFERENCES -->\nafter\n', data),
                         'before\n' + table + 'after\n')


class ParitySpecTests(KnowledgeTree):
    def test_ids_texts_and_planned_come_from_the_data(self):
        spec = parity_spec.read(self.root)
        self.assertEqual(spec.ids, ['FAQ-01', 'MUS-01'])
        self.assertEqual(spec.planned, ['MUS-01'])
        self.assertEqual(spec.items['FAQ-01']['port']['anchor'], 'write(data)')


class RepositoryTests(unittest.TestCase):
    def test_the_repository_knowledge_loads_without_problems(self):
        problems = []
        data = knowledge.load(ROOT, problems.append)
        self.assertEqual(problems, [])
        self.assertEqual(len(data.faq), 17)
        self.assertGreaterEqual(len(data.myths), 11)
        self.assertGreaterEqual(len(data.differences), 20)
        self.assertGreater(len(data.parity), 100)
        for card in data.faq:
            self.assertIn('drill', card, card['id'])

    def test_the_ledger_cites_5x_only_ids_at_5_21_5(self):
        spec = importlib.util.spec_from_file_location('ledger', os.path.join(SCRIPTS, 'parity-ledger.py'))
        ledger = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(ledger)
        tables = {'4.4.8': {('A.m', '-a'): 3}, '5.21.5': {('Core/B.m', '-b'): 7}}
        problems = ledger.Problems()
        self.assertEqual(ledger.resolve_original('X-1', ['A.h -a'], None, tables, problems),
                         [('-a', 'SDWebImage/A.m:3', '4.4.8')])
        self.assertEqual(ledger.resolve_original('X-2', [], ['Core/B.m -b'], tables, problems),
                         [('-b', 'SDWebImage/Core/B.m:7', '5.21.5')])
        self.assertEqual(ledger.resolve_original('X-3', [], None, tables, problems), [])
        self.assertEqual(problems, [])
        ledger.resolve_original('X-4', ['A.m -gone'], None, tables, problems)
        self.assertEqual(len(problems), 1)


if __name__ == '__main__':
    unittest.main()
